package ops

import (
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestSpaceToDepth(t *testing.T) {
	// The ONNX example (test_spacetodepth_example): [1, 1, 4, 6] -> [1, 4, 2, 3].
	x := iota32(1, 1, 4, 6)
	want := []float32{
		0, 2, 4, 12, 14, 16,
		1, 3, 5, 13, 15, 17,
		6, 8, 10, 18, 20, 22,
		7, 9, 11, 19, 21, 23,
	}
	for _, v := range []int{1, 13} {
		y, err := runNode(nil, "SpaceToDepth", v, map[string]Attribute{"blocksize": intAttribute(2)}, x)
		checkRule(t, err, "")
		checkFloats(t, y, []int{1, 4, 2, 3}, want)
	}
	// It is the inverse of DepthToSpace in DCR mode, on the example of
	// DepthToSpace.
	d := exampleDepth()
	y, err := DepthToSpace(d, DepthToSpaceOptions{Blocksize: 2})
	checkRule(t, err, "")
	z, err := SpaceToDepth(y, SpaceToDepthOptions{Blocksize: 2})
	checkRule(t, err, "")
	if !z.Equal(d) {
		t.Fatalf("SpaceToDepth(DepthToSpace(x)) = %v, want x", mustFloats(z))
	}

	for _, c := range []struct {
		name  string
		in    []int
		attrs map[string]Attribute
		rule  string
	}{
		{"no blocksize", []int{1, 1, 4, 4}, nil, "blocksize"},
		{"zero blocksize", []int{1, 1, 4, 4}, map[string]Attribute{"blocksize": intAttribute(0)}, "blocksize"},
		{"H not divisible", []int{1, 1, 3, 4}, map[string]Attribute{"blocksize": intAttribute(2)}, "spatial"},
		{"W not divisible", []int{1, 1, 4, 5}, map[string]Attribute{"blocksize": intAttribute(2)}, "spatial"},
		{"rank 3", []int{1, 4, 4}, map[string]Attribute{"blocksize": intAttribute(2)}, "rank"},
		{"rank 5", []int{1, 1, 1, 4, 4}, map[string]Attribute{"blocksize": intAttribute(2)}, "rank"},
		{"zero-sized", []int{0, 3, 4, 4}, map[string]Attribute{"blocksize": intAttribute(2)}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := runNode(nil, "SpaceToDepth", 13, c.attrs, iota32(c.in...))
			checkRule(t, err, c.rule)
		})
	}
}

// spaceToDepthOracle is SpaceToDepth computed element by element: output
// [n, (i*b+j)*C + c, h, w] is input [n, c, h*b+i, w*b+j].
func spaceToDepthOracle(x *tensor.Tensor, b int) *tensor.Tensor {
	s := x.Shape()
	return oracle(x, []int{s[0], s[1] * b * b, s[2] / b, s[3] / b}, func(idx []int) []int {
		n, ch, h, w := idx[0], idx[1], idx[2], idx[3]
		c, ij := ch%s[1], ch/s[1]
		return []int{n, c, h*b + ij/b, w*b + ij%b}
	})
}
