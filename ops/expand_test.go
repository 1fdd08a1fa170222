package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestExpand(t *testing.T) {
	col := tensor.MustFromSlice([]float32{1, 2, 3}, 3, 1)
	// The ONNX node tests test_expand_dim_changed and _dim_unchanged.
	y, err := runNode(nil, "Expand", 8, nil, col, i64s(2, 1, 6))
	checkRule(t, err, "")
	row := []float32{1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3}
	checkFloats(t, y, []int{2, 3, 6}, append(append([]float32{}, row...), row...))
	y, err = runNode(nil, "Expand", 13, nil, col, i64s(3, 4))
	checkRule(t, err, "")
	checkFloats(t, y, []int{3, 4}, []float32{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3})

	cases := []struct {
		name      string
		in, shape []int
		want      []int
		rule      string
	}{
		{name: "shape of 1 keeps the input dim", in: []int{3, 4}, shape: []int{1, 1}, want: []int{3, 4}},
		{name: "shorter shape", in: []int{2, 3, 1}, shape: []int{5}, want: []int{2, 3, 5}},
		{name: "both ways", in: []int{3, 1}, shape: []int{2, 1, 6}, want: []int{2, 3, 6}},
		{name: "scalar to matrix", in: []int{}, shape: []int{2, 2}, want: []int{2, 2}},
		{name: "empty shape", in: []int{2, 2}, shape: []int{}, want: []int{2, 2}},
		{name: "to zero", in: []int{1, 3}, shape: []int{0, 3}, want: []int{0, 3}},
		{name: "zero stays", in: []int{0, 3}, shape: []int{1, 3}, want: []int{0, 3}},
		{name: "middle", in: []int{2, 1, 3}, shape: []int{2, 4, 3}, want: []int{2, 4, 3}},
		{name: "no broadcast", in: []int{2, 3}, shape: []int{3, 3}, rule: "broadcast"},
		{name: "negative dim", in: []int{2, 3}, shape: []int{-1, 3}, rule: "shape"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := iota32(c.in...)
			c0 := x.Clone()
			y, err := Expand(x, ExpandOptions{Shape: c.shape})
			checkRule(t, err, c.rule)
			unchanged(t, x, c0)
			if err != nil {
				return
			}
			if !tensor.SameShape(y.Shape(), c.want) || !y.Equal(expandOracle(x, c.want)) {
				t.Fatalf("got %v %v", y.Shape(), mustFloats(y))
			}
		})
	}
	_, err = runNode(nil, "Expand", 13, nil, col, tensor.MustFromSlice([]int64{3, 4}, 1, 2))
	checkRule(t, err, "shape")
	_, err = runNode(&Options{MaxTensorBytes: 1 << 20}, "Expand", 13, nil, col, i64s(1<<20, 3, 1<<10))
	checkRule(t, err, "size")
}

// expandOracle is a broadcast computed element by element.
func expandOracle(x *tensor.Tensor, out []int) *tensor.Tensor {
	in := x.Shape()
	return oracle(x, out, func(idx []int) []int {
		src := make([]int, len(in))
		for k := range in {
			if in[k] != 1 {
				src[k] = idx[k+len(out)-len(in)]
			}
		}
		return src
	})
}

func TestExpandProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, dt := range typesUnderTest {
		for range 20 {
			out := randomShape(rng, rng.IntN(5), 0, 4)
			in := append([]int{}, out[rng.IntN(len(out)+1):]...)
			shape := append([]int{}, out...)
			for k := range in {
				if rng.IntN(2) == 0 {
					in[k] = 1
				}
			}
			for k := range shape {
				if rng.IntN(3) == 0 && k >= len(shape)-len(in) && in[k-len(shape)+len(in)] == out[k] {
					shape[k] = 1
				}
			}
			x := randomValidTensor(rng, dt, in)
			c := x.Clone()
			y, err := Expand(x, ExpandOptions{Shape: shape})
			if err != nil {
				t.Fatalf("%v %v to %v: %v", dt, in, shape, err)
			}
			if !tensor.SameShape(y.Shape(), out) || !y.Equal(expandOracle(x, out)) {
				t.Fatalf("%v %v to %v: got %v, differs from the oracle", dt, in, shape, y.Describe())
			}
			unchanged(t, x, c)
		}
	}
}
