package ops

import (
	"errors"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The convolutions on the ONNX operator documentation's examples (exact:
// sums of small integers), their refusals as one-line errors naming the
// rule, and a Conv refused for its scratch before any work. Random shapes
// against the reference engine are in reference/conv_test.go (within the
// bound reference.Agree states), the engine against the definition across
// tile boundaries in ops/internal/conv.

func convRamp(n int, shape ...int) *tensor.Tensor {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i)
	}
	return tensor.MustFromSlice(v, shape...)
}

func onesF(shape ...int) *tensor.Tensor {
	x := tensor.MustNew(tensor.Float, shape...)
	v, _ := tensor.Data[float32](x)
	for i := range v {
		v[i] = 1
	}
	return x
}

func wantConvOut(t *testing.T, name string, got tensor.Value, shape []int, want []float32) {
	t.Helper()
	w := tensor.MustFromSlice(want, shape...)
	if g, ok := got.(*tensor.Tensor); !ok || !g.Equal(w) {
		t.Errorf("%s: got %v, want %v", name, got, w)
	}
}

func TestConvDocumentationExamples(t *testing.T) {
	x := convRamp(25, 1, 1, 5, 5)
	w := onesF(1, 1, 3, 3)
	for _, c := range []struct {
		name  string
		x     *tensor.Tensor
		attrs map[string]Attribute
		shape []int
		want  []float32
	}{
		{"with padding", x, map[string]Attribute{"pads": ints(1, 1, 1, 1)}, []int{1, 1, 5, 5},
			[]float32{12, 21, 27, 33, 24, 33, 54, 63, 72, 51, 63, 99, 108, 117, 81, 93, 144, 153, 162, 111, 72, 111, 117, 123, 84}},
		{"without padding", x, nil, []int{1, 1, 3, 3}, []float32{54, 63, 72, 99, 108, 117, 144, 153, 162}},
		{"auto_pad SAME_LOWER, strides 2", x, map[string]Attribute{"auto_pad": strAttribute("SAME_LOWER"), "strides": ints(2, 2)},
			[]int{1, 1, 3, 3}, []float32{12, 27, 24, 63, 108, 81, 72, 117, 84}},
		{"strides 2, padding", convRamp(35, 1, 1, 7, 5), map[string]Attribute{"pads": ints(1, 1, 1, 1), "strides": ints(2, 2)},
			[]int{1, 1, 4, 3}, []float32{12, 27, 24, 63, 108, 81, 123, 198, 141, 112, 177, 124}},
		{"strides 2, no padding", convRamp(35, 1, 1, 7, 5), map[string]Attribute{"strides": ints(2, 2)},
			[]int{1, 1, 3, 2}, []float32{54, 72, 144, 162, 234, 252}},
		{"strides 2, asymmetric padding", convRamp(35, 1, 1, 7, 5), map[string]Attribute{"pads": ints(1, 0, 1, 0), "strides": ints(2, 2)},
			[]int{1, 1, 4, 2}, []float32{21, 33, 99, 117, 189, 207, 171, 183}},
	} {
		for _, v := range []int{1, 11, 22} {
			out, err := runKernel(nil, "Conv", v, 1, c.attrs, c.x, w)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			wantConvOut(t, c.name, out[0], c.shape, c.want)
		}
	}
	// The plain function: the same convolution, the bias added.
	y, err := Conv(x, w, tensor.MustFromSlice([]float32{1}, 1), ConvOptions{Pads: []int{1, 1, 1, 1}})
	if err != nil || y.Shape()[2] != 5 {
		t.Fatalf("Conv: %v %v", y, err)
	}
	if v, _ := tensor.Data[float32](y); v[0] != 13 || v[24] != 85 {
		t.Errorf("Conv with bias: %v", v)
	}
	if s, err := ConvShape([]int{8, 64, 56, 56}, []int{64, 64, 3, 3}, ConvOptions{Pads: []int{1, 1, 1, 1}}); err != nil || len(s) != 4 || s[2] != 56 {
		t.Errorf("ConvShape: %v %v", s, err)
	}
}

func TestConvTransposeDocumentationExample(t *testing.T) {
	x := convRamp(9, 1, 1, 3, 3)
	w := onesF(1, 2, 3, 3)
	plane := []float32{0, 1, 3, 3, 2, 3, 8, 15, 12, 7, 9, 21, 36, 27, 15, 9, 20, 33, 24, 13, 6, 13, 21, 15, 8}
	out, err := runKernel(nil, "ConvTranspose", 22, 1, nil, x, w)
	if err != nil {
		t.Fatal(err)
	}
	wantConvOut(t, "ConvTranspose", out[0], []int{1, 2, 5, 5}, append(append([]float32{}, plane...), plane...))
	// output_shape [5, 5] and SAME_UPPER on strides 1 name the same pads.
	for _, attrs := range []map[string]Attribute{{"output_shape": ints(5, 5), "pads": ints(0, 0, 0, 0)}, {"pads": ints(0, 0, 0, 0)}} {
		out, err := runKernel(nil, "ConvTranspose", 11, 1, attrs, x, w)
		if err != nil {
			t.Fatal(err)
		}
		wantConvOut(t, "ConvTranspose", out[0], []int{1, 2, 5, 5}, append(append([]float32{}, plane...), plane...))
	}
}

