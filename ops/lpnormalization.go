// LpNormalization divides each slice of X along axis by its Lp norm: the
// sum of |x| for p 1, the square root of the sum of x*x for p 2. A slice
// whose norm is 0 gives 0, not 0/0, as the ONNX node tests expect.
//
// Versions: 1 and 22 (adds bfloat16). Types: float16, float, double (and
// bfloat16 from 22). Attributes: axis (-1), p (2). The rules, in order:
// [type] X's type; [axis] axis in [-r, r-1]; [p] 1 or 2. Every element is
// computed in float64 (ops/internal/norm) and rounded once.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/norm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("LpNormalization", []int{1, 22}, [2]int{1, 1}, [2]int{1, 1}, lpNormalizationNode)
	declareAttrs("LpNormalization", AttrSpec{Name: "axis", Type: AttrInt}, AttrSpec{Name: "p", Type: AttrInt})
}

func lpNormalizationNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	axis, err := n.Int("axis", -1)
	if err != nil {
		return nil, err
	}
	p, err := n.Int("p", 2)
	if err != nil {
		return nil, err
	}
	types := floatTypes
	if op.version >= 22 {
		types = floatBFTypes
	}
	if err := normCheckType(op, "input", x.DataType(), types); err != nil {
		return nil, err
	}
	shape := x.Shape()
	r := len(shape)
	a, ok := normalizeAxis(axis, r)
	if !ok {
		return nil, op.errorf("axis", "axis %d is outside [%d, %d] (input rank %d)", axis, -r, r-1, r)
	}
	if p != 1 && p != 2 {
		return nil, op.errorf("p", "p is %d; the operator takes 1 or 2", p)
	}
	outer, inner := 1, 1
	for i, d := range shape {
		switch {
		case i < a:
			outer *= d
		case i > a:
			inner *= d
		}
	}
	nAxis := shape[a]
	l := norm.Layout{Slices: outer * inner, N: nAxis}
	if inner > 1 {
		l.Start = func(s int) int { return s/inner*nAxis*inner + s%inner }
		l.Step = inner
	}
	opt = opt.orDefault()
	y, err := opt.newOverwritten(op, x.DataType(), shape)
	if err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "the slices in float64", norm.Scratch(l, opt.threads()), 8); err != nil {
		return nil, err
	}
	if x.DataType() == tensor.Double {
		err = lpNormalizeAs[float64](opt, op, int(p), l, x, y)
	} else {
		err = lpNormalizeAs[float32](opt, op, int(p), l, x, y)
	}
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func lpNormalizeAs[A float32 | float64](opt *Options, op opRef, p int, l norm.Layout, x, y *tensor.Tensor) error {
	xs, err := reduceLoad[A](opt, op, x)
	if err != nil {
		return err
	}
	ys, flush, err := reduceOut[A](opt, op, y)
	if err != nil {
		return err
	}
	if err := norm.LpNormalize(p, l, xs, ys, reduceParallel(opt, op)); err != nil {
		return err
	}
	flush()
	return nil
}
