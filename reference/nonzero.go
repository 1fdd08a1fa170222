package reference

// NonZero (versions 9, 13), after the ONNX specification:
//
//	"Returns the indices of the elements that are non-zero (in row-major
//	order - by dimension). NonZero behaves similar to numpy.nonzero:
//	https://docs.scipy.org/doc/numpy/reference/generated/numpy.nonzero.html,
//	but for scalar input, NonZero produces output shape (0, N) instead of
//	(1, N), which is different from Numpy's behavior."
//
// The specification's scalar rule is followed by neither the reference
// evaluator (numpy) nor onnxruntime, which give (1, N); so does onnxshape
// (docs/divergences.md).

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("NonZero", []int{9, 13}, nonZero) }

func nonZero(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	dt := x.DataType()
	if castFirstVersion(dt) > 1 && !(dt == tensor.BFloat16 && n.Version >= 13) {
		return nil, op.errorf("type", "NonZero-%d takes no %v", n.Version, dt)
	}
	shape := x.Shape()
	if len(shape) == 0 {
		shape = []int{1}
	}
	var found [][]int
	for i := range x.Len() {
		v := exactValue(x, i)
		if (v.kind == 'f' && v.f != 0) || (v.kind == 'i' && v.i != 0) || (v.kind == 'u' && v.u != 0) {
			found = append(found, unravel(i, shape))
		}
	}
	y, err := newTensor(opt, op, tensor.Int64, []int{len(shape), len(found)})
	if err != nil {
		return nil, err
	}
	for c, pos := range found {
		for d, p := range pos {
			putInt(y, d*len(found)+c, uint64(p))
		}
	}
	return values(y), nil
}
