// CumSum writes the running sums of x along the axis given by its second
// input (an int32 or int64 scalar, or a 1-D tensor of one element): element
// j of the output is the sum of elements 0 to j (exclusive=1: 0 to j-1, the
// first being 0), counted from the end of the axis with reverse=1.
//
// Versions: 11 (uint32, uint64, int32, int64, float, double), 14 (float16,
// bfloat16). Sums run in index order in the element's type (integers wrap,
// as onnxruntime's do); float16 and bfloat16 in float32, each output
// rounded. CumProd (cumprod.go) shares this file's node reading and
// engine.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("CumSum", []int{11, 14}, [2]int{2, 2}, [2]int{1, 1}, cumSumOp.node)
	declareAttrs("CumSum",
		AttrSpec{Name: "exclusive", Type: AttrInt},
		AttrSpec{Name: "reverse", Type: AttrInt})
}

var cumSumOp = &cumulativeOp{
	types: versionTypes{11: int3264Types | typesOf(tensor.Float, tensor.Double), 14: int3264Types | floatBFTypes},
}

// cumulativeOp is CumSum or, with product, CumProd (cumprod.go): the node
// reading, the rules and the engine they share, which differ only in the
// operation that combines an element with the running value.
type cumulativeOp struct {
	types   versionTypes
	product bool
}

func (c *cumulativeOp) node(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "x")
	if err != nil {
		return nil, err
	}
	axisT, err := n.requiredInput(in, 1, "axis")
	if err != nil {
		return nil, err
	}
	if axisT.DataType() != tensor.Int32 && axisT.DataType() != tensor.Int64 {
		return nil, op.errorf("axis", "axis must be int32 or int64, got %v", axisT.DataType())
	}
	if axisT.Rank() > 1 || axisT.Len() != 1 {
		return nil, op.errorf("axis", "axis must be a scalar or hold one element, got shape %v", axisT.Shape())
	}
	a, err := int64sOf(axisT)
	if err != nil {
		return nil, op.wrap("axis", err, "axis")
	}
	flags := [2]bool{}
	for i, name := range []string{"exclusive", "reverse"} {
		v, err := n.Int(name, 0)
		if err != nil {
			return nil, err
		}
		if v != 0 && v != 1 {
			return nil, op.errorf(name, "%s is %d, expected 0 or 1", name, v)
		}
		flags[i] = v == 1
	}
	y, err := c.run(opt, op, x, a[0], flags[0], flags[1])
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func (c *cumulativeOp) run(opt *Options, op opRef, x *tensor.Tensor, axis int64, exclusive, reverse bool) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	if !c.types[op.version].has(x.DataType()) {
		return nil, op.errorf("type", "x is %v, which version %d does not accept", x.DataType(), op.version)
	}
	shape := x.Shape()
	r := len(shape)
	k, ok := normalizeAxis(axis, r)
	if !ok {
		return nil, op.errorf("axis", "axis %d is outside [%d, %d] (input rank %d)", axis, -r, r-1, r)
	}
	l := reduce.Layout{Outer: 1, N: shape[k], Inner: 1}
	for i, d := range shape {
		switch {
		case i < k:
			l.Outer *= d
		case i > k:
			l.Inner *= d
		}
	}
	y, err := opt.newOverwritten(op, x.DataType(), shape)
	if err != nil {
		return nil, err
	}
	switch reduceComputeType(x.DataType()) {
	case tensor.Float:
		err = cumulativeAs[float32](opt, op, l, x, y, exclusive, reverse, c.product)
	case tensor.Double:
		err = cumulativeAs[float64](opt, op, l, x, y, exclusive, reverse, c.product)
	case tensor.Int32:
		err = cumulativeAs[int32](opt, op, l, x, y, exclusive, reverse, c.product)
	case tensor.Uint32:
		err = cumulativeAs[uint32](opt, op, l, x, y, exclusive, reverse, c.product)
	case tensor.Int64:
		err = cumulativeAs[int64](opt, op, l, x, y, exclusive, reverse, c.product)
	case tensor.Uint64:
		err = cumulativeAs[uint64](opt, op, l, x, y, exclusive, reverse, c.product)
	}
	if err != nil {
		return nil, err
	}
	return y, nil
}

func cumulativeAs[A reduce.Number](opt *Options, op opRef, l reduce.Layout, x, y *tensor.Tensor, exclusive, reverse, product bool) error {
	xs, err := reduceLoad[A](opt, op, x)
	if err != nil {
		return err
	}
	ys, flush, err := reduceOut[A](opt, op, y)
	if err != nil {
		return err
	}
	run := reduce.RunCumSum[A]
	if product {
		run = reduce.RunCumProd[A]
	}
	if err := run(l, xs, ys, exclusive, reverse, reduceParallel(opt, op)); err != nil {
		return err
	}
	flush()
	return nil
}
