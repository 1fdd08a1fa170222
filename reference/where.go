// Where, versions 9, 16. ONNX Operators.md:
//
// "Return elements, either from X or Y, depending on condition. Where
// behaves like numpy.where with three parameters."

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Where", []int{9, 16}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		var ts [3]*tensor.Tensor
		for i, name := range []string{"condition", "X", "Y"} {
			t, err := requiredInput(op, in, i, name)
			if err != nil {
				return nil, err
			}
			ts[i] = t
		}
		cond, x, y := ts[0], ts[1], ts[2]
		if cond.DataType() != tensor.Bool {
			return nil, op.errorf("type", "condition must be bool, got %v", cond.DataType())
		}
		if err := checkType(op, "X", x.DataType(), elementwiseTypes["Where"]); err != nil {
			return nil, err
		}
		if y.DataType() != x.DataType() {
			return nil, op.errorf("type", "Y of type %v must have X's type %v", y.DataType(), x.DataType())
		}
		// SONNX's Where (based on Where 16): condition [C1], no broadcasting.
		if err := sameShapesSONNX(opt, op, x.DataType(), []string{"condition", "X", "Y"}, cond, x, y); err != nil {
			return nil, err
		}
		out, err := elementwiseN(opt, op, x.DataType(), func(v []scalar) scalar {
			if v[0].b {
				return v[1]
			}
			return v[2]
		}, cond, x, y)
		if err != nil {
			return nil, err
		}
		return values(out), nil
	})
}
