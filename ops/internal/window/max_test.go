package window

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The float32 fast path of Max2D (the row maxima, the vector loops for
// kernels 2 and 3 at stride 2, and their Go forms) against firstMax window
// by window, bit for bit, on random 1-D and 2-D geometries with odd widths,
// pads, ceil_mode and dilations, over planes full of ties, both zeros,
// infinities and NaNs of several payloads, and planes as a Relu leaves them
// (+0s and no -0: the rows that skip the reread of zero windows).
func TestMax2DF32AgainstFirstMax(t *testing.T) {
	saved := haveMaxAVX2
	defer func() { haveMaxAVX2 = saved }()
	rng := rand.New(rand.NewPCG(3, 4))
	specials := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fc00001, 0xffc00002, 0x7f800001, 0x3f800000, 0xbf800000}
	vector, relu := 0, 0
	for iter := range 3000 {
		spatial := 1 + rng.IntN(2)
		var axes []Axis
		ok := true
		for k := range spatial {
			ax := Axis{In: 1 + rng.IntN(70), Kernel: []int{2, 3, 3, 1, 4, 5}[rng.IntN(6)], Stride: []int{2, 2, 1, 3}[rng.IntN(4)], Dilation: 1}
			if rng.IntN(4) == 0 && (k == 0 || rng.IntN(3) == 0) {
				ax.Dilation = 2
			}
			ax.PadBegin, ax.PadEnd = rng.IntN(ax.Kernel), rng.IntN(ax.Kernel+1)
			span := ax.In + ax.PadBegin + ax.PadEnd - int(DilatedKernel(ax.Kernel, ax.Dilation))
			if span < 0 {
				ok = false
				break
			}
			ax.Out = span/ax.Stride + 1
			if rng.IntN(2) == 0 { // ceil_mode
				ax.Out = (span+ax.Stride-1)/ax.Stride + 1
				if (ax.Out-1)*ax.Stride >= ax.In+ax.PadBegin {
					ax.Out = (ax.In + ax.PadBegin + ax.Stride - 1) / ax.Stride
				}
			}
			axes = append(axes, ax)
		}
		if !ok {
			continue
		}
		w := NewWindows(axes).As2D()
		in := make([]float32, w.InPlane)
		for i := range in {
			switch rng.IntN(6) {
			case 0:
				in[i] = math.Float32frombits(specials[rng.IntN(len(specials))])
			case 1:
				in[i] = float32(rng.IntN(3))
			default:
				in[i] = float32(rng.NormFloat64())
			}
		}
		if rng.IntN(3) == 0 { // most planes without NaN
			for i, v := range in {
				if v != v {
					in[i] = 1
				}
			}
		}
		if rng.IntN(3) == 0 { // as after a Relu: +0s, no -0 (clean rows)
			relu++
			for i, v := range in {
				if v <= 0 && (rng.IntN(8) != 0 || v == 0) {
					in[i] = 0
				}
			}
		}
		want := make([]float32, w.OutPlane)
		outW := w.OutShape[1]
		for oh := range w.OutShape[0] {
			for ow := range outW {
				want[oh*outW+ow] = firstMax(in, w.First[0][oh]*w.InStride[0]+w.First[1][ow], w.Count[0][oh], w.Count[1][ow], w.TapStride[0], w.TapStride[1])
			}
		}
		for _, avx := range []bool{false, saved} {
			haveMaxAVX2 = avx
			got := make([]float32, w.OutPlane)
			Max2D(in, got, w, nil)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					oh, ow := i/outW, i%outW
					r0, c0 := w.First[0][oh], w.First[1][ow]
					for r := range w.Count[0][oh] {
						for c := range w.Count[1][ow] {
							t.Logf("tap %d,%d: %v", r, c, in[(r0+r*w.Dilation[0])*w.InStride[0]+c0+c*w.TapStride[1]])
						}
					}
					t.Fatalf("iter %d avx %v axes %+v: output %d is %x, want %x", iter, avx, axes, i, math.Float32bits(got[i]), math.Float32bits(want[i]))
				}
			}
		}
		if w.TapStride[1] == 1 && outW >= 8 && axes[len(axes)-1].Stride == 2 {
			vector++
		}
	}
	if vector < 100 || relu < 500 {
		t.Errorf("only %d planes could take the stride-2 loops, %d planes as after a Relu", vector, relu)
	}
}

// BenchmarkMax2DAfterRelu is MaxPool's plane loop over what a Relu leaves
// (half the elements +0): CRNN's 2x2 stride 2 on 32x200 and (2,1) stride
// (2,1) on 16x100, SqueezeNet's 3x3 stride 2 ceil on 111x111.
func BenchmarkMax2DAfterRelu(b *testing.B) {
	for _, c := range []struct {
		name string
		axes []Axis
	}{
		{"2x2s2_32x200", []Axis{{In: 32, Kernel: 2, Stride: 2, Dilation: 1, Out: 16}, {In: 200, Kernel: 2, Stride: 2, Dilation: 1, Out: 100}}},
		{"2x1s2x1_16x100", []Axis{{In: 16, Kernel: 2, Stride: 2, Dilation: 1, Out: 8}, {In: 100, Kernel: 1, Stride: 1, Dilation: 1, Out: 100}}},
		{"3x3s2_111x111", []Axis{{In: 111, Kernel: 3, Stride: 2, Dilation: 1, Out: 55}, {In: 111, Kernel: 3, Stride: 2, Dilation: 1, Out: 55}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			w := NewWindows(c.axes).As2D()
			rng := rand.New(rand.NewPCG(1, 2))
			in := make([]float32, w.InPlane)
			for i := range in {
				in[i] = max(float32(rng.NormFloat64()), 0)
			}
			out := make([]float32, w.OutPlane)
			s := NewMaxScratch(w)
			b.SetBytes(int64(4 * len(in)))
			for b.Loop() {
				Max2D(in, out, w, s)
			}
		})
	}
}
