package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestFlatten(t *testing.T) {
	cases := []struct {
		name    string
		version int
		in      []int
		axis    *int // nil: the default
		want    []int
		rule    string
	}{
		// The cases of the ONNX node tests test_flatten_*.
		{name: "axis 0", version: 25, in: []int{2, 3, 4, 5}, axis: new(0), want: []int{1, 120}},
		{name: "axis 1", version: 25, in: []int{2, 3, 4, 5}, axis: new(1), want: []int{2, 60}},
		{name: "axis 2", version: 25, in: []int{2, 3, 4, 5}, axis: new(2), want: []int{6, 20}},
		{name: "axis 3", version: 25, in: []int{2, 3, 4, 5}, axis: new(3), want: []int{24, 5}},
		{name: "axis 4 (= rank)", version: 25, in: []int{2, 3, 4, 5}, axis: new(4), want: []int{120, 1}},
		{name: "default axis", version: 25, in: []int{5, 4, 3, 2}, want: []int{5, 24}},
		{name: "negative axis -1", version: 25, in: []int{2, 3, 4, 5}, axis: new(-1), want: []int{24, 5}},
		{name: "negative axis -4", version: 25, in: []int{2, 3, 4, 5}, axis: new(-4), want: []int{1, 120}},
		// The SONNX constraint and the versions.
		{name: "scalar", version: 25, in: []int{}, axis: new(0), want: []int{1, 1}},
		{name: "zero dim", version: 25, in: []int{2, 0, 3}, axis: new(2), want: []int{0, 3}},
		{name: "axis past the rank", version: 25, in: []int{2, 3}, axis: new(3), rule: "axis [C1]"},
		{name: "axis before -rank", version: 25, in: []int{2, 3}, axis: new(-3), rule: "axis [C1]"},
		{name: "negative axis in version 9", version: 9, in: []int{2, 3}, axis: new(-1), rule: "axis [C1]"},
		{name: "version 1", version: 1, in: []int{2, 3, 4}, axis: new(2), want: []int{6, 4}},
		{name: "version 11 takes negative axes", version: 11, in: []int{2, 3, 4}, axis: new(-1), want: []int{6, 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := iota32(c.in...)
			attrs := map[string]Attribute{}
			if c.axis != nil {
				attrs["axis"] = intAttribute(int64(*c.axis))
			}
			y, err := runNode(nil, "Flatten", c.version, attrs, x)
			checkRule(t, err, c.rule)
			if err != nil {
				return
			}
			checkFloats(t, y, c.want, mustFloats(x))
			if x.Len() > 0 && !y.SharesStorage(x) {
				t.Fatal("Flatten copied its input; it must return a view")
			}
			if c.version == 25 {
				z, err := Flatten(x, FlattenOptions{Axis: c.axis})
				if err != nil || !z.Equal(y) {
					t.Fatalf("Flatten() = %v, %v; the node gave %v", z, err, y)
				}
			}
		})
	}
}

// Flatten is a view for every type, and never touches its input.
func TestFlattenProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dt := range tensor.AllTypes() {
		for range 20 {
			in := randomShape(rng, rng.IntN(5), 1, 4)
			x := randomValidTensor(rng, dt, in)
			c := x.Clone()
			axis := rng.IntN(2*len(in)+1) - len(in)
			y, err := Flatten(x, FlattenOptions{Axis: &axis})
			if err != nil {
				t.Fatalf("%v %v axis %d: %v", dt, in, axis, err)
			}
			if y.Rank() != 2 || y.Len() != x.Len() || !y.SharesStorage(x) {
				t.Fatalf("%v %v axis %d: got %v, want a 2-D view", dt, in, axis, y.Describe())
			}
			unchanged(t, x, c)
		}
	}
}
