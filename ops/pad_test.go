package ops

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/tensor"
)

// The examples of the ONNX Pad documentation, data of shape [3, 2].
func TestPadONNXExamples(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1.0, 1.2, 2.3, 3.4, 4.5, 5.7}, 3, 2)
	cases := []struct {
		mode  string
		pads  []int
		shape []int
		want  []float32
	}{
		{"constant", []int{0, 2, 0, 0}, []int{3, 4}, []float32{0, 0, 1.0, 1.2, 0, 0, 2.3, 3.4, 0, 0, 4.5, 5.7}},
		{"reflect", []int{0, 2, 0, 0}, []int{3, 4}, []float32{1.0, 1.2, 1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7, 4.5, 5.7}},
		{"edge", []int{0, 2, 0, 0}, []int{3, 4}, []float32{1.0, 1.0, 1.0, 1.2, 2.3, 2.3, 2.3, 3.4, 4.5, 4.5, 4.5, 5.7}},
	}
	for _, c := range cases {
		y, err := Pad(x, PadOptions{Mode: c.mode, Pads: c.pads})
		if err != nil {
			t.Fatalf("%s: %v", c.mode, err)
		}
		checkFloats(t, y, c.shape, c.want)
	}
	// wrap: [[1, 2], [3, 4], [5, 6]] padded by [2, 1, 1, 1].
	w := tensor.MustFromSlice([]int32{1, 2, 3, 4, 5, 6}, 3, 2)
	y, err := Pad(w, PadOptions{Mode: "wrap", Pads: []int{2, 1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	wantInt32s(t, y, []int{6, 4}, []int32{4, 3, 4, 3, 6, 5, 6, 5, 2, 1, 2, 1, 4, 3, 4, 3, 6, 5, 6, 5, 2, 1, 2, 1})
}

// Reflect and wrap with pads longer than the axis repeat as numpy's pad
// does; reflect of a length-1 axis repeats its element. onnxruntime 1.30
// refuses the reflect cases and gets the wrap ones wrong (docs/divergences.md).
func TestPadLikeNumpyLargePads(t *testing.T) {
	x := tensor.MustFromSlice([]int32{1, 2, 3})
	cases := []struct {
		mode string
		x    *tensor.Tensor
		pads []int
		want []int32
	}{
		// np.pad([1, 2, 3], (5, 4), "reflect")
		{"reflect", x, []int{5, 4}, []int32{2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3}},
		// np.pad([1, 2, 3], (2, 2), "reflect"): pads of the axis length - 1
		{"reflect", x, []int{2, 2}, []int32{3, 2, 1, 2, 3, 2, 1}},
		// np.pad([1, 2, 3], (4, 5), "wrap")
		{"wrap", x, []int{4, 5}, []int32{3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2}},
		// np.pad([1, 2, 3], (3, 3), "wrap"): pads of exactly the axis length
		{"wrap", x, []int{3, 3}, []int32{1, 2, 3, 1, 2, 3, 1, 2, 3}},
		// np.pad([7], (2, 3), "reflect"): a singleton axis extends like edge
		{"reflect", tensor.MustFromSlice([]int32{7}), []int{2, 3}, []int32{7, 7, 7, 7, 7, 7}},
		{"edge", x, []int{4, 1}, []int32{1, 1, 1, 1, 1, 2, 3, 3}},
	}
	for _, c := range cases {
		y, err := Pad(c.x, PadOptions{Mode: c.mode, Pads: c.pads})
		if err != nil {
			t.Fatalf("%s %v: %v", c.mode, c.pads, err)
		}
		wantInt32s(t, y, []int{len(c.want)}, c.want)
	}
}

// Negative pads crop first; the other modes then read the cropped axis.
func TestPadNegative(t *testing.T) {
	x := tensor.MustFromSlice([]int32{1, 2, 3, 4, 5})
	cases := []struct {
		mode  string
		pads  []int
		value int32
		want  []int32
	}{
		{"edge", []int{-1, 2}, 0, []int32{2, 3, 4, 5, 5, 5}},
		{"constant", []int{2, -2}, 9, []int32{9, 9, 1, 2, 3}},
		{"reflect", []int{2, -2}, 0, []int32{3, 2, 1, 2, 3}},
		{"wrap", []int{-3, 3}, 0, []int32{4, 5, 4, 5, 4}},
		{"constant", []int{-5, 2}, 9, []int32{9, 9}}, // nothing kept: all constant
		{"constant", []int{-2, -3}, 9, []int32{}},    // everything cropped
		{"constant", []int{3, -6}, 9, []int32{9, 9}}, // crop past the end, then pad
		{"edge", []int{-2, -2}, 0, []int32{3}},       // a crop needs no element to read
		{"reflect", []int{0, 0}, 0, []int32{1, 2, 3, 4, 5}},
	}
	for _, c := range cases {
		y, err := Pad(x, PadOptions{Mode: c.mode, Pads: c.pads, ConstantValue: tensor.MustFromSlice([]int32{c.value}, []int{}...)})
		if err != nil {
			t.Fatalf("%s %v: %v", c.mode, c.pads, err)
		}
		wantInt32s(t, y, []int{len(c.want)}, c.want)
	}
}

// The constant has the data's type, strings and bools included.
func TestPadConstantTypes(t *testing.T) {
	s := tensor.MustFromSlice([]string{"a", "b"})
	y, err := Pad(s, PadOptions{Pads: []int{1, 2}, ConstantValue: tensor.Scalar("x")})
	if err != nil {
		t.Fatal(err)
	}
	if got := y.Strings(); !slices.Equal(got, []string{"x", "a", "b", "x", "x"}) {
		t.Errorf("strings: got %q", got)
	}
	y, err = Pad(s, PadOptions{Pads: []int{1, 0}})
	if err != nil || !slices.Equal(y.Strings(), []string{"", "a", "b"}) {
		t.Errorf("strings, no value: got %v %v", y, err)
	}
	b := tensor.MustFromSlice([]bool{false})
	y, err = Pad(b, PadOptions{Pads: []int{1, 1}, ConstantValue: tensor.Scalar(true)})
	if got, _ := tensor.ToSlice[bool](y); err != nil || !slices.Equal(got, []bool{true, false, true}) {
		t.Errorf("bool: got %v %v", got, err)
	}
	h := tensor.MustFromSlice([]float16.Float16{float16.Fromfloat32(1.5), float16.Fromfloat32(-2)})
	y, err = Pad(h, PadOptions{Mode: "edge", Pads: []int{1, 1}})
	if got, _ := tensor.ToSlice[float16.Float16](y); err != nil || got[0].Float32() != 1.5 || got[3].Float32() != -2 {
		t.Errorf("float16 edge: got %v %v", got, err)
	}
	i8 := tensor.MustFromSlice([]int8{-1, 2, -3}, 1, 3)
	y, err = Pad(i8, PadOptions{Mode: "reflect", Pads: []int{0, 2, 0, 1}})
	if got, _ := tensor.ToSlice[int8](y); err != nil || !slices.Equal(got, []int8{-3, 2, -1, 2, -3, 2}) {
		t.Errorf("int8 reflect: got %v %v", got, err)
	}
}

// padOracle computes Pad one element at a time from its definition: each
// output index maps, axis by axis, to an index of the cropped input, or to
// the constant.
func padOracle(x *tensor.Tensor, pads []int, mode string, value *tensor.Tensor) *tensor.Tensor {
	r := x.Rank()
	in := x.Shape()
	out := make([]int, r)
	for k := range r {
		out[k] = in[k] + pads[k] + pads[r+k]
	}
	n, _ := tensor.NumElements(out)
	from := make([]int, n)
	isConst := make([]bool, n)
	for i := range n {
		idx := multiIndex(i, out)
		src := make([]int, r)
		for k := range r {
			first, last := max(0, -pads[k]), min(in[k], in[k]+pads[r+k])
			kept := last - first
			t := idx[k] - max(0, pads[k]) // index in the cropped axis
			if t >= 0 && t < kept {
				src[k] = first + t
				continue
			}
			switch mode {
			case "constant":
				isConst[i] = true
			case "edge":
				t = min(max(t, 0), kept-1)
			case "wrap":
				t = ((t % kept) + kept) % kept
			case "reflect":
				if kept == 1 {
					t = 0
				} else {
					p := 2 * (kept - 1)
					t = ((t % p) + p) % p
					if t >= kept {
						t = p - t
					}
				}
			}
			src[k] = first + t
		}
		if !isConst[i] {
			from[i] = flatIndex(src, in)
		}
	}
	y := tensor.MustNew(x.DataType(), out...)
	size := x.DataType().Size()
	for i := range n {
		switch {
		case x.DataType() == tensor.String && isConst[i]:
			if value != nil {
				y.Strings()[i] = value.Strings()[0]
			}
		case x.DataType() == tensor.String:
			y.Strings()[i] = x.Strings()[from[i]]
		case isConst[i]:
			if value != nil {
				copy(y.Bytes()[i*size:(i+1)*size], value.Bytes())
			}
		default:
			copy(y.Bytes()[i*size:(i+1)*size], x.Bytes()[from[i]*size:(from[i]+1)*size])
		}
	}
	return y
}

// Random shapes of rank 1 to 5, random pads (negative ones too), every mode
// and a few types, against padOracle.
func TestPadAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	types := []tensor.DataType{tensor.Float, tensor.Int8, tensor.String, tensor.Bool, tensor.Double, tensor.Float16}
	modes := []string{"constant", "edge", "reflect", "wrap"}
	for iter := 0; iter < 3000; iter++ {
		r := 1 + rng.IntN(5)
		shape := randomShape(rng, r, 0, 4)
		switch {
		case iter%500 == 0:
			// Large enough to be split across cores.
			shape = []int{2, 3, 90, 150 + rng.IntN(20)}
			r = len(shape)
		case iter%5 == 0:
			// Rows long enough for the interior to be one copy.
			shape[r-1] = 16 + rng.IntN(30)
		}
		dt := types[rng.IntN(len(types))]
		x := randomValidTensor(rng, dt, shape)
		mode := modes[rng.IntN(len(modes))]
		pads := make([]int, 2*r)
		ok := true
		for k := range r {
			pads[k], pads[r+k] = rng.IntN(9)-2, rng.IntN(9)-2
			if shape[k]+pads[k]+pads[r+k] < 0 {
				pads[r+k] = -shape[k] - pads[k]
			}
			first, last := max(0, -pads[k]), min(shape[k], shape[k]+pads[r+k])
			if mode != "constant" && last <= first && shape[k]+pads[k]+pads[r+k] > 0 {
				ok = false // nothing to read: an error, checked elsewhere
			}
		}
		var value *tensor.Tensor
		if mode == "constant" && rng.IntN(2) == 0 {
			value = randomValidTensor(rng, dt, []int{})
		}
		y, err := Pad(x, PadOptions{Mode: mode, Pads: pads, ConstantValue: value})
		if !ok {
			checkRule(t, err, "mode")
			continue
		}
		if err != nil {
			t.Fatalf("%s %v pads %v: %v", mode, shape, pads, err)
		}
		if want := padOracle(x, pads, mode, value); !y.Equal(want) {
			t.Fatalf("%v %s %v pads %v:\n got  %v\n want %v", dt, mode, shape, pads, y, want)
		}
	}
}

// Every version reads its pads and value where that version keeps them.
func TestPadVersions(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2}, 1, 2)
	want := []float32{5, 1, 2, 5, 5}
	// Pad-1: attribute paddings; Pad-2: attribute pads; both a float value.
	for _, c := range []struct {
		version int
		name    string
	}{{1, "paddings"}, {2, "pads"}} {
		y, err := runNode(nil, "Pad", c.version, map[string]Attribute{
			c.name:  ints(0, 1, 0, 2),
			"value": {Type: AttrFloat, Float: 5},
		}, x)
		if err != nil {
			t.Fatalf("Pad-%d: %v", c.version, err)
		}
		checkFloats(t, y, []int{1, 5}, want)
	}
	five := tensor.Scalar[float32](5)
	for _, v := range []int{11, 13, 18, 19, 21, 23, 24, 25} {
		y, err := runNode(nil, "Pad", v, nil, x, i64s(0, 1, 0, 2), five)
		if err != nil {
			t.Fatalf("Pad-%d: %v", v, err)
		}
		checkFloats(t, y, []int{1, 5}, want)
	}
	// Pad-18: axes (int32 or int64, negative allowed) select what pads cover.
	y, err := runNode(nil, "Pad", 18, nil, x, i64s(1, 2), five, tensor.MustFromSlice([]int32{-1}))
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 5}, want)
	// wrap exists from 19.
	_, err = runNode(nil, "Pad", 18, map[string]Attribute{"mode": strAttribute("wrap")}, x, i64s(0, 1, 0, 1))
	checkRule(t, err, "mode")
	y, err = runNode(nil, "Pad", 19, map[string]Attribute{"mode": strAttribute("wrap")}, x, i64s(0, 1, 0, 1))
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 4}, []float32{2, 1, 2, 1})
}

