package ops

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// Example 1 of sonnx-concat.md: A0 (2,3) of 1s, A1 (4,3) of 2s, A2 (3,3) of
// 3s. Along axis 0 the result is (9,3); along axis 1 the shapes differ off
// the axis, and the document says the concatenation fails: [C2].
func TestConcatSONNXExample1(t *testing.T) {
	a := []*tensor.Tensor{fill64(1, 2, 3), fill64(2, 4, 3), fill64(3, 3, 3)}
	for _, prof := range []Profile{ProfileONNX, ProfileSONNX} {
		opt := &Options{Profile: prof}
		y, err := concat(opt, opRef{"Concat", 13}, a, 0)
		if err != nil {
			t.Fatal(err)
		}
		wantInt64s(t, y, []int{9, 3}, []int64{1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3})
		_, err = concat(opt, opRef{"Concat", 13}, a, 1)
		wantRule(t, err, "inputs [C2]", "Concat-13 inputs [C2] input 1 has shape [4 3] and input 0 has shape [2 3]: dimension 0 differs off the axis 1 (no broadcasting, [R2])")
	}
}

// Example 2 of sonnx-concat.md. The document prints A0 and A1 as (2,3,3),
// but their data, and the results it gives, are (2,3,4): we use the data.
func TestConcatSONNXExample2(t *testing.T) {
	a0 := tensor.MustFromSlice([]int64{
		1, 2, 3, 10, 4, 5, 6, 11, 7, 8, 9, 12,
		11, 12, 13, 20, 14, 15, 16, 21, 17, 18, 19, 22}, 2, 3, 4)
	a1 := tensor.MustFromSlice([]int64{
		101, 102, 103, 110, 104, 105, 106, 120, 107, 108, 109, 130,
		111, 112, 113, 120, 114, 115, 116, 121, 117, 118, 119, 122}, 2, 3, 4)
	cases := []struct {
		axis  int
		shape []int
		want  []int64
	}{
		{0, []int{4, 3, 4}, []int64{
			1, 2, 3, 10, 4, 5, 6, 11, 7, 8, 9, 12,
			11, 12, 13, 20, 14, 15, 16, 21, 17, 18, 19, 22,
			101, 102, 103, 110, 104, 105, 106, 120, 107, 108, 109, 130,
			111, 112, 113, 120, 114, 115, 116, 121, 117, 118, 119, 122}},
		{1, []int{2, 6, 4}, []int64{
			1, 2, 3, 10, 4, 5, 6, 11, 7, 8, 9, 12,
			101, 102, 103, 110, 104, 105, 106, 120, 107, 108, 109, 130,
			11, 12, 13, 20, 14, 15, 16, 21, 17, 18, 19, 22,
			111, 112, 113, 120, 114, 115, 116, 121, 117, 118, 119, 122}},
		{2, []int{2, 3, 8}, []int64{
			1, 2, 3, 10, 101, 102, 103, 110,
			4, 5, 6, 11, 104, 105, 106, 120,
			7, 8, 9, 12, 107, 108, 109, 130,
			11, 12, 13, 20, 111, 112, 113, 120,
			14, 15, 16, 21, 114, 115, 116, 121,
			17, 18, 19, 22, 117, 118, 119, 122}},
	}
	for _, c := range cases {
		for _, prof := range []Profile{ProfileONNX, ProfileSONNX} {
			y, err := concat(&Options{Profile: prof}, opRef{"Concat", 13}, []*tensor.Tensor{a0, a1}, c.axis)
			if err != nil {
				t.Fatalf("axis %d: %v", c.axis, err)
			}
			wantInt64s(t, y, c.shape, c.want)
		}
	}
}

// Example 3 of sonnx-concat.md: four inputs (1,k,3,2) of 3s, 4s, 5s and 6s
// for k = 1, 3, 2, 4, along axis 1.
func TestConcatSONNXExample3(t *testing.T) {
	a := []*tensor.Tensor{fill64(3, 1, 1, 3, 2), fill64(4, 1, 3, 3, 2), fill64(5, 1, 2, 3, 2), fill64(6, 1, 4, 3, 2)}
	var want []int64
	for _, block := range []struct{ v, n int64 }{{3, 1}, {4, 3}, {5, 2}, {6, 4}} {
		want = append(want, slices.Repeat([]int64{block.v}, int(block.n)*6)...)
	}
	y, err := Concat(a, ConcatOptions{Axis: 1})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, y, []int{1, 10, 3, 2}, want)
}

