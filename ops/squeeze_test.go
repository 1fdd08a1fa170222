package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestSqueeze(t *testing.T) {
	cases := []struct {
		name string
		in   []int
		axes []int
		want []int
		rule string
	}{
		// The cases of the ONNX node tests test_squeeze*.
		{name: "squeeze", in: []int{1, 3, 4, 5}, axes: []int{0}, want: []int{3, 4, 5}},
		{name: "negative axes", in: []int{1, 3, 1, 5}, axes: []int{-2}, want: []int{1, 3, 5}},
		// More.
		{name: "no axes removes every 1", in: []int{1, 3, 1, 1, 5}, want: []int{3, 5}},
		{name: "empty axes are no axes", in: []int{1, 3, 1}, axes: []int{}, want: []int{3}},
		{name: "to a scalar", in: []int{1, 1}, want: []int{}},
		{name: "several, in any order", in: []int{1, 2, 1, 3, 1}, axes: []int{4, 0, -3}, want: []int{2, 3}},
		{name: "zero-sized dims stay", in: []int{0, 1, 2}, axes: []int{1}, want: []int{0, 2}},
		{name: "a dim that is not 1", in: []int{1, 3}, axes: []int{1}, rule: "not-one"},
		{name: "axis past the rank", in: []int{1, 3}, axes: []int{2}, rule: "axis-range"},
		{name: "axis before -rank", in: []int{1, 3}, axes: []int{-3}, rule: "axis-range"},
		{name: "an axis twice", in: []int{1, 3}, axes: []int{0, -2}, rule: "axis-repeated"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := iota32(c.in...)
			c0 := x.Clone()
			y, err := Squeeze(x, SqueezeOptions{Axes: c.axes})
			checkRule(t, err, c.rule)
			unchanged(t, x, c0)
			if err != nil {
				return
			}
			checkFloats(t, y, c.want, mustFloats(x))
			if x.Len() > 0 && !y.SharesStorage(x) {
				t.Fatal("Squeeze copied its input; it must return a view")
			}
		})
	}
}

// Squeeze-1 and -11 read the axes from an attribute (1 only non-negative
// ones), 13 on from an optional input.
func TestSqueezeVersions(t *testing.T) {
	x := iota32(1, 3, 1)
	cases := []struct {
		name    string
		version int
		attrs   map[string]Attribute
		axes    *tensor.Tensor
		want    []int
		rule    string
	}{
		{name: "1, attribute", version: 1, attrs: map[string]Attribute{"axes": ints(0)}, want: []int{3, 1}},
		{name: "1, no axes", version: 1, want: []int{3}},
		{name: "1, negative axis", version: 1, attrs: map[string]Attribute{"axes": ints(-1)}, rule: "axis-range"},
		{name: "11, empty attribute", version: 11, attrs: map[string]Attribute{"axes": ints()}, want: []int{3}},
		{name: "11, negative axis", version: 11, attrs: map[string]Attribute{"axes": ints(-1)}, want: []int{1, 3}},
		{name: "11, attribute of the wrong type", version: 11, attrs: map[string]Attribute{"axes": intAttribute(0)}, rule: "attribute"},
		{name: "13, input", version: 13, axes: i64s(2), want: []int{1, 3}},
		{name: "13, no input", version: 13, want: []int{3}},
		{name: "13, empty input", version: 13, axes: i64s(), want: []int{1, 3, 1}},
		{name: "13, int32 axes", version: 13, axes: tensor.MustFromSlice([]int32{0}), rule: "axes"},
		{name: "25, input", version: 25, axes: i64s(0, 2), want: []int{3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := []*tensor.Tensor{x}
			if c.axes != nil {
				in = append(in, c.axes)
			}
			y, err := runNode(nil, "Squeeze", c.version, c.attrs, in...)
			checkRule(t, err, c.rule)
			if err != nil {
				return
			}
			checkFloats(t, y, c.want, mustFloats(x))
		})
	}
}

// Unsqueeze then Squeeze of the same axes gives back the input, as a view,
// for every type.
func TestSqueezeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dt := range tensor.AllTypes() {
		for range 20 {
			in := randomShape(rng, rng.IntN(4), 2, 4)
			x := randomValidTensor(rng, dt, in)
			c := x.Clone()
			rY := len(in) + 1 + rng.IntN(2)
			axes := rng.Perm(rY)[:rY-len(in)]
			u, err := Unsqueeze(x, UnsqueezeOptions{Axes: axes})
			if err != nil {
				t.Fatal(err)
			}
			y, err := Squeeze(u, SqueezeOptions{Axes: axes})
			if err != nil {
				t.Fatalf("%v %v axes %v: %v", dt, in, axes, err)
			}
			if !y.Equal(x) || !y.SharesStorage(x) {
				t.Fatalf("%v %v axes %v: Squeeze(Unsqueeze(x)) is %v, not a view of x", dt, in, axes, y.Describe())
			}
			unchanged(t, x, c)
		}
	}
}
