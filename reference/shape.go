// Shape (ONNX Shape 1, 13, 15, 19, 21, 23, 24, 25): the dims of the input,
// as a 1-D int64 tensor. From 15, only those of axes [start, end): each
// bound counts from the end when negative and is then clamped to [0, r];
// start defaults to 0, end to r. Before 15, start or end breaks [attribute].
//
// The working group's informal specification: onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/shape/shape.md.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Shape", []int{1, 13, 15, 19, 21, 23, 24, 25}, shape)
}

func shape(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "data")
	if err != nil {
		return nil, err
	}
	r := x.Rank()
	start, end := 0, r
	if op.version < 15 && (n.Has("start") || n.Has("end")) {
		return nil, op.errorf("attribute", "attributes start and end exist from version 15 on")
	}
	if op.version >= 15 {
		if start, err = intAttr(n, "start", 0, "start"); err != nil {
			return nil, err
		}
		if end, err = intAttr(n, "end", r, "end"); err != nil {
			return nil, err
		}
	}
	clamp := func(a int) int {
		if a < 0 {
			a += r
		}
		return min(max(a, 0), r)
	}
	start, end = clamp(start), clamp(end)
	dims := []int64{}
	for k := start; k < end; k++ {
		dims = append(dims, int64(x.Shape()[k]))
	}
	y, err := newTensor(opt, op, tensor.Int64, []int{len(dims)})
	if err != nil {
		return nil, err
	}
	out, _ := tensor.Data[int64](y)
	copy(out, dims)
	return values(y), nil
}
