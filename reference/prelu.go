// PRelu, versions 1, 6, 7, 9, 16. ONNX Operators.md:
//
// "PRelu takes input data (Tensor<T>) and slope tensor as input, and
// produces one output data (Tensor<T>) where the function f(x) = slope * x
// for x < 0, f(x) = x for x >= 0., is applied to the data tensor
// elementwise." From version 7 slope broadcasts to X
// (unidirectional); versions 1 and 6 take a slope of one element or of
// X's shape, and a slope of C elements applies along axis 1 (the channel).

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("PRelu", []int{1, 6, 7, 9, 16}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "X")
		if err != nil {
			return nil, err
		}
		slope, err := requiredInput(op, in, 1, "slope")
		if err != nil {
			return nil, err
		}
		if n.Version < 7 && slope.Rank() == 1 && x.Rank() >= 2 && slope.Len() == x.Shape()[1] && slope.Len() != 1 {
			shape := make([]int, x.Rank()-1)
			for k := range shape {
				shape[k] = 1
			}
			shape[0] = slope.Len()
			if slope, err = slope.View(shape...); err != nil {
				return nil, op.wrap("broadcast", err, "slope")
			}
		}
		if s, err := broadcastShape(x.Shape(), slope.Shape()); err != nil || !tensor.SameShape(s, x.Shape()) {
			return nil, op.errorf("broadcast", "slope of shape %v does not broadcast to X's shape %v", slope.Shape(), x.Shape())
		}
		if err := checkType(op, "X", x.DataType(), elementwiseTypes["PRelu"]); err != nil {
			return nil, err
		}
		if slope.DataType() != x.DataType() {
			return nil, op.errorf("type", "slope of type %v must have X's type %v", slope.DataType(), x.DataType())
		}
		out, err := elementwiseN(opt, op, x.DataType(), func(v []scalar) scalar {
			if realOf(v[0]) < 0 {
				return arith(v[0], v[1],
					func(a, b float64) float64 { return a * b },
					func(a, b int64) int64 { return a * b },
					nil)
			}
			return v[0]
		}, x, slope)
		if err != nil {
			return nil, err
		}
		return values(out), nil
	})
}