func TestPadConstraints(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 2, 3)
	empty := tensor.MustNew(tensor.Float, 2, 0)
	cases := []struct {
		name string
		x    *tensor.Tensor
		o    PadOptions
		rule string
	}{
		{"pads length", x, PadOptions{Pads: []int{1, 1}}, "pads"},
		{"pads length with axes", x, PadOptions{Pads: []int{1, 1}, Axes: []int{0, 1}}, "pads"},
		{"negative output", x, PadOptions{Pads: []int{0, -2, 0, -2}}, "pads"},
		{"axis out of range", x, PadOptions{Pads: []int{1, 1}, Axes: []int{2}}, "axes"},
		{"axis twice", x, PadOptions{Pads: []int{1, 1, 1, 1}, Axes: []int{1, -1}}, "axes"},
		{"unknown mode", x, PadOptions{Mode: "symmetric", Pads: []int{0, 0, 0, 0}}, "mode"},
		{"edge of an empty axis", empty, PadOptions{Mode: "edge", Pads: []int{0, 1, 0, 0}}, "mode"},
		{"reflect of an empty axis", empty, PadOptions{Mode: "reflect", Pads: []int{0, 0, 0, 1}}, "mode"},
		{"wrap of an empty axis", empty, PadOptions{Mode: "wrap", Pads: []int{0, 0, 0, 1}}, "mode"},
		{"value of another type", x, PadOptions{Pads: []int{0, 0, 0, 0}, ConstantValue: tensor.Scalar[float64](1)}, "constant_value"},
		{"value not a scalar", x, PadOptions{Pads: []int{0, 0, 0, 0}, ConstantValue: tensor.MustFromSlice([]float32{1, 2})}, "constant_value"},
		{"too large", x, PadOptions{Pads: []int{0, 0, math.MaxInt / 4, math.MaxInt / 4}}, "size"},
	}
	for _, c := range cases {
		_, err := Pad(c.x, c.o)
		if err == nil {
			t.Fatalf("%s: no error", c.name)
		}
		checkRule(t, err, c.rule)
	}
	// A constant pad of an empty axis is fine.
	y, err := Pad(empty, PadOptions{Pads: []int{0, 1, 0, 1}})
	checkRule(t, err, "")
	checkFloats(t, y, []int{2, 2}, []float32{0, 0, 0, 0})
	if s, err := padShape(opRef{"Pad", 25}, []int{2, 3}, padParams{mode: "edge", pads: []int{1, -1, 2, 0}}); err != nil || !slices.Equal(s, []int{5, 2}) {
		t.Errorf("padShape: %v %v", s, err)
	}
}