func TestConvIntegerExample(t *testing.T) {
	// ConvInteger's documentation example: x 2..10 (3x3), zero point 1,
	// w ones 2x2, pads 1.
	x := tensor.MustFromSlice([]uint8{2, 3, 4, 5, 6, 7, 8, 9, 10}, 1, 1, 3, 3)
	w := tensor.MustFromSlice([]uint8{1, 1, 1, 1}, 1, 1, 2, 2)
	out, err := runKernel(nil, "ConvInteger", 10, 1, map[string]Attribute{"pads": ints(1, 1, 1, 1)}, x, w, tensor.MustFromSlice([]uint8{1}, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := tensor.MustFromSlice([]int32{1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9}, 1, 1, 4, 4)
	if !out[0].(*tensor.Tensor).Equal(want) {
		t.Errorf("got %v, want %v", out[0], want)
	}
}

func TestQLinearConvRoundsHalfToEvenAndSaturates(t *testing.T) {
	// One tap: y = round(x * w * xs*ws/ys) + zy. With scales 1, 1, 2:
	// x*w/2 = 2.5 rounds to 2, 3.5 to 4; 300 saturates to 255.
	x := tensor.MustFromSlice([]uint8{5, 7, 200}, 1, 1, 1, 3)
	w := tensor.MustFromSlice([]uint8{1}, 1, 1, 1, 1)
	one := tensor.MustFromSlice([]float32{1}, 1)
	two := tensor.MustFromSlice([]float32{2}, 1)
	z := tensor.MustFromSlice([]uint8{0}, 1)
	b := tensor.MustFromSlice([]int32{400}, 1)
	out, err := runKernel(nil, "QLinearConv", 10, 1, nil, x, one, z, w, one, z, two, z)
	if err != nil {
		t.Fatal(err)
	}
	if got := out[0].(*tensor.Tensor).Bytes(); got[0] != 2 || got[1] != 4 || got[2] != 100 {
		t.Errorf("got %v, want [2 4 100]", got)
	}
	out, err = runKernel(nil, "QLinearConv", 10, 1, nil, x, one, z, w, one, z, two, z, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := out[0].(*tensor.Tensor).Bytes(); got[2] != 255 {
		t.Errorf("got %v, want 255 last", got)
	}
}

func TestConvRefusals(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 1, 4, 8, 8)
	w := tensor.MustNew(tensor.Float, 6, 2, 3, 3)
	for _, c := range []struct {
		op    string
		attrs map[string]Attribute
		in    []tensor.Value
		rule  string
	}{
		{"Conv", nil, []tensor.Value{x, w}, "channels"},
		{"Conv", map[string]Attribute{"group": {Type: AttrInt, Int: 4}}, []tensor.Value{x, tensor.MustNew(tensor.Float, 6, 1, 3, 3)}, "group"},
		{"Conv", map[string]Attribute{"group": {Type: AttrInt, Int: 0}}, []tensor.Value{x, w}, "group"},
		{"Conv", map[string]Attribute{"group": {Type: AttrInt, Int: 2}, "auto_pad": strAttribute("SAME")}, []tensor.Value{x, w}, "auto_pad"},
		{"Conv", map[string]Attribute{"group": {Type: AttrInt, Int: 2}, "kernel_shape": ints(2, 2)}, []tensor.Value{x, w}, "kernel_shape"},
		{"Conv", map[string]Attribute{"group": {Type: AttrInt, Int: 2}, "strides": ints(0, 1)}, []tensor.Value{x, w}, "strides"},
		{"Conv", map[string]Attribute{"group": {Type: AttrInt, Int: 2}}, []tensor.Value{x, tensor.MustNew(tensor.Float, 6, 2, 9, 9)}, "kernel_shape"},
		{"Conv", map[string]Attribute{"group": {Type: AttrInt, Int: 2}}, []tensor.Value{x, w, tensor.MustNew(tensor.Float, 5)}, "B"},
		{"Conv", nil, []tensor.Value{x, tensor.MustNew(tensor.Double, 6, 4, 3, 3)}, "type"},
		{"Conv", nil, []tensor.Value{tensor.MustNew(tensor.Float, 4, 8), tensor.MustNew(tensor.Float, 4, 8)}, "input-rank"},
		{"Conv", nil, []tensor.Value{x, tensor.MustNew(tensor.Float, 6, 4, 3)}, "W-rank"},
		{"ConvTranspose", map[string]Attribute{"output_padding": ints(-1, 0)}, []tensor.Value{x, tensor.MustNew(tensor.Float, 4, 2, 3, 3)}, "output_padding"},
		{"ConvTranspose", map[string]Attribute{"pads": ints(9, 9, 9, 9)}, []tensor.Value{x, tensor.MustNew(tensor.Float, 4, 2, 3, 3)}, "pads"},
		{"DeformConv", nil, []tensor.Value{tensor.MustNew(tensor.Float, 1, 4, 8), tensor.MustNew(tensor.Float, 6, 4, 3), tensor.MustNew(tensor.Float, 1, 6, 6)}, "input-rank"},
		{"DeformConv", nil, []tensor.Value{x, tensor.MustNew(tensor.Float, 6, 4, 3, 3), tensor.MustNew(tensor.Float, 1, 9, 6, 6)}, "offset"},
		{"Col2Im", nil, []tensor.Value{tensor.MustNew(tensor.Float, 1, 9, 5), i64s(4, 4), i64s(3, 3)}, "input"},
		{"Col2Im", nil, []tensor.Value{tensor.MustNew(tensor.Float, 1, 8, 4), i64s(4, 4), i64s(3, 3)}, "block_shape"},
		{"Col2Im", nil, []tensor.Value{tensor.MustNew(tensor.Bool, 1, 9, 4), i64s(4, 4), i64s(3, 3)}, "type"},
	} {
		s, err := Lookup("", c.op, 22)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Run(nil, &Node{OpType: c.op, Version: s.Since, Attrs: c.attrs, NumOutputs: 1}, c.in)
		var e *Error
		if !errors.As(err, &e) || e.Rule != c.rule || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), c.op) {
			t.Errorf("%s %v: got %v, want a one-line [%s] error", c.op, c.attrs, err, c.rule)
		}
	}
	// QLinearConv: w_scale must hold one value or one per output channel.
	u := func(shape ...int) *tensor.Tensor { return tensor.MustNew(tensor.Uint8, shape...) }
	f := func(n int) *tensor.Tensor { return tensor.MustNew(tensor.Float, n) }
	_, err := runKernel(nil, "QLinearConv", 10, 1, nil, u(1, 2, 4, 4), f(1), u(1), u(3, 2, 1, 1), f(2), u(1), f(1), u(1))
	wantRule(t, err, "w_scale", "")
}

