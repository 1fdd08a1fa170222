package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The two examples of the ONNX Slice documentation; data is 1..8 of (2,4).
func TestSliceONNXExamples(t *testing.T) {
	data := seq64(1, 2, 4)
	y, err := Slice(data, SliceOptions{Axes: []int64{0, 1}, Starts: []int64{1, 0}, Ends: []int64{2, 3}, Steps: []int64{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, y, []int{1, 2}, []int64{5, 7})
	y, err = Slice(data, SliceOptions{Starts: []int64{0, 1}, Ends: []int64{-1, 1000}})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, y, []int{1, 3}, []int64{2, 3, 4})
}

func TestSliceCases(t *testing.T) {
	x := seq64(0, 3, 4) // 0..11
	const maxI, minI = math.MaxInt64, math.MinInt64
	cases := []struct {
		name  string
		o     SliceOptions
		shape []int
		want  []int64
	}{
		{"reverse to the start", SliceOptions{Starts: []int64{-1}, Ends: []int64{minI}, Axes: []int64{1}, Steps: []int64{-1}},
			[]int{3, 4}, []int64{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}},
		{"to the end", SliceOptions{Starts: []int64{1}, Ends: []int64{maxI}, Axes: []int64{0}},
			[]int{2, 4}, []int64{4, 5, 6, 7, 8, 9, 10, 11}},
		{"negative axis", SliceOptions{Starts: []int64{1}, Ends: []int64{3}, Axes: []int64{-1}},
			[]int{3, 2}, []int64{1, 2, 5, 6, 9, 10}},
		{"start out of bounds", SliceOptions{Starts: []int64{1000}, Ends: []int64{1000}, Axes: []int64{1}},
			[]int{3, 0}, []int64{}},
		{"end out of bounds", SliceOptions{Starts: []int64{1}, Ends: []int64{1000}, Axes: []int64{1}},
			[]int{3, 3}, []int64{1, 2, 3, 5, 6, 7, 9, 10, 11}},
		{"steps on both axes", SliceOptions{Starts: []int64{20, 10}, Ends: []int64{0, 0}, Axes: []int64{0, 1}, Steps: []int64{-1, -3}},
			[]int{2, 1}, []int64{11, 7}},
		{"huge step", SliceOptions{Starts: []int64{0}, Ends: []int64{4}, Axes: []int64{1}, Steps: []int64{maxI}},
			[]int{3, 1}, []int64{0, 4, 8}},
		{"huge negative step", SliceOptions{Starts: []int64{maxI}, Ends: []int64{minI}, Axes: []int64{1}, Steps: []int64{minI}},
			[]int{3, 1}, []int64{3, 7, 11}},
		{"empty range", SliceOptions{Starts: []int64{2}, Ends: []int64{1}, Axes: []int64{0}},
			[]int{0, 4}, []int64{}},
		{"nothing to slice", SliceOptions{Starts: []int64{}, Ends: []int64{}},
			[]int{3, 4}, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			y, err := Slice(x, c.o)
			if err != nil {
				t.Fatal(err)
			}
			wantInt64s(t, y, c.shape, c.want)
		})
	}
	// A rank-0 input with no axes to slice is returned as it is.
	y, err := Slice(tensor.Scalar(int64(7)), SliceOptions{Starts: []int64{}, Ends: []int64{}})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, y, []int{}, []int64{7})
	// A zero-sized axis gives a zero-sized output, whatever the bounds.
	y, err = Slice(seq64(0, 0, 2), SliceOptions{Starts: []int64{-5}, Ends: []int64{5}, Axes: []int64{0}, Steps: []int64{-1}})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, y, []int{0, 2}, []int64{})
}

