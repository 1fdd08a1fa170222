package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestReshape(t *testing.T) {
	sonnx := &Options{Profile: ProfileSONNX}
	cases := []struct {
		name      string
		opt       *Options
		in        []int
		shape     []int
		allowZero bool
		want      []int
		rule      string
	}{
		// The cases of the ONNX node tests test_reshape_*.
		{name: "reordered all dims", in: []int{2, 3, 4}, shape: []int{4, 2, 3}, want: []int{4, 2, 3}},
		{name: "reordered last dims", in: []int{2, 3, 4}, shape: []int{2, 4, 3}, want: []int{2, 4, 3}},
		{name: "reduced dims", in: []int{2, 3, 4}, shape: []int{2, 12}, want: []int{2, 12}},
		{name: "extended dims", in: []int{2, 3, 4}, shape: []int{2, 3, 2, 2}, want: []int{2, 3, 2, 2}},
		{name: "one dim", in: []int{2, 3, 4}, shape: []int{24}, want: []int{24}},
		{name: "negative dim", in: []int{2, 3, 4}, shape: []int{2, -1, 2}, want: []int{2, 6, 2}},
		{name: "negative extended dims", in: []int{2, 3, 4}, shape: []int{-1, 2, 3, 4}, want: []int{1, 2, 3, 4}},
		{name: "zero dim", in: []int{2, 3, 4}, shape: []int{2, 0, 4, 1}, want: []int{2, 3, 4, 1}},
		{name: "zero and negative dim", in: []int{2, 3, 4}, shape: []int{2, 0, 1, -1}, want: []int{2, 3, 1, 4}},
		{name: "allowzero reordered", in: []int{0, 3, 4}, shape: []int{3, 4, 0}, allowZero: true, want: []int{3, 4, 0}},
		// More.
		{name: "to scalar", in: []int{1, 1}, shape: []int{}, want: []int{}},
		{name: "from scalar", in: []int{}, shape: []int{1, -1}, want: []int{1, 1}},
		{name: "zero copies a zero dim", in: []int{0, 3}, shape: []int{0, 3}, want: []int{0, 3}},
		{name: "-1 beside a zero-sized input", in: []int{0, 3}, shape: []int{-1, 3}, want: []int{0, 3}},
		{name: "-1 beside a zero-sized input, SONNX", opt: sonnx, in: []int{0, 3}, shape: []int{-1, 3}, rule: "allowzero [C3]"},
		{name: "-1 ambiguous", in: []int{2, 0}, shape: []int{-1, 0}, rule: "allowzero [C3]"},
		{name: "two -1", in: []int{2, 3, 4}, shape: []int{-1, -1}, rule: "S [C1]"},
		{name: "below -1", in: []int{2, 3, 4}, shape: []int{-2, 12}, rule: "allowzero [C3]"},
		{name: "zero past the rank", in: []int{6}, shape: []int{3, 0}, rule: "allowzero [C2]"},
		{name: "allowzero with 0 and -1", in: []int{0, 3}, shape: []int{0, -1}, allowZero: true, rule: "allowzero [C3]"},
		{name: "count mismatch", in: []int{2, 3, 4}, shape: []int{5, 5}, rule: "X [C1]"},
		{name: "-1 does not divide", in: []int{2, 3, 4}, shape: []int{5, -1}, rule: "X [C1]"},
		{name: "allowzero literal zero mismatch", in: []int{2, 3}, shape: []int{0, 6}, allowZero: true, rule: "X [C1]"},
		{name: "overflow", in: []int{2}, shape: []int{math.MaxInt / 4, math.MaxInt / 4}, rule: "X [C1]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := iota32(c.in...)
			y, err := reshape(c.opt, opRef{"Reshape", 25}, x, c.shape, c.allowZero)
			checkRule(t, err, c.rule)
			if err != nil {
				return
			}
			if !tensor.SameShape(y.Shape(), c.want) {
				t.Fatalf("shape %v, want %v", y.Shape(), c.want)
			}
			if x.Len() > 0 && !y.SharesStorage(x) {
				t.Fatalf("Reshape copied its input; it must return a view")
			}
		})
	}
}

