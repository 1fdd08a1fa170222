// LayerNormalization normalizes X over its axes from axis on: for each
// slice of those axes, Y = (X - Mean) * InvStdDev * Scale + B, Mean the
// slice's mean, InvStdDev = 1/sqrt(Var + epsilon) and Var the mean of the
// squared deviations; Scale and the optional B broadcast unidirectionally
// to the normalized shape X.shape[axis:]. The optional outputs Mean and
// InvStdDev have X's shape with 1 from axis on, of type stash_type (1,
// float, or 16, bfloat16).
//
// Versions: 17. Types: T float16, float, double, bfloat16 (X, Scale, B,
// Y); U float or bfloat16 (Mean, InvStdDev). Attributes: axis (-1),
// epsilon (1e-5), stash_type (1). The rules, in order: [type] X's type,
// Scale and B of X's type; [axis] axis in [-r, r-1]; [stash_type] 1 or 16;
// [scale] Scale and B broadcast to X.shape[axis:]. Every element is
// computed in float64 (ops/internal/norm), which is at least stash_type's
// precision, and rounded once to T and U.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/norm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("LayerNormalization", []int{17}, [2]int{2, 3}, [2]int{1, 3}, layerNormalizationNode)
	declareAttrs("LayerNormalization", AttrSpec{Name: "axis", Type: AttrInt}, AttrSpec{Name: "epsilon", Type: AttrFloat},
		AttrSpec{Name: "stash_type", Type: AttrInt})
}

// LayerNormalization returns Y, Mean and InvStdDev of X normalized over its
// axes from axis on (ONNX LayerNormalization, version 17, stash_type 1);
// b may be nil.
func LayerNormalization(x, scale, b *tensor.Tensor, axis int, epsilon float32, opts ...Option) (y, mean, invStdDev *tensor.Tensor, err error) {
	op := opRef{"LayerNormalization", 17}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	if x == nil || scale == nil {
		return nil, nil, nil, op.errorf("input", "X and Scale are required")
	}
	return layerNormalization(opt, op, x, scale, b, int64(axis), float64(epsilon), int64(tensor.Float), true)
}

func layerNormalizationNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	scale, err := n.requiredInput(in, 1, "Scale")
	if err != nil {
		return nil, err
	}
	b, err := n.tensorInput(in, 2)
	if err != nil {
		return nil, err
	}
	axis, err := n.Int("axis", -1)
	if err != nil {
		return nil, err
	}
	eps, err := n.Float("epsilon", 1e-5)
	if err != nil {
		return nil, err
	}
	stash, err := n.Int("stash_type", int64(tensor.Float))
	if err != nil {
		return nil, err
	}
	y, mean, inv, err := layerNormalization(opt, n.op(), x, scale, b, axis, float64(eps), stash, n.NumOutputs > 1)
	if err != nil {
		return nil, err
	}
	switch {
	case n.NumOutputs >= 3:
		return values(y, mean, inv), nil
	case n.NumOutputs == 2:
		return values(y, mean), nil
	}
	return values(y), nil
}

// layerNormalizationShape checks the node and returns the normalized axis
// and the shape of Mean and InvStdDev.
func layerNormalizationShape(op opRef, x, scale, b *tensor.Tensor, axis, stash int64) (int, []int, error) {
	if err := normCheckType(op, "X", x.DataType(), floatBFTypes); err != nil {
		return 0, nil, err
	}
	if err := normSameType(op, "Scale", scale, x.DataType()); err != nil {
		return 0, nil, err
	}
	if err := normSameType(op, "B", b, x.DataType()); err != nil {
		return 0, nil, err
	}
	r := x.Rank()
	a, ok := normalizeAxis(axis, r)
	if !ok {
		return 0, nil, op.errorf("axis", "axis %d is outside [%d, %d] (X rank %d)", axis, -r, r-1, r)
	}
	if stash != int64(tensor.Float) && stash != int64(tensor.BFloat16) {
		return 0, nil, op.errorf("stash_type", "stash_type is %d: Mean and InvStdDev are float (1) or bfloat16 (16)", stash)
	}
	stats := append([]int(nil), x.Shape()...)
	for i := a; i < r; i++ {
		stats[i] = 1
	}
	return a, stats, nil
}

func layerNormalization(opt *Options, op opRef, x, scale, b *tensor.Tensor, axis int64, eps float64, stash int64, stats bool) (y, mean, inv *tensor.Tensor, err error) {
	a, statShape, err := layerNormalizationShape(op, x, scale, b, axis, stash)
	if err != nil {
		return nil, nil, nil, err
	}
	nshape := x.Shape()[a:]
	sc, err := normBroadcastParam(opt, op, "scale", "Scale", scale, nshape)
	if err != nil {
		return nil, nil, nil, err
	}
	bias, err := normBroadcastParam(opt, op, "scale", "B", b, nshape)
	if err != nil {
		return nil, nil, nil, err
	}
	l := normLastAxes(x.Shape(), a)
	var means, invs []float64
	if stats {
		if err := opt.orDefault().scratch(op, "Mean and InvStdDev in float64", 2*l.Slices, 8); err != nil {
			return nil, nil, nil, err
		}
		means, invs = make([]float64, l.Slices), make([]float64, l.Slices)
	}
	y, err = normalizeInto(opt, op, norm.StdDev, eps, l, x, x.DataType(), sc, bias, norm.Stats{Means: means, Factors: invs})
	if err != nil || !stats {
		return y, nil, nil, err
	}
	u := tensor.DataType(stash)
	if mean, err = normStatsTensor(opt, op, u, statShape, means); err != nil {
		return nil, nil, nil, err
	}
	if inv, err = normStatsTensor(opt, op, u, statShape, invs); err != nil {
		return nil, nil, nil, err
	}
	return y, mean, inv, nil
}
