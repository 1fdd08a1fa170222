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
// infinities and NaNs of several payloads.
func TestMax2DF32AgainstFirstMax(t *testing.T) {
	saved := haveMaxAVX2
	defer func() { haveMaxAVX2 = saved }()
	rng := rand.New(rand.NewPCG(3, 4))
	specials := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fc00001, 0xffc00002, 0x7f800001, 0x3f800000, 0xbf800000}
	vector := 0
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
	if vector < 100 {
		t.Errorf("only %d planes could take the stride-2 loops", vector)
	}
}
