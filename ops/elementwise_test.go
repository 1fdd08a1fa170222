package ops

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/tensor"
)

// float64sOf returns a tensor's values as float64, for comparisons.
func float64sOf(t *testing.T, x *tensor.Tensor) []float64 {
	t.Helper()
	v, err := x.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func wantFloats(t *testing.T, y *tensor.Tensor, shape []int, want []float64) {
	t.Helper()
	if !slices.Equal(y.Shape(), shape) {
		t.Fatalf("shape %v, want %v", y.Shape(), shape)
	}
	got := float64sOf(t, y)
	for i := range want {
		if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func wantBools(t *testing.T, y *tensor.Tensor, want ...bool) {
	t.Helper()
	got, err := tensor.ToSlice[bool](y)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("got %v (%v), want %v", got, err, want)
	}
}

// The spec's own examples and the node tests' cases, exact values.
func TestElementwiseSpecExamples(t *testing.T) {
	f32 := func(v []float32, shape ...int) *tensor.Tensor { return tensor.MustFromSlice(v, shape...) }
	t.Run("Add broadcasts both ways", func(t *testing.T) {
		y, err := runNode(nil, "Add", 14, nil, f32([]float32{1, 2, 3}, 3, 1), f32([]float32{10, 20}, 1, 2))
		checkRule(t, err, "")
		wantFloats(t, y, []int{3, 2}, []float64{11, 21, 12, 22, 13, 23})
	})
	t.Run("Div of integers truncates toward zero", func(t *testing.T) {
		y, err := runNode(nil, "Div", 14, nil, tensor.MustFromSlice([]int32{7, -7, 7, -7}, 4), tensor.MustFromSlice([]int32{2, 2, -2, -2}, 4))
		checkRule(t, err, "")
		wantFloats(t, y, []int{4}, []float64{3, -3, -3, 3})
	})
	t.Run("Mod fmod=0 takes the divisor's sign, fmod=1 the dividend's", func(t *testing.T) {
		a := tensor.MustFromSlice([]int32{-4, 7, 5, 4, -7, 8}, 6)
		b := tensor.MustFromSlice([]int32{2, -3, 8, -2, 3, 5}, 6)
		y, err := runNode(nil, "Mod", 13, nil, a, b)
		checkRule(t, err, "")
		wantFloats(t, y, []int{6}, []float64{0, -2, 5, 0, 2, 3})
		y, err = runNode(nil, "Mod", 13, map[string]Attribute{"fmod": intAttribute(1)}, a, b)
		checkRule(t, err, "")
		wantFloats(t, y, []int{6}, []float64{0, 1, 5, 0, -1, 3})
		_, err = runNode(nil, "Mod", 13, nil, f32([]float32{1}, 1), f32([]float32{1}, 1))
		checkRule(t, err, "fmod")
	})
	t.Run("Pow of mixed types has the base's type", func(t *testing.T) {
		y, err := runNode(nil, "Pow", 15, nil, f32([]float32{1, 2, 3}, 3), tensor.MustFromSlice([]int64{4, 5, 6}, 3))
		checkRule(t, err, "")
		wantFloats(t, y, []int{3}, []float64{1, 32, 729})
		y, err = runNode(nil, "Pow", 15, nil, tensor.MustFromSlice([]int32{1, 2, 3}, 3), f32([]float32{4, 5, 0.5}, 3))
		checkRule(t, err, "")
		wantFloats(t, y, []int{3}, []float64{1, 32, 1}) // 3^0.5 = 1.73 truncated
	})
	t.Run("Round halves to even", func(t *testing.T) {
		y, err := runNode(nil, "Round", 22, nil, f32([]float32{0.5, 1.5, 2.5, -2.5, -0.5, 2.4, 2.6}, 7))
		checkRule(t, err, "")
		wantFloats(t, y, []int{7}, []float64{0, 2, 2, -2, 0, 2, 3})
	})
	t.Run("Clip with min above max gives max", func(t *testing.T) {
		y, err := runNode(nil, "Clip", 13, nil, f32([]float32{-2, 0, 2}, 3), tensor.Scalar[float32](2), tensor.Scalar[float32](1))
		checkRule(t, err, "")
		wantFloats(t, y, []int{3}, []float64{1, 1, 1})
	})
	t.Run("Clip-6 reads its bounds from attributes", func(t *testing.T) {
		y, err := runNode(nil, "Clip", 6, map[string]Attribute{"min": {Type: AttrFloat, Float: -1}}, f32([]float32{-2, 0, 5}, 3))
		checkRule(t, err, "")
		wantFloats(t, y, []int{3}, []float64{-1, 0, 5})
	})
	t.Run("BitShift", func(t *testing.T) {
		x := tensor.MustFromSlice([]uint8{16, 4, 1}, 3)
		s := tensor.MustFromSlice([]uint8{1, 2, 3}, 3)
		y, err := runNode(nil, "BitShift", 11, map[string]Attribute{"direction": strAttribute("RIGHT")}, x, s)
		checkRule(t, err, "")
		wantFloats(t, y, []int{3}, []float64{8, 1, 0})
		y, err = runNode(nil, "BitShift", 11, map[string]Attribute{"direction": strAttribute("LEFT")}, x, s)
		checkRule(t, err, "")
		wantFloats(t, y, []int{3}, []float64{32, 16, 8})
		_, err = runNode(nil, "BitShift", 11, nil, x, s)
		checkRule(t, err, "direction")
	})
	t.Run("Where", func(t *testing.T) {
		cond := tensor.MustFromSlice([]bool{true, false, true, true}, 2, 2)
		y, err := runNode(nil, "Where", 16, nil, cond, f32([]float32{1, 2, 3, 4}, 2, 2), f32([]float32{9, 8, 7, 6}, 2, 2))
		checkRule(t, err, "")
		wantFloats(t, y, []int{2, 2}, []float64{1, 8, 3, 4})
	})
	t.Run("Where on strings", func(t *testing.T) {
		x, _ := tensor.FromSlice([]string{"a", "b"}, 2)
		yv, _ := tensor.FromSlice([]string{"z"}, 1)
		y, err := runNode(nil, "Where", 16, nil, tensor.MustFromSlice([]bool{false, true}, 2), x, yv)
		checkRule(t, err, "")
		if got := y.Strings(); !slices.Equal(got, []string{"z", "b"}) {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("comparisons with NaN are false", func(t *testing.T) {
		nan := float32(math.NaN())
		a, b := f32([]float32{nan, 1, 2}, 3), f32([]float32{nan, nan, 2}, 3)
		for op, want := range map[string][]bool{
			"Equal": {false, false, true}, "Less": {false, false, false}, "LessOrEqual": {false, false, true},
			"Greater": {false, false, false}, "GreaterOrEqual": {false, false, true},
		} {
			y, err := runNode(nil, op, 16, nil, a, b)
			checkRule(t, err, "")
			wantBools(t, y, want...)
		}
	})
	t.Run("IsInf detects the infinities asked for", func(t *testing.T) {
		x := f32([]float32{float32(math.Inf(1)), float32(math.Inf(-1)), 1, float32(math.NaN())}, 4)
		y, err := runNode(nil, "IsInf", 20, map[string]Attribute{"detect_negative": intAttribute(0)}, x)
		checkRule(t, err, "")
		wantBools(t, y, true, false, false, false)
		y, err = runNode(nil, "IsNaN", 20, nil, x)
		checkRule(t, err, "")
		wantBools(t, y, false, false, false, true)
	})
	t.Run("PRelu broadcasts slope to X only", func(t *testing.T) {
		y, err := runNode(nil, "PRelu", 16, nil, f32([]float32{-1, 2, -3, 4}, 2, 2), f32([]float32{0.5, 2}, 2))
		checkRule(t, err, "")
		wantFloats(t, y, []int{2, 2}, []float64{-0.5, 2, -1.5, 4})
		_, err = runNode(nil, "PRelu", 16, nil, f32([]float32{-1, 2}, 2), f32([]float32{1, 2, 3, 4}, 2, 2))
		checkRule(t, err, "broadcast")
	})
	t.Run("PRelu-6 applies a slope of C along the channels", func(t *testing.T) {
		y, err := runNode(nil, "PRelu", 6, nil, f32([]float32{-1, -1, -1, -1}, 1, 2, 2), f32([]float32{2, 3}, 2))
		checkRule(t, err, "")
		wantFloats(t, y, []int{1, 2, 2}, []float64{-2, -2, -3, -3})
	})
	t.Run("Sum, Mean, Max and Min of three broadcast inputs", func(t *testing.T) {
		a, b, c := f32([]float32{1, 2, 3}, 3), f32([]float32{10}, 1), f32([]float32{100, 200}, 2, 1)
		for op, want := range map[string][]float64{
			"Sum":  {111, 112, 113, 211, 212, 213},
			"Mean": {37, 112.0 / 3, 113.0 / 3, 211.0 / 3, 212.0 / 3, 71},
			"Max":  {100, 100, 100, 200, 200, 200},
			"Min":  {1, 2, 3, 1, 2, 3},
		} {
			y, err := runNode(nil, op, 13, nil, a, b, c)
			checkRule(t, err, "")
			got := float64sOf(t, y)
			for i := range want {
				if float32(got[i]) != float32(want[i]) {
					t.Fatalf("%s: got %v, want %v", op, got, want)
				}
			}
		}
		_, err := runNode(nil, "Sum", 6, nil, a, b)
		checkRule(t, err, "shape")
	})
	t.Run("Swish and SwiGLU gate with x*sigmoid(alpha*x)", func(t *testing.T) {
		swish := func(alpha, x float64) float64 { return x / (1 + math.Exp(-alpha*x)) }
		x := f32([]float32{-2, 0, 1.5}, 3)
		y, err := runNode(nil, "Swish", 24, map[string]Attribute{"alpha": {Type: AttrFloat, Float: 0.5}}, x)
		checkRule(t, err, "")
		wantFloats(t, y, []int{3}, []float64{float64(float32(swish(0.5, -2))), 0, float64(float32(swish(0.5, 1.5)))})
		value := f32([]float32{3, 7, -2}, 3)
		y, err = runNode(nil, "SwiGLU", 28, nil, x, value)
		checkRule(t, err, "")
		wantFloats(t, y, []int{3}, []float64{float64(float32(swish(1, -2) * 3)), 0, float64(float32(swish(1, 1.5) * -2))})
		// No broadcasting, even where Mul would broadcast.
		_, err = runNode(nil, "SwiGLU", 28, nil, f32([]float32{1, 2, 3, 4, 5, 6}, 2, 3), x)
		checkRule(t, err, "shape")
		_, err = runNode(nil, "SwiGLU", 28, nil, x, tensor.MustNew(tensor.Double, 3))
		checkRule(t, err, "type")
	})
	t.Run("Gelu and its tanh approximation", func(t *testing.T) {
		x := f32([]float32{-1, 0, 1}, 3)
		y, err := runNode(nil, "Gelu", 20, nil, x)
		checkRule(t, err, "")
		// float32 is mathf.Gelu's algorithm: within 4 ulps of the exact
		// value for x >= -1 (here 1 ulp at x = 1).
		ys, err := y.Float32s()
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []float64{-0.15865525393145707, 0, 0.8413447460685429} {
			got := float64(ys[i])
			if math.Abs(got-want) > 4*math.Abs(want)*0x1p-24 {
				t.Errorf("Gelu(%v) = %v, want %v within 4 ulps", []float32{-1, 0, 1}[i], got, want)
			}
		}
		_, err = runNode(nil, "Gelu", 20, map[string]Attribute{"approximate": strAttribute("erf")}, x)
		checkRule(t, err, "approximate")
	})
}

// Versions 1 to 6 broadcast by the legacy rule: B fits A from axis on.
func TestLegacyBroadcast(t *testing.T) {
	a := tensor.MustNew(tensor.Float, 2, 3, 4, 5)
	for _, tc := range []struct {
		b    []int
		axis int64
		rule string
	}{
		{[]int{5}, -1, ""}, {[]int{4, 5}, -1, ""}, {[]int{3, 4}, 1, ""}, {[]int{2}, 0, ""},
		{[]int{1}, -1, ""}, {[]int{3}, -1, "broadcast"}, {[]int{3, 4}, 3, "axis"},
	} {
		attrs := map[string]Attribute{"broadcast": intAttribute(1)}
		if tc.axis >= 0 {
			attrs["axis"] = intAttribute(tc.axis)
		}
		y, err := runNode(nil, "Add", 6, attrs, a, tensor.MustNew(tensor.Float, tc.b...))
		checkRule(t, err, tc.rule)
		if err == nil && !slices.Equal(y.Shape(), a.Shape()) {
			t.Errorf("B %v: output %v", tc.b, y.Shape())
		}
	}
	// Without broadcast, the shapes must be equal.
	_, err := runNode(nil, "Mul", 1, nil, a, tensor.MustNew(tensor.Float, 5))
	checkRule(t, err, "broadcast")
	// Values: B = [1, 2, 3] along axis 1 of a [1, 3, 2] zero tensor.
	y, err := runNode(nil, "Add", 6, map[string]Attribute{"broadcast": intAttribute(1), "axis": intAttribute(1)},
		tensor.MustNew(tensor.Float, 1, 3, 2), tensor.MustFromSlice([]float32{1, 2, 3}, 3))
	checkRule(t, err, "")
	wantFloats(t, y, []int{1, 3, 2}, []float64{1, 1, 2, 2, 3, 3})
}

// The choices docs/divergences.md records for what the spec leaves open.
func TestElementwiseDivergencesPinned(t *testing.T) {
	i32 := func(v ...int32) *tensor.Tensor { return tensor.MustFromSlice(v, len(v)) }
	t.Run("integer division and remainder by zero give 0, refused under SONNX", func(t *testing.T) {
		for _, op := range []string{"Div", "Mod"} {
			y, err := runNode(nil, op, 13, nil, i32(7, -7), i32(0, 0))
			checkRule(t, err, "")
			wantFloats(t, y, []int{2}, []float64{0, 0})
			_, err = runNode(&Options{Profile: ProfileSONNX}, op, 13, nil, i32(7, -7), i32(1, 0))
			want := "zero-divisor"
			if op == "Div" { // the SONNX specification's id
				want = "E_DIV_INT_CONSTR_B_0030"
			}
			checkRule(t, err, want)
		}
	})
	t.Run("integer overflow wraps", func(t *testing.T) {
		y, err := runNode(nil, "Add", 14, nil, tensor.MustFromSlice([]int8{127}, 1), tensor.MustFromSlice([]int8{1}, 1))
		checkRule(t, err, "")
		wantFloats(t, y, []int{1}, []float64{-128})
		for _, op := range []string{"Abs", "Neg"} {
			y, err = runNode(nil, op, 13, nil, tensor.MustFromSlice([]int8{-128}, 1))
			checkRule(t, err, "")
			wantFloats(t, y, []int{1}, []float64{-128})
		}
		y, err = runNode(nil, "Div", 14, nil, tensor.MustFromSlice([]int8{-128}, 1), tensor.MustFromSlice([]int8{-1}, 1))
		checkRule(t, err, "")
		wantFloats(t, y, []int{1}, []float64{-128})
	})
	t.Run("a shift by the width or more gives 0", func(t *testing.T) {
		y, err := runNode(nil, "BitShift", 11, map[string]Attribute{"direction": strAttribute("LEFT")},
			tensor.MustFromSlice([]uint8{1, 1}, 2), tensor.MustFromSlice([]uint8{8, 200}, 2))
		checkRule(t, err, "")
		wantFloats(t, y, []int{2}, []float64{0, 0})
	})
	t.Run("integer Pow: exact and wrapping, negative exponents truncated", func(t *testing.T) {
		y, err := runNode(nil, "Pow", 15, nil, i32(2, 2, 1, -1, -1, 3, 0), i32(31, 32, -5, -3, -4, -1, -2))
		checkRule(t, err, "")
		wantFloats(t, y, []int{7}, []float64{math.MinInt32, 0, 1, -1, 1, 0, 0})
		y, err = runNode(nil, "Pow", 15, nil, i32(10), tensor.MustFromSlice([]float32{20.5}, 1))
		checkRule(t, err, "")
		wantFloats(t, y, []int{1}, []float64{math.MaxInt32}) // saturated
	})
	t.Run("Relu, Max and Min keep NaN", func(t *testing.T) {
		nan := float32(math.NaN())
		y, err := runNode(nil, "Relu", 14, nil, tensor.MustFromSlice([]float32{nan, -1, float32(math.Copysign(0, -1))}, 3))
		checkRule(t, err, "")
		v, _ := tensor.ToSlice[float32](y)
		if !math.IsNaN(float64(v[0])) || v[1] != 0 || !math.Signbit(float64(v[2])) {
			t.Fatalf("Relu gave %v", v)
		}
		for _, op := range []string{"Max", "Min"} {
			y, err = runNode(nil, op, 13, nil, tensor.MustFromSlice([]float32{nan, 1}, 2), tensor.MustFromSlice([]float32{1, nan}, 2))
			checkRule(t, err, "")
			wantFloats(t, y, []int{2}, []float64{math.NaN(), math.NaN()})
		}
	})
	t.Run("Shrink and Erf of integers truncate toward zero", func(t *testing.T) {
		y, err := runNode(nil, "Shrink", 9, map[string]Attribute{"bias": {Type: AttrFloat, Float: 1.5}, "lambd": {Type: AttrFloat, Float: 1}},
			tensor.MustFromSlice([]int8{-3, -1, 0, 1, 3}, 5))
		checkRule(t, err, "")
		wantFloats(t, y, []int{5}, []float64{-1, 0, 0, 0, 1}) // -1.5 and 1.5 truncated
		y, err = runNode(nil, "Erf", 9, nil, i32(-7, -1, 0, 1, 7))
		checkRule(t, err, "")
		wantFloats(t, y, []int{5}, []float64{-1, 0, 0, 0, 1})
	})
	t.Run("float16 computes through float32 and rounds once", func(t *testing.T) {
		// 1 + 2^-11 + 2^-11 in float16 steps would stay 1; Add sees the
		// float32 sum of two float16 values, rounded once: 1 + 2^-10.
		h := func(v ...float32) *tensor.Tensor {
			out := make([]float16.Float16, len(v))
			for i, x := range v {
				out[i] = float16.Fromfloat32(x)
			}
			return tensor.MustFromSlice(out, len(v))
		}
		y, err := runNode(nil, "Add", 14, nil, h(1), h(1.0/1024))
		checkRule(t, err, "")
		wantFloats(t, y, []int{1}, []float64{1 + 1.0/1024})
		y, err = runNode(nil, "Mul", 14, nil, h(1+1.0/1024), h(1+1.0/1024)) // exact 1 + 2^-9 + 2^-20
		checkRule(t, err, "")
		wantFloats(t, y, []int{1}, []float64{1 + 1.0/512})
	})
}

// Rule violations are errors naming the rule, and nothing is allocated
// above the size limit.
func TestElementwiseRefusals(t *testing.T) {
	f := tensor.MustNew(tensor.Float, 2, 3)
	_, err := runNode(nil, "Add", 14, nil, f, tensor.MustNew(tensor.Float, 4))
	checkRule(t, err, "broadcast")
	_, err = runNode(nil, "Add", 14, nil, f, tensor.MustNew(tensor.Double, 2, 3))
	checkRule(t, err, "type")
	_, err = runNode(nil, "Add", 13, nil, tensor.MustNew(tensor.Int8, 1), tensor.MustNew(tensor.Int8, 1))
	checkRule(t, err, "type") // int8 joins Add in version 14
	_, err = runNode(nil, "Relu", 13, nil, tensor.MustNew(tensor.Int32, 1))
	checkRule(t, err, "type") // signed integers join Relu in version 14
	_, err = runNode(nil, "Where", 16, nil, tensor.MustNew(tensor.Int32, 1), f, f)
	checkRule(t, err, "type")
	_, err = runNode(nil, "Clip", 13, nil, f, tensor.MustNew(tensor.Float, 2))
	checkRule(t, err, "bounds")
	_, err = runNode(nil, "Celu", 12, map[string]Attribute{"alpha": {Type: AttrFloat, Float: 0}}, f)
	checkRule(t, err, "alpha")
	big := tensor.MustNew(tensor.Float, 1000, 1)
	_, err = runNode(&Options{MaxTensorBytes: 1 << 20}, "Add", 14, nil, big, tensor.MustNew(tensor.Float, 1, 1000))
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v, want ErrLimit", err)
	}
}

// Large broadcasts run split across cores: the result must be the one
// core's, for every pattern of broadcast and the chunked 16-bit floats.
func TestElementwiseParallelMatchesSerial(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := [][2][]int{
		{{2, 64, 33, 31}, {1, 64, 1, 1}},
		{{2, 64, 33, 31}, {2, 64, 33, 31}},
		{{16, 1, 517}, {1, 20, 1}},
		{{300, 1}, {1, 700}},
		{{1}, {3, 100000}},
	}
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Float16, tensor.BFloat16, tensor.Int64, tensor.Uint8} {
		for _, sh := range shapes {
			a, b := randomOf(rng, dt, sh[0]), randomOf(rng, dt, sh[1])
			for _, op := range []string{"Add", "Sub", "Max", "Greater"} {
				serial, err := runNode(&Options{Threads: 1}, op, 16, nil, a, b)
				checkRule(t, err, "")
				parallel, err := runNode(&Options{Threads: 4}, op, 16, nil, a, b)
				checkRule(t, err, "")
				if !parallel.Equal(serial) {
					t.Fatalf("%s %v %v: parallel result differs", op, dt, sh)
				}
				// Against the definition, element by element.
				checkBroadcastElements(t, op, a, b, serial)
			}
		}
	}
	cond := randomOf(rng, tensor.Bool, []int{64, 1, 517})
	x, y := randomOf(rng, tensor.Float, []int{1, 30, 1}), randomOf(rng, tensor.Float, []int{517})
	serial, err := runNode(&Options{Threads: 1}, "Where", 16, nil, cond, x, y)
	checkRule(t, err, "")
	parallel, err := runNode(&Options{Threads: 4}, "Where", 16, nil, cond, x, y)
	checkRule(t, err, "")
	if !parallel.Equal(serial) {
		t.Fatal("Where: parallel result differs")
	}
}

// checkBroadcastElements checks Sub's output element by element against
// numpy's indexing (the other operators are checked by the reference
// engine's tests).
func checkBroadcastElements(t *testing.T, op string, a, b, y *tensor.Tensor) {
	t.Helper()
	if op != "Sub" || a.DataType() != tensor.Int64 {
		return
	}
	av, bv, yv := floatsOf(a), floatsOf(b), floatsOf(y)
	for k := range yv {
		idx := multiIndex(k, y.Shape())
		want := av[flatIndex(broadcastIndex(idx, a.Shape()), a.Shape())] - bv[flatIndex(broadcastIndex(idx, b.Shape()), b.Shape())]
		if yv[k] != want {
			t.Fatalf("element %v: %v, want %v", idx, yv[k], want)
		}
	}
}

func floatsOf(x *tensor.Tensor) []int64 {
	v, _ := x.Int64s()
	return v
}

// broadcastIndex is the index into a tensor of shape s that output index
// idx reads.
func broadcastIndex(idx, s []int) []int {
	at := make([]int, len(s))
	for k, d := range s {
		if d != 1 {
			at[k] = idx[len(idx)-len(s)+k]
		}
	}
	return at
}

// Inputs are never modified, also by the variadic operators that
// accumulate in place.
func TestElementwiseInputsUnchanged(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a, b := randomOf(rng, tensor.Float, []int{3, 4}), randomOf(rng, tensor.Float, []int{3, 4})
	ac, bc := a.Clone(), b.Clone()
	for _, op := range []string{"Sum", "Mean", "Max", "Add", "Div"} {
		if _, err := runNode(nil, op, 13, nil, a, b, a); err != nil && op != "Add" && op != "Div" {
			t.Fatal(err)
		}
		if _, err := runNode(nil, op, 13, nil, a, b); err != nil {
			t.Fatal(err)
		}
	}
	for _, op := range []string{"Sum", "Mean"} {
		y, err := runNode(nil, op, 13, nil, a)
		checkRule(t, err, "")
		if y.SharesStorage(a) {
			t.Fatalf("%s of one input returns the input's storage", op)
		}
	}
	if !a.Equal(ac) || !b.Equal(bc) {
		t.Fatal("an input was modified")
	}
}

func TestConvertFloatSaturates(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{1e10, "127"}, {-1e10, "-128"}, {math.NaN(), "0"}, {-2.7, "-2"}, {127.9, "127"},
	} {
		if got := fmt.Sprint(convertFloat[int8](tc.x)); got != tc.want {
			t.Errorf("int8(%v) = %s, want %s", tc.x, got, tc.want)
		}
	}
	if convertFloat[uint64](1e30) != math.MaxUint64 || convertFloat[int64](1e30) != math.MaxInt64 || convertFloat[int64](-1e30) != math.MinInt64 {
		t.Error("64-bit saturation")
	}
}

// The AVX loops of Add, Sub, Mul and Div (with ordinary and with streaming
// stores) give the Go loops' results for every length and alignment of a
// span, every broadcast pattern.
func TestArithmeticLoopsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Double} {
		for _, shapes := range [][2][]int{{{3, 301}, {3, 301}}, {{3, 301}, {3, 1}}, {{3, 1}, {3, 301}}, {{517}, {517}}, {{2, 77}, {77}}} {
			a, b := randomOf(rng, dt, shapes[0]), randomOf(rng, dt, shapes[1])
			for _, op := range []string{"Add", "Sub", "Mul", "Div"} {
				want := goLoops(t, op, a, b)
				for _, opt := range []*Options{{Threads: 1}, {Threads: 2, streamFrom: 1}} {
					got, err := runNode(opt, op, 14, nil, a, b)
					checkRule(t, err, "")
					if msg := sameFloats(got, want); msg != "" {
						t.Fatalf("%s %v %v (stream %v): %s", op, dt, shapes, opt.streamFrom > 0, msg)
					}
				}
			}
		}
	}
}

