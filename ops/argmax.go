// ArgMax returns the index along axis of the largest element of each slice
// of data, as int64; keepdims keeps the axis with length 1. The first such
// index, or with select_last_index the last. A NaN counts as the largest
// element (the first NaN, or the last with select_last_index), as numpy's
// argmax does. An axis of length 0 is an error: there is no index to give.
// The attributes and the kernel are shared with ArgMin (argextreme.go).
//
// Versions: 1, 11 (the range [-r, r-1] stated; negative axes are taken in
// every version, as PyTorch exports them), 12 (select_last_index), 13
// (bfloat16). Types: every integer of 8 to 64 bits, float16, float, double,
// bfloat16.

package ops

import "github.com/onnxshape/onnxshape/tensor"

var argMaxOp = argOperator{name: "ArgMax", max: true}

func init() { registerArg(argMaxOp) }

// ArgMax returns the index (int64) of the largest element of each slice of x
// along axis, the first of equal ones (the last with selectLastIndex), the
// axis kept with length 1 (ONNX ArgMax, version 13, keepdims=1).
func ArgMax(x *tensor.Tensor, axis int, selectLastIndex bool, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"ArgMax", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return argMaxOp.run(opt, op, x, int64(axis), true, selectLastIndex)
}
