package conv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/clamp"
)

// The depthwise kernel in float32 (the vector kernel where the CPU has
// it) against the definition: 1-D and 2-D, kernels 1-5, strides 1-3,
// dilations 1-2, pads 0-3, widths from narrower than the kernel to past
// two vector blocks, small integers (every sum exact, so equal bits).
func TestDepthwiseFloat32MatchesTheDefinition(t *testing.T) {
	defer func(k string) { rowKernel = k }(rowKernel)
	for _, k := range rowKernels() {
		rowKernel = k
		t.Run(k, testDepthwiseFloat32)
	}
}

func testDepthwiseFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for iter := range 3000 {
		rank := 1 + r.IntN(2)
		s := Shape{N: 1 + r.IntN(2), C: 1 + r.IntN(3)}
		s.M, s.Group = s.C, s.C
		for a := range rank {
			k, st, d, p := 1+r.IntN(5), 1+r.IntN(3), 1+r.IntN(2), r.IntN(4)
			if r.IntN(2) == 0 {
				k = 3 + 2*r.IntN(2)
			}
			in := 1 + r.IntN(40)
			if a == 0 && rank == 2 {
				in = 1 + r.IntN(6)
			}
			out := (in+2*p-(k-1)*d-1)/st + 1
			if out < 1 {
				p += (k - 1) * d
				out = (in+2*p-(k-1)*d-1)/st + 1
			}
			s.Image, s.Grid, s.Kernel = append(s.Image, in), append(s.Grid, out), append(s.Kernel, k)
			s.Stride, s.Dilation, s.Pad = append(s.Stride, st), append(s.Dilation, d), append(s.Pad, p)
		}
		x := randInts(r, s.N*s.C*prod(s.Image), -3, 3)
		w := randInts(r, s.M*prod(s.Kernel), -3, 3)
		b := randInts(r, s.M, -3, 3)
		if r.IntN(3) == 0 {
			b = nil
		}
		want := naiveForward(s, x, w, b)
		x32, w32, b32 := to32(x), to32(w), to32(b)
		y := make([]float32, len(want)+1)
		y[len(want)] = 99 // a guard: nothing is written past the output
		if err := Forward(Config{Threads: 1 + r.IntN(3)}, s, x32, w32, b32, y[:len(want)]); err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if float64(y[i]) != want[i] {
				t.Fatalf("%d: %+v: element %d is %v, want %v", iter, s, i, y[i], want[i])
			}
		}
		if y[len(want)] != 99 {
			t.Fatalf("%d: %+v: the element past the output was written", iter, s)
		}
	}
}

// The epilogue runs on every output element once, after its bias.
func TestEpilogueSeesFinishedOutputs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	defer func(b, m, i int) { tileBytes, minTile, implicitTile = b, m, i }(tileBytes, minTile, implicitTile)
	for iter := range 300 {
		tileBytes, minTile = 1, 1+r.IntN(7)
		implicitTile = 1 + r.IntN(70)
		s := randShape(r)
		x := to32(randInts(r, s.N*s.C*prod(s.Image), -3, 3))
		w := to32(randInts(r, s.M*(s.C/s.Group)*prod(s.Kernel), -3, 3))
		b := to32(randInts(r, s.M, -3, 3))
		plain := make([]float32, s.N*s.M*prod(s.Grid))
		if err := Forward(Config{Threads: 1}, s, x, w, b, plain); err != nil {
			t.Fatal(err)
		}
		fused := make([]float32, len(plain))
		var calls atomic.Int64
		cfg := Config{Threads: 1 + r.IntN(2), Epilogue32: func(y []float32) {
			calls.Add(int64(len(y)))
			for i := range y {
				y[i] = 2*y[i] + 1
			}
		}}
		if err := Forward(cfg, s, x, w, b, fused); err != nil {
			t.Fatal(err)
		}
		if int(calls.Load()) != len(plain) {
			t.Fatalf("%d: %+v: the epilogue saw %d elements, want %d", iter, s, calls.Load(), len(plain))
		}
		for i := range plain {
			if fused[i] != 2*plain[i]+1 {
				t.Fatalf("%d: %+v: element %d is %v, want %v", iter, s, i, fused[i], 2*plain[i]+1)
			}
		}
	}
}

