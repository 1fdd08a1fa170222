// Imputer (ai.onnx.ml, version 1) replaces the elements of X (float,
// double, int64 or int32; rank at least 1) equal to the replaced value by
// the imputed values, along the last axis: imputed_value_floats (for float
// and double X) or imputed_value_int64s (for the integers), one value for
// every element or one per element of the last axis. The replaced value is
// replaced_value_float (default 0; NaN replaces every NaN) or
// replaced_value_int64 (default 0). Y has X's type and shape.
//
// An int32 X compares and imputes through int64 (an imputed value beyond
// int32 wraps as a conversion does), a double X through the float
// attributes widened to double.
//
// Rules: [type]; [rank] at least 1; [imputed] exactly one of the imputed
// lists, the one of X's kind; [length] one value or one per element of the
// last axis.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "Imputer", []int{1}, [2]int{1, 1}, [2]int{1, 1}, imputerNode)
	declareAttrsIn(domainML, "Imputer",
		AttrSpec{Name: "imputed_value_floats", Type: AttrFloats}, AttrSpec{Name: "imputed_value_int64s", Type: AttrInts},
		AttrSpec{Name: "replaced_value_float", Type: AttrFloat}, AttrSpec{Name: "replaced_value_int64", Type: AttrInt})
}

func imputerNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	switch x.DataType() {
	case tensor.Float, tensor.Double, tensor.Int64, tensor.Int32:
	default:
		return nil, op.errorf("type", "X must be float, double, int64 or int32, got %v", x.DataType())
	}
	if x.Rank() < 1 {
		return nil, op.errorf("rank", "X must have at least one axis, got a scalar")
	}
	fl, hasFloats, err := n.Floats("imputed_value_floats")
	if err != nil {
		return nil, err
	}
	it, hasInts, err := n.Ints("imputed_value_int64s")
	if err != nil {
		return nil, err
	}
	hasFloats, hasInts = hasFloats && len(fl) > 0, hasInts && len(it) > 0
	if hasFloats == hasInts {
		return nil, op.errorf("imputed", "exactly one of imputed_value_floats and imputed_value_int64s must be given")
	}
	isFloat := x.DataType().IsFloat()
	if isFloat != hasFloats {
		return nil, op.errorf("imputed", "X of %v takes imputed_value_%s", x.DataType(), map[bool]string{true: "floats", false: "int64s"}[isFloat])
	}
	count := len(fl) + len(it)
	c := x.Shape()[x.Rank()-1]
	if count != 1 && count != c {
		return nil, op.errorf("length", "%d imputed values: 1 or %d, one per element of X's last axis", count, c)
	}
	rf, err := n.Float("replaced_value_float", 0)
	if err != nil {
		return nil, err
	}
	ri, err := n.Int("replaced_value_int64", 0)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, x.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	at := func(i int) int {
		if count == 1 {
			return 0
		}
		return i % c
	}
	switch x.DataType() {
	case tensor.Float:
		err = impute(opt, x, y, at, func(v float32) bool { return v == rf || math.IsNaN(float64(rf)) && v != v },
			func(j int) float32 { return fl[j] })
	case tensor.Double:
		r := float64(rf)
		err = impute(opt, x, y, at, func(v float64) bool { return v == r || math.IsNaN(r) && v != v },
			func(j int) float64 { return float64(fl[j]) })
	case tensor.Int64:
		err = impute(opt, x, y, at, func(v int64) bool { return v == ri }, func(j int) int64 { return it[j] })
	default:
		err = impute(opt, x, y, at, func(v int32) bool { return int64(v) == ri }, func(j int) int32 { return int32(it[j]) })
	}
	if err != nil {
		return nil, op.stopped(err)
	}
	return values(y), nil
}

func impute[E float32 | float64 | int64 | int32](opt *Options, x, y *tensor.Tensor, at func(int) int, replaced func(E) bool, imputed func(int) E) error {
	src, dst := asElems[E](x.Bytes())[:x.Len()], asElems[E](y.Bytes())[:y.Len()]
	return parallelRange(opt, len(src), len(src), func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			if replaced(src[i]) {
				dst[i] = imputed(at(i))
			} else {
				dst[i] = src[i]
			}
		}
		return nil
	})
}