func TestConcatConstraints(t *testing.T) {
	f := func(shape ...int) *tensor.Tensor { return tensor.MustNew(tensor.Float, shape...) }
	cases := []struct {
		name    string
		version int
		prof    Profile
		in      []*tensor.Tensor
		axis    int
		rule    string
		text    string
	}{
		{"no input", 13, ProfileONNX, nil, 0, "inputs [C1]", "Concat-13 inputs [C1] 0 inputs, expected 1 to 2^31-1"},
		{"ranks differ", 13, ProfileONNX, []*tensor.Tensor{f(2, 3), f(2, 3, 1)}, 0, "inputs [C2]",
			"Concat-13 inputs [C2] input 1 has rank 3 (shape [2 3 1]) but input 0 has rank 2 (shape [2 3]): all inputs must have one rank"},
		{"no broadcasting", 13, ProfileONNX, []*tensor.Tensor{f(2, 3), f(1, 3)}, 1, "inputs [C2]", ""},
		{"types differ", 13, ProfileONNX, []*tensor.Tensor{f(2, 3), tensor.MustNew(tensor.Double, 2, 3)}, 0, "inputs [C3]",
			"Concat-13 inputs [C3] input 1 is double but input 0 is float: all inputs must have one type ([R3])"},
		{"C2 before C3", 13, ProfileONNX, []*tensor.Tensor{f(2, 3), tensor.MustNew(tensor.Double, 2)}, 0, "inputs [C2]", ""},
		{"C3 before the axis", 13, ProfileONNX, []*tensor.Tensor{f(2, 3), tensor.MustNew(tensor.Double, 2, 3)}, 5, "inputs [C3]", ""},
		{"axis too large", 13, ProfileONNX, []*tensor.Tensor{f(2, 3), f(2, 3)}, 2, "axis [C1]",
			"Concat-13 axis [C1] axis 2 is outside [-2, 1] for inputs of rank 2"},
		{"axis too small", 11, ProfileONNX, []*tensor.Tensor{f(2, 3)}, -3, "axis [C1]", ""},
		{"negative axis before 11", 4, ProfileONNX, []*tensor.Tensor{f(2, 3)}, -1, "axis [C1]",
			"Concat-4 axis [C1] axis -1 is outside [0, 1] for inputs of rank 2"},
		{"negative axis in the profile", 13, ProfileSONNX, []*tensor.Tensor{f(2, 3)}, -1, "axis [C1]",
			"Concat-13 axis [C1] axis -1 is negative: the profile takes axis in [0, 1]"},
		{"rank 0", 13, ProfileONNX, []*tensor.Tensor{f(), f()}, 0, "axis [C1]",
			"Concat-13 axis [C1] axis 0: the inputs have rank 0 and no axis to join along"},
		{"type outside the profile", 13, ProfileSONNX, []*tensor.Tensor{tensor.MustNew(tensor.Float8E4M3FN, 2)}, 0, "R1", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := concat(&Options{Profile: c.prof}, opRef{"Concat", c.version}, c.in, c.axis)
			wantRule(t, err, c.rule, c.text)
		})
	}
	// The same inputs pass where ONNX allows them.
	if _, err := concat(nil, opRef{"Concat", 13}, []*tensor.Tensor{f(2, 3)}, -1); err != nil {
		t.Error(err)
	}
	if _, err := concat(nil, opRef{"Concat", 13}, []*tensor.Tensor{tensor.MustNew(tensor.Float8E4M3FN, 2)}, 0); err != nil {
		t.Error(err)
	}
}