// goLoops computes a op b, broadcast, element by element in Go.
func goLoops(t *testing.T, op string, a, b *tensor.Tensor) []float64 {
	out, err := broadcastShapes(a.Shape(), b.Shape())
	checkRule(t, err, "")
	av, bv := float64sOf(t, a), float64sOf(t, b)
	n, _ := tensor.NumElements(out)
	res := make([]float64, n)
	for k := range res {
		idx := multiIndex(k, out)
		x := av[flatIndex(broadcastIndex(idx, a.Shape()), a.Shape())]
		y := bv[flatIndex(broadcastIndex(idx, b.Shape()), b.Shape())]
		if a.DataType() == tensor.Float {
			x32, y32 := float32(x), float32(y)
			res[k] = float64(map[string]float32{"Add": x32 + y32, "Sub": x32 - y32, "Mul": x32 * y32, "Div": x32 / y32}[op])
		} else {
			res[k] = map[string]float64{"Add": x + y, "Sub": x - y, "Mul": x * y, "Div": x / y}[op]
		}
	}
	return res
}

func sameFloats(y *tensor.Tensor, want []float64) string {
	got, _ := y.Float64s()
	for i := range want {
		if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			return fmt.Sprintf("element %d: %v, want %v", i, got[i], want[i])
		}
	}
	return ""
}

