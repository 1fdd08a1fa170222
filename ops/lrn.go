// LRN (local response normalization) divides each element of X (N x C x
// D1 ... Dn) by a power of the sum of squares of its neighbours across
// channels: y = x / (bias + alpha / size * square_sum)^beta, square_sum
// over the channels c - floor((size-1)/2) to c + ceil((size-1)/2) that
// exist.
//
// Versions: 1 and 13 (adds bfloat16). Types: float16, float, double (and
// bfloat16 from 13). Attributes: alpha (1e-4), beta (0.75), bias (1.0),
// size (required). The rules, in order: [type] X's type; [rank] X of rank
// 2 or more; [size] present and positive. Every element is computed in
// float64 (ops/internal/norm), the squares added in channel order, the
// power by square roots for beta 0.75, 0.5 and 1 (math.Pow otherwise: the
// reference engine's lrnPow, reference/lrn.go), and rounded once.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/norm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("LRN", []int{1, 13}, [2]int{1, 1}, [2]int{1, 1}, lrnNode)
	declareAttrs("LRN", AttrSpec{Name: "alpha", Type: AttrFloat}, AttrSpec{Name: "beta", Type: AttrFloat},
		AttrSpec{Name: "bias", Type: AttrFloat}, AttrSpec{Name: "size", Type: AttrInt})
}

func lrnNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	var f [3]float32
	for i, a := range []struct {
		name string
		def  float32
	}{{"alpha", 1e-4}, {"beta", 0.75}, {"bias", 1}} {
		if f[i], err = n.Float(a.name, a.def); err != nil {
			return nil, err
		}
	}
	types := floatTypes
	if op.version >= 13 {
		types = floatBFTypes
	}
	if err := normCheckType(op, "X", x.DataType(), types); err != nil {
		return nil, err
	}
	shape := x.Shape()
	if len(shape) < 2 {
		return nil, op.errorf("rank", "X has shape %v: N x C x D1 ... Dn, rank 2 or more", shape)
	}
	if !n.Has("size") {
		return nil, op.errorf("size", "attribute size is required")
	}
	si, err := n.intAttr("size", 0, "size")
	if err != nil {
		return nil, err
	}
	size := int64(si)
	if size < 1 || size > 1<<31 {
		return nil, op.errorf("size", "size is %d, must be positive", size)
	}
	spatial := 1
	for _, d := range shape[2:] {
		spatial *= d
	}
	opt = opt.orDefault()
	y, err := opt.newOverwritten(op, x.DataType(), shape)
	if err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "the sums of squares in float64", norm.LRNScratch(spatial, opt.threads()), 8); err != nil {
		return nil, err
	}
	run := func(xs, ys any) error {
		par := reduceParallel(opt, op)
		if xv, ok := xs.([]float64); ok {
			return norm.LRN(shape[0], shape[1], spatial, int(size), float64(f[0]), float64(f[1]), float64(f[2]), xv, ys.([]float64), par)
		}
		return norm.LRN(shape[0], shape[1], spatial, int(size), float64(f[0]), float64(f[1]), float64(f[2]), xs.([]float32), ys.([]float32), par)
	}
	xs, err := normLoad(opt, op, x)
	if err != nil {
		return nil, err
	}
	ys, flush, err := normOut(opt, op, y)
	if err != nil {
		return nil, err
	}
	if err := run(xs, ys); err != nil {
		return nil, err
	}
	flush()
	return values(y), nil
}