// Reshape-1 reads the shape from an attribute; 5 from an input; 14 adds
// allowzero, which the profile restricts to 0 and 1.
func TestReshapeVersions(t *testing.T) {
	x := iota32(2, 3, 4)
	y, err := runNode(nil, "Reshape", 1, map[string]Attribute{"shape": ints(4, -1)}, x)
	checkRule(t, err, "")
	checkFloats(t, y, []int{4, 6}, mustFloats(x))

	_, err = runNode(nil, "Reshape", 1, nil, x)
	checkRule(t, err, "shape")

	y, err = runNode(nil, "Reshape", 5, nil, x, i64s(0, -1))
	checkRule(t, err, "")
	checkFloats(t, y, []int{2, 12}, mustFloats(x))

	// Before 14, there is no allowzero: 0 copies.
	e := iota32(0, 3)
	_, err = runNode(nil, "Reshape", 13, map[string]Attribute{"allowzero": intAttribute(1)}, e, i64s(3, 0))
	checkRule(t, err, "attribute")
	_, err = runNode(nil, "Reshape", 13, nil, e, i64s(3, 0))
	checkRule(t, err, "X [C1]")

	y, err = runNode(nil, "Reshape", 14, map[string]Attribute{"allowzero": intAttribute(1)}, e, i64s(3, 0))
	checkRule(t, err, "")
	if !tensor.SameShape(y.Shape(), []int{3, 0}) {
		t.Fatalf("shape %v, want [3 0]", y.Shape())
	}

	// allowzero=2 reads as 0 in ONNX, and is refused by the profile.
	y, err = runNode(nil, "Reshape", 25, map[string]Attribute{"allowzero": intAttribute(2)}, x, i64s(0, 12))
	checkRule(t, err, "")
	if !tensor.SameShape(y.Shape(), []int{2, 12}) {
		t.Fatalf("shape %v, want [2 12]", y.Shape())
	}
	_, err = runNode(&Options{Profile: ProfileSONNX}, "Reshape", 25, map[string]Attribute{"allowzero": intAttribute(2)}, x, i64s(0, 12))
	checkRule(t, err, "allowzero [C1]")

	// The shape must be int64 and at most 1-D.
	_, err = runNode(nil, "Reshape", 25, nil, x, tensor.MustFromSlice([]int32{2, 12}))
	checkRule(t, err, "shape")
	_, err = runNode(nil, "Reshape", 25, nil, x, tensor.MustFromSlice([]int64{2, 12}, 1, 2))
	checkRule(t, err, "shape")
	_, err = runNode(nil, "Reshape", 25, nil, x)
	checkRule(t, err, "input")
}

// Reshape is a view for every type, and never touches its input.
func TestReshapeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range tensor.AllTypes() {
		for range 20 {
			in := randomShape(rng, rng.IntN(5), 1, 4)
			x := randomValidTensor(rng, dt, in)
			c := x.Clone()
			// Reverse the dims and infer one of them.
			shape := make([]int, len(in))
			for k := range in {
				shape[k] = in[len(in)-1-k]
			}
			if len(shape) > 0 {
				shape[rng.IntN(len(shape))] = -1
			}
			y, err := Reshape(x, ReshapeOptions{Shape: shape})
			if err != nil {
				t.Fatalf("%v %v -> %v: %v", dt, in, shape, err)
			}
			if !y.SharesStorage(x) {
				t.Fatalf("%v %v: Reshape copied its input", dt, in)
			}
			back, err := Reshape(y, ReshapeOptions{Shape: in})
			if err != nil || !back.Equal(x) {
				t.Fatalf("%v %v: reshaping back does not give the input (%v)", dt, in, err)
			}
			unchanged(t, x, c)
		}
	}
}

func mustFloats(x *tensor.Tensor) []float32 {
	v, err := tensor.ToSlice[float32](x)
	if err != nil {
		panic(err)
	}
	return v
}
