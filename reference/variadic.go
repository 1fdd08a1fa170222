package reference

// Sum, Mean, Max and Min: folded over their inputs from the first to the
// last, each partial result rounded to the type (as a model computing them
// pairwise would). Before version 8 the inputs have one shape; from 8 they
// broadcast.

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// fold is the kernel of a variadic operator: step combines the partial
// result with the next input's element, finish (if set) ends the result.
func fold(step func(acc, x scalar) scalar, finish func(acc scalar, count int) scalar) ops.Kernel {
	return func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		if len(in) == 0 {
			return nil, op.errorf("input", "at least one input is required")
		}
		ts := make([]*tensor.Tensor, len(in))
		for i := range in {
			t, err := requiredInput(op, in, i, "data_0")
			if err != nil {
				return nil, err
			}
			ts[i] = t
			if err := checkType(op, "input", t.DataType(), elementwiseTypes[n.OpType]); err != nil {
				return nil, err
			}
			if t.DataType() != ts[0].DataType() {
				return nil, op.errorf("type", "input %d of type %v must have input 0's type %v", i, t.DataType(), ts[0].DataType())
			}
			if n.Version < 8 && !tensor.SameShape(t.Shape(), ts[0].Shape()) {
				return nil, op.errorf("shape", "input %d of shape %v must have input 0's shape %v", i, t.Shape(), ts[0].Shape())
			}
		}
		dt := ts[0].DataType()
		out, err := elementwiseN(opt, op, dt, func(x []scalar) scalar {
			acc := x[0]
			for _, v := range x[1:] {
				acc = roundTo(dt, step(acc, v))
			}
			if finish != nil {
				acc = finish(acc, len(x))
			}
			return acc
		}, ts...)
		if err != nil {
			return nil, err
		}
		return values(out), nil
	}
}
