package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestShape(t *testing.T) {
	x := iota32(3, 4, 5)
	cases := []struct {
		name    string
		version int
		attrs   map[string]Attribute
		want    []int64
	}{
		// The cases of the ONNX node tests test_shape*.
		{"shape", 13, nil, []int64{3, 4, 5}},
		{"start 1", 15, map[string]Attribute{"start": intAttribute(1)}, []int64{4, 5}},
		{"end 1", 15, map[string]Attribute{"end": intAttribute(1)}, []int64{3}},
		{"end -1", 15, map[string]Attribute{"end": intAttribute(-1)}, []int64{3, 4}},
		{"start -1", 15, map[string]Attribute{"start": intAttribute(-1)}, []int64{5}},
		{"start 1 end 2", 15, map[string]Attribute{"start": intAttribute(1), "end": intAttribute(2)}, []int64{4}},
		{"start 1 end -1", 15, map[string]Attribute{"start": intAttribute(1), "end": intAttribute(-1)}, []int64{4}},
		{"clip start", 15, map[string]Attribute{"start": intAttribute(-10)}, []int64{3, 4, 5}},
		{"clip end", 15, map[string]Attribute{"end": intAttribute(10)}, []int64{3, 4, 5}},
		{"start greater than end", 15, map[string]Attribute{"start": intAttribute(2), "end": intAttribute(1)}, []int64{}},
		// More.
		{"version 1", 1, nil, []int64{3, 4, 5}},
		{"start past the rank", 25, map[string]Attribute{"start": intAttribute(7)}, []int64{}},
		{"end before -rank", 25, map[string]Attribute{"end": intAttribute(-7)}, []int64{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			y, err := runNode(nil, "Shape", c.version, c.attrs, x)
			checkRule(t, err, "")
			checkInt64s(t, y, []int{len(c.want)}, c.want)
		})
	}
	_, err := runNode(nil, "Shape", 13, map[string]Attribute{"start": intAttribute(1)}, x)
	checkRule(t, err, "attribute")
	checkInt64s(t, must(Shape(tensor.Scalar(true), ShapeOptions{})), []int{0}, []int64{})
	checkInt64s(t, must(Shape(x, ShapeOptions{Start: -2, End: new(-1)})), []int{1}, []int64{4})
}

func TestSize(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want int64
	}{
		{[]int{3, 4, 5}, 60}, // test_size
		{[]int{2, 3}, 6},     // test_size_example
		{[]int{}, 1},
		{[]int{4, 0, 2}, 0},
	} {
		for _, v := range []int{1, 13, 19, 21, 23, 24, 25} {
			y, err := runNode(nil, "Size", v, nil, iota32(c.in...))
			checkRule(t, err, "")
			checkInt64s(t, y, []int{}, []int64{c.want})
		}
	}
}

// Shape and Size read every type.
func TestShapeSizeAllTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, dt := range tensor.AllTypes() {
		x := randomValidTensor(rng, dt, []int{2, 0, 3})
		checkInt64s(t, must(Shape(x, ShapeOptions{})), []int{3}, []int64{2, 0, 3})
		checkInt64s(t, must(Size(x)), []int{}, []int64{0})
	}
}

// must returns y, panicking on err: the tests' calls cannot fail.
func must(y *tensor.Tensor, err error) *tensor.Tensor {
	if err != nil {
		panic(err)
	}
	return y
}

func checkInt64s(t *testing.T, y *tensor.Tensor, shape []int, want []int64) {
	t.Helper()
	if !tensor.SameShape(y.Shape(), shape) {
		t.Fatalf("shape %v, want %v", y.Shape(), shape)
	}
	got, err := tensor.ToSlice[int64](y)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