func TestSliceNodeVersions(t *testing.T) {
	x := seq64(0, 3, 4)
	// Version 1: attributes, no steps; an empty axes list means "not given".
	out, err := runKernel(nil, "Slice", 1, 1, map[string]Attribute{
		"starts": {Type: AttrInts, Ints: []int64{1, -2}}, "ends": {Type: AttrInts, Ints: []int64{3, 100}}, "axes": {Type: AttrInts}}, x)
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, out[0], []int{2, 2}, []int64{6, 7, 10, 11})
	_, err = runKernel(nil, "Slice", 9, 1, map[string]Attribute{"ends": {Type: AttrInts, Ints: []int64{1}}}, x)
	wantRule(t, err, "starts", "")
	_, err = runKernel(nil, "Slice", 1, 1, map[string]Attribute{
		"starts": {Type: AttrInts, Ints: []int64{0}}, "ends": {Type: AttrInts, Ints: []int64{1}}, "axes": {Type: AttrInts, Ints: []int64{-1}}}, x)
	wantRule(t, err, "axes", "Slice-1 [axes] axes[0] = -1 is outside [0, 1] for an input of rank 2")
	// Version 10 and later: inputs, int32 or int64, all of one type.
	i32 := func(v ...int32) *tensor.Tensor { return tensor.MustFromSlice(v) }
	out, err = runKernel(nil, "Slice", 10, 1, nil, x, i32(2), i32(0), i32(1), i32(-1))
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, out[0], []int{3, 2}, []int64{2, 1, 6, 5, 10, 9})
	out, err = runKernel(nil, "Slice", 13, 1, nil, x, list64(0), list64(2), nil, list64(1))
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, out[0], []int{2, 4}, []int64{0, 1, 2, 3, 4, 5, 6, 7})
	_, err = runKernel(nil, "Slice", 10, 1, nil, x, list64(0), list64(1), list64(-1))
	wantRule(t, err, "axes", "")
	out, err = runKernel(nil, "Slice", 11, 1, nil, x, list64(0), list64(1), list64(-1))
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, out[0], []int{3, 1}, []int64{0, 4, 8})
	_, err = runKernel(nil, "Slice", 13, 1, nil, x, list64(0), i32(1))
	wantRule(t, err, "Tind", "Slice-13 [Tind] ends is int32 but starts is int64: they must have one type")
	_, err = runKernel(nil, "Slice", 13, 1, nil, x, tensor.MustFromSlice([]float32{0}), tensor.MustFromSlice([]float32{1}))
	wantRule(t, err, "Tind", "")
	_, err = runKernel(nil, "Slice", 13, 1, nil, x, tensor.Scalar(int64(0)), list64(1))
	wantRule(t, err, "starts", "")
	_, err = runKernel(nil, "Slice", 13, 1, nil, x, list64(0), nil)
	wantRule(t, err, "input", "")
	_, err = runKernel(nil, "Slice", 10, 1, map[string]Attribute{"axes": {Type: AttrInts, Ints: []int64{0}}}, x, list64(0), list64(1))
	wantRule(t, err, "attribute", "Slice-10 [attribute] attribute axes exists in version 1 only; from 10 axes is an input")
}

func TestSliceRules(t *testing.T) {
	x := seq64(0, 3, 4)
	cases := []struct {
		name string
		o    SliceOptions
		rule string
		text string
	}{
		{"lengths", SliceOptions{Starts: []int64{0, 0}, Ends: []int64{1}}, "lengths",
			"Slice-13 [lengths] starts, ends, axes and steps have lengths 2, 1, absent and absent: they must be equal"},
		{"axes length", SliceOptions{Starts: []int64{0}, Ends: []int64{1}, Axes: []int64{0, 1}}, "lengths", ""},
		{"axis out of range", SliceOptions{Starts: []int64{0}, Ends: []int64{1}, Axes: []int64{2}}, "axes",
			"Slice-13 [axes] axes[0] = 2 is outside [-2, 1] for an input of rank 2"},
		{"too many starts", SliceOptions{Starts: []int64{0, 0, 0}, Ends: []int64{1, 1, 1}}, "axes", ""},
		{"repeated axis", SliceOptions{Starts: []int64{0, 0}, Ends: []int64{1, 1}, Axes: []int64{1, -1}}, "axes",
			"Slice-13 [axes] axis 1 is listed twice (axes[0] and axes[1])"},
		{"zero step", SliceOptions{Starts: []int64{0}, Ends: []int64{1}, Steps: []int64{0}}, "steps",
			"Slice-13 [steps] steps[0] is 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Slice(x, c.o)
			wantRule(t, err, c.rule, c.text)
		})
	}
	_, err := slice(&Options{MaxTensorBytes: 16}, opRef{"Slice", 13}, x, sliceParams{Starts: []int64{0}, Ends: []int64{3}})
	wantRule(t, err, "size", "")
}