func TestConcatNodeVersions(t *testing.T) {
	a, b := seq64(0, 2, 2), seq64(10, 2, 1)
	// Version 1: axis defaults to 1.
	out, err := runKernel(nil, "Concat", 1, 1, nil, a, b)
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, out[0], []int{2, 3}, []int64{0, 1, 10, 2, 3, 11})
	// ... but the profile wants it explicit.
	_, err = runKernel(&Options{Profile: ProfileSONNX}, "Concat", 1, 1, nil, a, b)
	wantRule(t, err, "GR4", "")
	// Version 4 and later require it.
	for _, v := range []int{4, 11, 13, 25} {
		_, err = runKernel(nil, "Concat", v, 1, nil, a, b)
		wantRule(t, err, "axis", "")
	}
	// Negative axes from version 11.
	out, err = runKernel(nil, "Concat", 11, 1, map[string]Attribute{"axis": {Type: AttrInt, Int: -1}}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, out[0], []int{2, 3}, []int64{0, 1, 10, 2, 3, 11})
	_, err = runKernel(nil, "Concat", 10, 1, map[string]Attribute{"axis": {Type: AttrInt, Int: -1}}, a, b)
	wantRule(t, err, "axis [C1]", "")
	// A missing input and a non-tensor input are errors, not panics.
	_, err = runKernel(nil, "Concat", 13, 1, map[string]Attribute{"axis": {Type: AttrInt, Int: 0}}, a, nil)
	wantRule(t, err, "input", "")
	_, err = runKernel(nil, "Concat", 13, 1, map[string]Attribute{"axis": {Type: AttrInt, Int: 0}}, a, &tensor.Sequence{ElemType: tensor.Int64})
	wantRule(t, err, "input", "")
}

func TestConcatZeroSized(t *testing.T) {
	y, err := Concat([]*tensor.Tensor{seq64(0, 2, 0), seq64(0, 2, 2), seq64(10, 2, 0), seq64(20, 2, 1)}, ConcatOptions{Axis: 1})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, y, []int{2, 3}, []int64{0, 1, 20, 2, 3, 21})
	y, err = Concat([]*tensor.Tensor{seq64(0, 0, 3), seq64(0, 0, 3)}, ConcatOptions{Axis: 0})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, y, []int{0, 3}, []int64{})
	// Zero-sized off the axis: the dims must still agree.
	_, err = Concat([]*tensor.Tensor{seq64(0, 0, 3), seq64(0, 1, 3)}, ConcatOptions{Axis: 1})
	wantRule(t, err, "inputs [C2]", "")
}

func TestConcatSizeLimit(t *testing.T) {
	a := tensor.MustNew(tensor.Float, 64, 64)
	_, err := concat(&Options{MaxTensorBytes: 4 * 64 * 64}, opRef{"Concat", 13}, []*tensor.Tensor{a, a}, 0)
	wantRule(t, err, "size", "")
}

// Every type, against the element-by-element definition (E2-E5 of the
// SONNX document); the inputs are left as they were.
func TestConcatEveryType(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range movementTypes {
		for axis := 0; axis < 3; axis++ {
			var in, clones []*tensor.Tensor
			shape := []int{2, 3, 4}
			var sizes []int
			for range 3 {
				s := slices.Clone(shape)
				s[axis] = rng.IntN(3)
				sizes = append(sizes, s[axis])
				x := randomOf(rng, dt, s)
				in, clones = append(in, x), append(clones, x.Clone())
			}
			y, err := Concat(in, ConcatOptions{Axis: axis})
			if err != nil {
				t.Fatal(err)
			}
			out := slices.Clone(shape)
			out[axis] = sizes[0] + sizes[1] + sizes[2]
			if y.DataType() != dt || !slices.Equal(y.Shape(), out) {
				t.Fatalf("%v: got %s, want shape %v", dt, y.Describe(), out)
			}
			wantElements(t, y, concatOracle(in, sizes, axis), out, func(idx []int) []int { return idx })
			for i := range in {
				if !in[i].Equal(clones[i]) {
					t.Fatalf("%v: Concat modified input %d", dt, i)
				}
			}
		}
	}
}

// concatOracle joins inputs along axis k one element at a time.
func concatOracle(inputs []*tensor.Tensor, sizes []int, k int) *tensor.Tensor {
	out := slices.Clone(inputs[0].Shape())
	out[k] = 0
	for _, n := range sizes {
		out[k] += n
	}
	y := tensor.MustNew(inputs[0].DataType(), out...)
	n := y.Len()
	for f := range n {
		idx := multiIndex(f, out)
		i, at := 0, idx[k]
		for at >= sizes[i] {
			at -= sizes[i]
			i++
		}
		src := slices.Clone(idx)
		src[k] = at
		x := inputs[i]
		j := flatIndex(src, x.Shape())
		if y.DataType() == tensor.String {
			y.Strings()[f] = x.Strings()[j]
			continue
		}
		size := y.DataType().Size()
		copy(y.Bytes()[f*size:(f+1)*size], x.Bytes()[j*size:(j+1)*size])
	}
	return y
}
