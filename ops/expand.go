// Expand broadcasts a tensor to a shape. The broadcast is two-way (numpy's
// multidirectional rule): the output shape is the broadcast of the input's
// shape and the requested one, so a requested dim of 1 keeps the input's dim
// and the output may have more axes than either.
//
// Versions: 8 and 13 differ only in the element types they allow. The
// rules, as ONNX states them (SONNX has not specified Expand yet):
//
//	[shape]     the requested shape is a 1-D int64 tensor of dims >= 0
//	[broadcast] the two shapes broadcast: aligned at the end, each pair of
//	            dims equal or one of them 1
//
// The kernel is one copy plan (plans.go's broadcastPlan), with source stride
// 0 on the broadcast axes.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Expand", []int{8, 13}, [2]int{2, 2}, [2]int{1, 1}, expandNode)
}

// ExpandOptions are the parameters of Expand.
type ExpandOptions struct {
	// Shape is the requested shape, broadcast with the input's.
	Shape []int
}

// Expand returns input broadcast to o.Shape (ONNX Expand, version 13).
func Expand(input *tensor.Tensor, o ExpandOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Expand", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return expand(opt, op, input, o.Shape)
}

func expandNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	shape, _, err := n.int64ListInput(opt, in, 1, "shape", "shape", true)
	if err != nil {
		return nil, err
	}
	y, err := expand(opt, n.op(), x, shape)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func expand(opt *Options, op opRef, x *tensor.Tensor, shape []int) (*tensor.Tensor, error) {
	if err := checkInput(op, "input", x); err != nil {
		return nil, err
	}
	if err := opt.positiveDims(op, "input", x.Shape()); err != nil {
		return nil, err
	}
	out, err := expandShape(op, x.Shape(), shape)
	if err != nil {
		return nil, err
	}
	if err := opt.positiveDims(op, "output", out); err != nil {
		return nil, err
	}
	y, err := opt.orDefault().newOverwritten(op, x.DataType(), out)
	if err != nil {
		return nil, err
	}
	if err := movement.BroadcastPlan(x.Shape(), out).Run(opt.moves(), y, x); err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}

// expandShape checks the rules and returns the output shape.
func expandShape(op opRef, in, shape []int) ([]int, error) {
	for k, d := range shape {
		if d < 0 {
			return nil, op.errorf("shape", "shape[%d] is %d; dims are >= 0", k, d)
		}
	}
	out, err := broadcastShapes(in, shape)
	if err != nil {
		return nil, op.errorf("broadcast", "%v", err)
	}
	return out, nil
}