// The exported elementwise functions refuse a nil or zero tensor with an
// error, never a panic.
func TestElementwiseAPINilAndZeroTensors(t *testing.T) {
	one := tensor.MustNew(tensor.Float, 2)
	cond := tensor.MustNew(tensor.Bool, 2)
	for _, bad := range []*tensor.Tensor{nil, {}} {
		calls := map[string]func() (*tensor.Tensor, error){
			"Add A": func() (*tensor.Tensor, error) { return Add(bad, one) }, "Add B": func() (*tensor.Tensor, error) { return Add(one, bad) },
			"Sub": func() (*tensor.Tensor, error) { return Sub(bad, one) }, "Mul": func() (*tensor.Tensor, error) { return Mul(one, bad) },
			"Div": func() (*tensor.Tensor, error) { return Div(bad, one) }, "Greater": func() (*tensor.Tensor, error) { return Greater(one, bad) },
			"Pow X": func() (*tensor.Tensor, error) { return Pow(bad, one) }, "Pow Y": func() (*tensor.Tensor, error) { return Pow(one, bad) },
			"Relu": func() (*tensor.Tensor, error) { return Relu(bad) }, "Sigmoid": func() (*tensor.Tensor, error) { return Sigmoid(bad) },
			"Clip":       func() (*tensor.Tensor, error) { return Clip(bad, nil, nil) },
			"Where cond": func() (*tensor.Tensor, error) { return Where(bad, one, one) },
			"Where X":    func() (*tensor.Tensor, error) { return Where(cond, bad, one) },
			"Where Y":    func() (*tensor.Tensor, error) { return Where(cond, one, bad) },
		}
		if bad != nil {
			calls["Clip min"] = func() (*tensor.Tensor, error) { return Clip(one, bad, nil) }
		}
		for name, f := range calls {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s(%v) panicked: %v", name, bad == nil, r)
					}
				}()
				if y, err := f(); err == nil {
					t.Errorf("%s(%v) returned %v and no error", name, bad == nil, y)
				}
			}()
		}
	}
}