// The SONNX profile: axes and steps given, every axis listed, one index
// type, no clamping, a non-empty output.
func TestSliceSONNX(t *testing.T) {
	x := seq64(0, 3, 4)
	sonnx := &Options{Profile: ProfileSONNX}
	y, err := slice(sonnx, opRef{"Slice", 13}, x, sliceParams{Starts: []int64{-1, 2}, Ends: []int64{-4, -4}, Axes: []int64{1, 0}, Steps: []int64{-1, -2}})
	if err != nil {
		t.Fatal(err)
	}
	// axis 0: from 2 down to -1 exclusive, step -2: rows 2 and 0; axis 1:
	// from 3 down to 0 exclusive.
	wantInt64s(t, y, []int{2, 3}, []int64{11, 10, 9, 3, 2, 1})
	// The example of the SONNX document: X (5,6), S [0,1], E [4,6], K [1,2] gives (4,3).
	y, err = slice(sonnx, opRef{"Slice", 13}, seq64(0, 5, 6), sliceParams{Starts: []int64{0, 1}, Ends: []int64{4, 6}, Axes: []int64{0, 1}, Steps: []int64{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, y, []int{4, 3}, []int64{1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23})

	all := func(s, e, a, k []int64) sliceParams { return sliceParams{Starts: s, Ends: e, Axes: a, Steps: k} }
	v := func(v ...int64) []int64 { return v }
	cases := []struct {
		name string
		x    *tensor.Tensor
		p    sliceParams
		rule string
		text string
	}{
		{"rank 0", tensor.Scalar(int64(1)), all(v(), v(), v(), v()), "X [C3]", ""},
		{"every axis listed", x, all(v(0), v(1), v(0), v(1)), "X [C1]",
			"Slice-13 X [C1] starts, ends, axes and steps list 1 axes, but X has rank 2: every axis must be listed ([R2])"},
		{"lengths", x, all(v(0, 0), v(1), v(0, 1), v(1, 1)), "X [C1]", ""},
		{"axis range", x, all(v(0, 0), v(1, 1), v(0, 2), v(1, 1)), "axes [C2]", ""},
		{"axis unique", x, all(v(0, 0), v(1, 1), v(0, -2), v(1, 1)), "axes [C3]", ""},
		{"step 0", x, all(v(0, 0), v(1, 1), v(0, 1), v(1, 0)), "steps [C2]", "Slice-13 steps [C2] steps[1] is 0"},
		{"start past the end", x, all(v(3, 0), v(3, 1), v(0, 1), v(1, 1)), "starts [C2]",
			"Slice-13 starts [C2] starts[0] = 3 is outside [-3, 2] (dimension 3; the profile does not clamp, [R8])"},
		{"start before the start", x, all(v(-4, 0), v(3, 1), v(0, 1), v(1, 1)), "starts [C2]", ""},
		{"INT64_MAX end", x, all(v(0, 0), v(math.MaxInt64, 1), v(0, 1), v(1, 1)), "ends [C2]", ""},
		{"end for a negative step", x, all(v(2, 0), v(-5, 1), v(0, 1), v(-1, 1)), "ends [C2]",
			"Slice-13 ends [C2] ends[0] = -5 is outside [-4, 2] (dimension 3, step -1; the profile does not clamp)"},
		{"positive step backwards", x, all(v(2, 0), v(1, 1), v(0, 1), v(1, 1)), "R6", ""},
		{"negative step forwards", x, all(v(0, 0), v(2, 1), v(0, 1), v(-1, 1)), "R7", ""},
		{"empty output", x, all(v(1, 0), v(1, 1), v(0, 1), v(1, 1)), "Y [C2]",
			"Slice-13 Y [C2] axis 0: the output dimension is 0 (start 1, end 1): the profile needs it > 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := slice(sonnx, opRef{"Slice", 13}, c.x, c.p)
			wantRule(t, err, c.rule, c.text)
		})
	}
	// Through the node: R1, R3 and R10.
	_, err = runKernel(sonnx, "Slice", 13, 1, nil, x, list64(0, 0), list64(1, 1))
	wantRule(t, err, "R1", "")
	_, err = runKernel(sonnx, "Slice", 13, 1, nil, x, list64(0, 0), list64(1, 1), list64(0, 1))
	wantRule(t, err, "R3", "")
	_, err = runKernel(sonnx, "Slice", 13, 1, nil, x, list64(0, 0), list64(1, 1), list64(0, 1), tensor.MustFromSlice([]int32{1, 1}))
	wantRule(t, err, "R10", "")
	_, err = runKernel(sonnx, "Slice", 1, 1, map[string]Attribute{
		"starts": {Type: AttrInts, Ints: []int64{0, 0}}, "ends": {Type: AttrInts, Ints: []int64{1, 1}}, "axes": {Type: AttrInts, Ints: []int64{0, 1}}}, x)
	wantRule(t, err, "R3", "")
}

// pythonRange is the oracle: the indices Python's range(*slice(start, end,
// step).indices(d)) walks, written from Python's definition, with the one
// difference the ONNX specification makes: with a negative step, a start
// still negative once d is added is clamped to 0, not to -1 (so x[-4::-2]
// of 2 elements is [x[0]] in ONNX, onnxruntime and ONNX shape inference,
// and empty in numpy and thus in the ONNX reference evaluator).
func pythonRange(d, start, end, step int64) []int64 {
	if d == 0 {
		return nil
	}
	lower, upper := int64(0), d
	if step < 0 {
		lower, upper = -1, d-1
	}
	norm := func(v, lower int64) int64 {
		if v < 0 {
			v += d
			if v < lower {
				v = lower
			}
		} else if v > upper {
			v = upper
		}
		return v
	}
	start, end = norm(start, max(lower, 0)), norm(end, lower)
	var out []int64
	for i := start; (step > 0 && i < end) || (step < 0 && i > end); i += step {
		out = append(out, i)
	}
	return out
}

// Random slices of every type against the Python oracle; the input is left
// as it was.
func TestSliceMatchesPython(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pick := func(d int64) int64 {
		switch rng.IntN(6) {
		case 0:
			return math.MaxInt64
		case 1:
			return math.MinInt64
		}
		return rng.Int64N(2*d+5) - d - 2
	}
	for iter := 0; iter < 400; iter++ {
		dt := movementTypes[rng.IntN(len(movementTypes))]
		shape := make([]int, 1+rng.IntN(4))
		for k := range shape {
			shape[k] = rng.IntN(6)
		}
		x := randomOf(rng, dt, shape)
		before := x.Clone()
		var o SliceOptions
		ranges := make([][]int64, len(shape))
		for k, d := range shape {
			r := make([]int64, d)
			for i := range r {
				r[i] = int64(i)
			}
			ranges[k] = r
		}
		for _, k := range rng.Perm(len(shape))[:rng.IntN(len(shape)+1)] {
			d := int64(shape[k])
			s, e, st := pick(d), pick(d), rng.Int64N(7)-3
			if st == 0 {
				st = 1
			}
			o.Starts, o.Ends, o.Steps = append(o.Starts, s), append(o.Ends, e), append(o.Steps, st)
			a := int64(k)
			if rng.IntN(2) == 0 {
				a -= int64(len(shape))
			}
			o.Axes = append(o.Axes, a)
			ranges[k] = pythonRange(d, s, e, st)
		}
		y, err := Slice(x, o)
		if err != nil {
			t.Fatalf("%v %v %+v: %v", dt, shape, o, err)
		}
		out := make([]int, len(shape))
		for k := range out {
			out[k] = len(ranges[k])
		}
		wantElements(t, y, x, out, func(idx []int) []int {
			src := make([]int, len(idx))
			for k, i := range idx {
				src[k] = int(ranges[k][i])
			}
			return src
		})
		if !x.Equal(before) {
			t.Fatal("Slice modified its input")
		}
	}
}