// Under SONNX the mode and the constant must be explicit (GR4).
func TestPadSONNX(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2})
	sonnx := &Options{Profile: ProfileSONNX}
	_, err := runNode(sonnx, "Pad", 25, nil, x, i64s(1, 1), tensor.Scalar[float32](0))
	checkRule(t, err, "GR4")
	_, err = runNode(sonnx, "Pad", 25, map[string]Attribute{"mode": strAttribute("constant")}, x, i64s(1, 1))
	checkRule(t, err, "GR4")
	_, err = runNode(sonnx, "Pad", 25, map[string]Attribute{"mode": strAttribute("constant")}, x, i64s(1, 1), tensor.Scalar[float32](0))
	checkRule(t, err, "")
	_, err = runNode(sonnx, "Pad", 25, map[string]Attribute{"mode": strAttribute("edge")}, x, i64s(1, 1))
	checkRule(t, err, "")
}

// wantInt32s fails the test unless y is an int32 tensor of shape and values.
func wantInt32s(t *testing.T, y *tensor.Tensor, shape []int, want []int32) {
	t.Helper()
	got, err := tensor.ToSlice[int32](y)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(y.Shape(), shape) || !slices.Equal(got, want) {
		t.Fatalf("got %v %v, want %v %v", y.Shape(), got, shape, want)
	}
}