// A Conv whose im2col tiles (double) or panels (float: the implicit
// GEMM's block of windows, some 490 KiB here) would pass the per-tensor
// cap is refused before any work (the output alone would fit).
func TestConvScratchRefusedBeforeWork(t *testing.T) {
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Double} {
		x := tensor.MustNew(dt, 1, 64, 64, 64)
		w := tensor.MustNew(dt, 1, 64, 7, 7)
		_, err := runKernel(&Options{MaxTensorBytes: 256 << 10, Threads: 1}, "Conv", 22, 1, nil, x, w)
		if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "im2col") {
			t.Fatalf("%v: got %v, want the im2col tiles refused", dt, err)
		}
	}
	x := tensor.MustNew(tensor.Float, 1, 64, 64, 64)
	w := tensor.MustNew(tensor.Float, 1, 64, 7, 7)
	_, err := runKernel(&Options{MaxTensorBytes: 512 << 10, Threads: 1}, "Conv", 22, 1, nil, x, w)
	if err != nil {
		t.Fatalf("float under 512 KiB: %v", err)
	}
	_, err = runKernel(&Options{MaxTensorBytes: 512 << 10, Threads: 1}, "Conv", 22, 1, nil, tensor.MustNew(tensor.Double, 1, 64, 64, 64), tensor.MustNew(tensor.Double, 1, 64, 7, 7))
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "im2col") {
		t.Fatalf("got %v, want the im2col tiles refused", err)
	}
}

// ConvTranspose under SAME_* gives in*stride positions, as the spec says,
// even where the kernel is shorter than the stride (onnxruntime differs:
// docs/divergences.md), and pads leaving nothing give an empty output.
func TestConvTransposeSameIsInTimesStride(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3}, 1, 1, 3)
	w := tensor.MustFromSlice([]float32{10}, 1, 1, 1)
	for _, mode := range []string{"SAME_UPPER", "SAME_LOWER"} {
		out, err := runKernel(nil, "ConvTranspose", 22, 1, map[string]Attribute{"auto_pad": strAttribute(mode), "strides": ints(2)}, x, w)
		if err != nil {
			t.Fatal(err)
		}
		wantConvOut(t, mode, out[0], []int{1, 1, 6}, []float32{10, 0, 20, 0, 30, 0})
	}
	out, err := runKernel(nil, "ConvTranspose", 22, 1, map[string]Attribute{"pads": ints(2, 1)}, x, w)
	if err != nil || out[0].(*tensor.Tensor).Shape()[2] != 0 {
		t.Fatalf("pads leaving nothing: %v %v", out, err)
	}
}
