// Binarizer (ai.onnx.ml, version 1) maps each element of X to 1 when it is
// greater than threshold (default 0) and to 0 otherwise, in X's type and
// shape; NaN maps to 0 (the comparison is false).
//
// Rules: [type] float, double, int64 or int32. The comparison is made in
// float64, which holds every float32 and threshold exactly; an int64
// beyond 2^53 is rounded first, which decides nothing a float32
// threshold could tell apart.

package ops

import "github.com/onnxshape/onnxshape/tensor"

func init() {
	registerIn(domainML, "Binarizer", []int{1}, [2]int{1, 1}, [2]int{1, 1}, binarizerNode)
	declareAttrsIn(domainML, "Binarizer", AttrSpec{Name: "threshold", Type: AttrFloat})
}

func binarizerNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	threshold, err := n.Float("threshold", 0)
	if err != nil {
		return nil, err
	}
	switch x.DataType() {
	case tensor.Float, tensor.Double, tensor.Int64, tensor.Int32:
	default:
		return nil, op.errorf("type", "X must be float, double, int64 or int32, got %v", x.DataType())
	}
	y, err := opt.newOverwritten(op, x.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	th := float64(threshold)
	switch x.DataType() {
	case tensor.Float:
		err = binarize[float32](opt, x, y, th)
	case tensor.Double:
		err = binarize[float64](opt, x, y, th)
	case tensor.Int64:
		err = binarize[int64](opt, x, y, th)
	default:
		err = binarize[int32](opt, x, y, th)
	}
	if err != nil {
		return nil, op.stopped(err)
	}
	return values(y), nil
}

func binarize[E float32 | float64 | int32 | int64](opt *Options, x, y *tensor.Tensor, th float64) error {
	src, dst := asElems[E](x.Bytes())[:x.Len()], asElems[E](y.Bytes())[:y.Len()]
	return parallelRange(opt, len(src), len(src), func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			if float64(src[i]) > th {
				dst[i] = 1
			} else {
				dst[i] = 0
			}
		}
		return nil
	})
}