func benchmarkPad(b *testing.B, mode string) {
	x := tensor.MustNew(tensor.Float, 8, 64, 112, 112)
	o := PadOptions{Mode: mode, Pads: []int{0, 0, 2, 2, 0, 0, 2, 2}, ConstantValue: tensor.Scalar[float32](1)}
	b.SetBytes(int64(8 * 64 * 116 * 116 * 4))
	for b.Loop() {
		if _, err := Pad(x, o); err != nil {
			b.Fatal(err)
		}
	}
}

// Pad by 2 on H and W of [8, 64, 112, 112] float32.
func BenchmarkPadConstant(b *testing.B) { benchmarkPad(b, "constant") }
func BenchmarkPadReflect(b *testing.B)  { benchmarkPad(b, "reflect") }
func BenchmarkPadEdge(b *testing.B)     { benchmarkPad(b, "edge") }

// Pad's index tables (8 bytes per output index of every axis) count against
// the size limit: a byte tensor padded along one long axis would otherwise
// need eight times its own size in tables.
func TestPadTablesWithinLimit(t *testing.T) {
	x := tensor.MustNew(tensor.Uint8, 1, 4)
	opt := &Options{MaxTensorBytes: 4000}
	// 1000 bytes of output, 8 KB of tables.
	_, err := runNode(opt, "Pad", 19, map[string]Attribute{"mode": strAttribute("edge")}, x, i64s(0, 0, 0, 996))
	checkRule(t, err, "size")
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v, want ErrLimit", err)
	}
	// Under the limit it pads.
	y, err := runNode(opt, "Pad", 19, map[string]Attribute{"mode": strAttribute("edge")}, x, i64s(0, 0, 0, 296))
	checkRule(t, err, "")
	if !slices.Equal(y.Shape(), []int{1, 300}) {
		t.Fatalf("shape %v, want [1 300]", y.Shape())
	}
}