func to32(v []float64) []float32 {
	if v == nil {
		return nil
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// Every vector row kernel gives the same bits as the widest (the bias,
// then one fused multiply-add per tap in order) on random floats, any
// length (blocks and every tail), strides 1 and 2, 1-12 taps; the Go sums
// (a multiply and an add per tap, which the compiler may or may not fuse)
// agree within taps * 2^-23 * (|bias| + sum |w*x|).
func TestRowKernelsSameBits(t *testing.T) {
	defer func(k string) { rowKernel = k }(rowKernel)
	r := rand.New(rand.NewPCG(9, 10))
	for iter := range 2000 {
		n, stride, taps := 1+r.IntN(70), 1+r.IntN(2), 1+r.IntN(12)
		span := (n-1)*stride + 1
		rows := make([][]float32, taps)
		ptrs := make([]unsafe.Pointer, taps)
		ws := make([]float32, taps)
		for i := range rows {
			// Each row exactly as long as the kernel may read, so that the
			// race detector and the guard pages would catch a read past it.
			rows[i] = make([]float32, span)
			for j := range rows[i] {
				rows[i][j] = float32(r.NormFloat64())
			}
			ptrs[i] = unsafe.Pointer(&rows[i][0])
			ws[i] = float32(r.NormFloat64())
		}
		bias := float32(r.NormFloat64())
		var first []float32
		var firstK string
		for _, k := range rowKernels() {
			rowKernel = k
			y := make([]float32, n+1)
			y[n] = 99
			if !rowTaps32(y[:n], ptrs, ws, stride, bias) {
				// The Go sums, as interior runs them.
				for j := range n {
					acc := bias
					for t := range taps {
						acc += ws[t] * rows[t][j*stride]
					}
					y[j] = acc
				}
			}
			if y[n] != 99 {
				t.Fatalf("%s: wrote past the row", k)
			}
			if first == nil {
				first, firstK = y[:n], k
				continue
			}
			for j := range n {
				if k != "go" {
					if math.Float32bits(y[j]) != math.Float32bits(first[j]) {
						t.Fatalf("%d: n %d stride %d taps %d: %s gives %v at %d, %s %v", iter, n, stride, taps, k, y[j], j, firstK, first[j])
					}
					continue
				}
				mag := math.Abs(float64(bias))
				for t := range taps {
					mag += math.Abs(float64(ws[t]) * float64(rows[t][j*stride]))
				}
				if d := math.Abs(float64(y[j]) - float64(first[j])); d > float64(taps)*0x1p-23*mag {
					t.Fatalf("%d: go gives %v at %d, %s %v", iter, y[j], j, firstK, first[j])
				}
			}
		}
	}
}

// MobileNetV2's depthwise layers (224x224 input) with a ReLU6 epilogue, as
// the fused Conv, BatchNormalization and Clip run them, on one core:
//
//	go test ./ops/internal/conv -run XXX -bench MobileNetDepthwise -benchtime 20x
func BenchmarkMobileNetDepthwise(b *testing.B) {
	layers := []struct{ c, size, stride int }{{32, 112, 1}, {96, 112, 2}, {144, 56, 1}, {144, 56, 2}, {192, 28, 1},
		{192, 28, 2}, {384, 14, 1}, {576, 14, 1}, {576, 14, 2}, {960, 7, 1}}
	for _, l := range layers {
		out := (l.size+2-3)/l.stride + 1
		s := Shape{N: 1, C: l.c, M: l.c, Group: l.c, Image: []int{l.size, l.size}, Grid: []int{out, out}, Kernel: []int{3, 3},
			Stride: []int{l.stride, l.stride}, Dilation: []int{1, 1}, Pad: []int{1, 1}}
		b.Run(fmt.Sprintf("%dx%d_%d_s%d", l.size, l.size, l.c, l.stride), func(b *testing.B) {
			x, w, bias, y := benchDepthwise3x3(l.c, l.size, out)
			relu6 := func(v []float32) { clamp.Float32(v, v, 0, 6) }
			cpu := cpuSeconds()
			for b.Loop() {
				if err := Forward(Config{Threads: 1, Epilogue32: relu6}, s, x, w, bias, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)*1e6/float64(b.N), "cpu-us/op")
		})
	}
}

// PP-OCRv4's text detector's depthwise layers (160x160 input: 3x3 on 80
// to 20, 5x5 on 10x10 and 5x5 planes) with a ReLU6 epilogue, on one core:
//
//	go test ./ops/internal/conv -run XXX -bench OCRDepthwise -benchtime 100x
func BenchmarkOCRDepthwise(b *testing.B) {
	layers := []struct{ c, size, k, stride int }{{16, 80, 3, 1}, {32, 80, 3, 2}, {48, 40, 3, 1}, {48, 40, 3, 2}, {96, 20, 3, 1},
		{96, 20, 3, 2}, {192, 10, 5, 1}, {192, 10, 5, 2}, {384, 5, 5, 1}}
	for _, l := range layers {
		p := l.k / 2
		out := (l.size+2*p-l.k)/l.stride + 1
		s := Shape{N: 1, C: l.c, M: l.c, Group: l.c, Image: []int{l.size, l.size}, Grid: []int{out, out}, Kernel: []int{l.k, l.k},
			Stride: []int{l.stride, l.stride}, Dilation: []int{1, 1}, Pad: []int{p, p}}
		b.Run(fmt.Sprintf("%dx%d_%d_k%d_s%d", l.size, l.size, l.c, l.k, l.stride), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			x := make([]float32, l.c*l.size*l.size)
			for i := range x {
				x[i] = r.Float32()*2 - 1
			}
			w := make([]float32, l.c*l.k*l.k)
			for i := range w {
				w[i] = r.Float32()*2 - 1
			}
			bias := make([]float32, l.c)
			y := make([]float32, l.c*out*out)
			relu6 := func(v []float32) { clamp.Float32(v, v, 0, 6) }
			cpu := cpuSeconds()
			for b.Loop() {
				if err := Forward(Config{Threads: 1, Epilogue32: relu6}, s, x, w, bias, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)*1e6/float64(b.N), "cpu-us/op")
		})
	}
}

// The four-row kernel gives the bits of the row-at-a-time path on random
// float32 values (rounding included): heights past several groups of four,
// strides 1-2, kernels 1-5, pads 0-2, dilations 1-2, widths 1-40.
func TestDepthwiseFourRowsAreTheRowKernel(t *testing.T) {
	if !slices.Contains(rowKernels(), "avx512") {
		t.Skip("no four-row kernel here")
	}
	defer func(k string) { rowKernel = k }(rowKernel)
	rowKernel = "avx512"
	r := rand.New(rand.NewPCG(9, 10))
	for iter := range 1500 {
		s := Shape{N: 1, C: 1 + r.IntN(3)}
		s.M, s.Group = s.C, s.C
		for a := range 2 {
			k, st, d, p := 1+r.IntN(5), 1+r.IntN(2), 1+r.IntN(2), r.IntN(3)
			in := 1 + r.IntN(40)
			if a == 0 {
				in = 4 + r.IntN(20)
			}
			out := (in+2*p-(k-1)*d-1)/st + 1
			if out < 1 {
				p += (k - 1) * d
				out = (in+2*p-(k-1)*d-1)/st + 1
			}
			s.Image, s.Grid, s.Kernel = append(s.Image, in), append(s.Grid, out), append(s.Kernel, k)
			s.Stride, s.Dilation, s.Pad = append(s.Stride, st), append(s.Dilation, d), append(s.Pad, p)
		}
		x := make([]float32, s.N*s.C*prod(s.Image))
		for i := range x {
			x[i] = r.Float32()*2 - 1
		}
		w := make([]float32, s.M*prod(s.Kernel))
		for i := range w {
			w[i] = r.Float32()*2 - 1
		}
		b := []float32{r.Float32(), r.Float32(), r.Float32()}[:s.M]
		n := s.N * s.M * prod(s.Grid)
		four, one := make([]float32, n+1), make([]float32, n+1)
		four[n], one[n] = 99, 99
		if err := Forward(Config{Threads: 1}, s, x, w, b, four[:n]); err != nil {
			t.Fatal(err)
		}
		dwFour = false
		err := Forward(Config{Threads: 1}, s, x, w, b, one[:n])
		dwFour = true
		if err != nil {
			t.Fatal(err)
		}
		for i := range four {
			if math.Float32bits(four[i]) != math.Float32bits(one[i]) {
				t.Fatalf("%d: %+v: element %d is %v four rows at a time, %v one at a time", iter, s, i, four[i], one[i])
			}
		}
	}
}

// The whole-row kernel gives the bits of the older paths (rowTaps32 and
// the four-row kernel for the interior, Go for the edges and the
// plane's first and last rows) on random float32 values, rounding
// included, and on the values where skipping a tap in the padding and
// adding 0*w differ: a -0 bias over -0 products, infinite and NaN
// weights (a NaN for a NaN). Strides 1-2, kernels 1-5, pads 0-4 (wider than the kernel
// too), dilations 1-2, widths 1-70, 1-D and 2-D, 1-3 threads (bands).
func TestDepthwiseWholeRowsAreTheRowPath(t *testing.T) {
	if !haveRowsKernel() {
		t.Skip("no whole-row kernel here")
	}
	r := rand.New(rand.NewPCG(11, 12))
	for iter := range 3000 {
		rank := 1 + r.IntN(2)
		s := Shape{N: 1 + r.IntN(2), C: 1 + r.IntN(3)}
		s.M, s.Group = s.C, s.C
		for a := range rank {
			k, st, d, p := 1+r.IntN(5), 1+r.IntN(2), 1+r.IntN(2), r.IntN(5)
			in := 1 + r.IntN(70)
			if a == 0 && rank == 2 {
				in = 1 + r.IntN(24)
			}
			out := (in+2*p-(k-1)*d-1)/st + 1
			if out < 1 {
				p += (k - 1) * d
				out = (in+2*p-(k-1)*d-1)/st + 1
			}
			s.Image, s.Grid, s.Kernel = append(s.Image, in), append(s.Grid, out), append(s.Kernel, k)
			s.Stride, s.Dilation, s.Pad = append(s.Stride, st), append(s.Dilation, d), append(s.Pad, p)
		}
		x, w, b := randomDepthwise(r, s)
		n := s.N * s.M * prod(s.Grid)
		rows, old := make([]float32, n+1), make([]float32, n+1)
		rows[n], old[n] = 99, 99
		threads := 1 + r.IntN(3)
		if err := Forward(Config{Threads: threads}, s, x, w, b, rows[:n]); err != nil {
			t.Fatal(err)
		}
		dwMasked = false
		err := Forward(Config{Threads: threads}, s, x, w, b, old[:n])
		dwMasked = true
		if err != nil {
			t.Fatal(err)
		}
		for i := range rows {
			// A NaN's sign and payload are the operand order's, which
			// the compiler picks differently for each of dwFull4's rows:
			// any NaN for a NaN.
			if math.Float32bits(rows[i]) != math.Float32bits(old[i]) && !(rows[i] != rows[i] && old[i] != old[i]) {
				t.Fatalf("%d: %+v: element %d is %v (%#x) by whole rows, %v (%#x) before", iter, s, i, rows[i], math.Float32bits(rows[i]), old[i], math.Float32bits(old[i]))
			}
		}
	}
}

// randomDepthwise draws a depthwise case's input, weights and bias (none
// in one case of four) for s: values in [-1, 1), and in three cases of four
// one value in eight special (0, -0, +-Inf, NaN); in one of those, -0 for
// half the inputs and the whole bias, where skipping a tap in the padding
// and adding 0*w differ.
func randomDepthwise(r *rand.Rand, s Shape) (x, w, b []float32) {
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	mode := r.IntN(4)
	value := func() float32 {
		if mode > 0 && r.IntN(8) == 0 {
			return special[r.IntN(len(special))]
		}
		return r.Float32()*2 - 1
	}
	x = make([]float32, s.N*s.C*prod(s.Image))
	for i := range x {
		x[i] = value()
		if mode == 1 && r.IntN(2) == 0 {
			x[i] = float32(math.Copysign(0, -1))
		}
	}
	w = make([]float32, s.M*prod(s.Kernel))
	for i := range w {
		w[i] = value()
	}
	if r.IntN(4) > 0 {
		b = make([]float32, s.M)
		for i := range b {
			b[i] = value()
			if mode == 1 {
				b[i] = float32(math.Copysign(0, -1))
			}
		}
	}
	return x, w, b
}

// benchDepthwise3x3 makes a benchmark's operands for a 3x3 depthwise
// convolution of c channels on size x size planes into out x out: input
// and weights in [-1, 1) from a fixed seed, a zero bias, the output.
func benchDepthwise3x3(c, size, out int) (x, w, bias, y []float32) {
	r := rand.New(rand.NewPCG(1, 2))
	x = make([]float32, c*size*size)
	for i := range x {
		x[i] = r.Float32()*2 - 1
	}
	w = make([]float32, c*9)
	for i := range w {
		w[i] = r.Float32()*2 - 1
	}
	return x, w, make([]float32, c), make([]float32, c*out*out)
}
