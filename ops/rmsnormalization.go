// RMSNormalization normalizes X over its axes from axis on by their root
// mean square: for each slice of those axes, Y = X / sqrt(mean(X*X) +
// epsilon) * scale, scale broadcast unidirectionally to the normalized
// shape X.shape[axis:]. Y has scale's type.
//
// Versions: 23. Types: T float16, float, double, bfloat16 (X); V the same
// list (scale and Y). Attributes: axis (-1), epsilon (1e-5), stash_type
// (1: the precision of the mean square). The rules, in order: [type] X's
// and scale's types; [axis] axis in [-r, r-1]; [stash_type] a float type
// (1, 10, 11 or 16); [scale] scale broadcasts to X.shape[axis:]. Every
// element is computed in float64 (ops/internal/norm), at least
// stash_type's precision, and rounded once to V.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/norm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("RMSNormalization", []int{23}, [2]int{2, 2}, [2]int{1, 1}, rmsNormalizationNode)
	declareAttrs("RMSNormalization", AttrSpec{Name: "axis", Type: AttrInt}, AttrSpec{Name: "epsilon", Type: AttrFloat},
		AttrSpec{Name: "stash_type", Type: AttrInt})
}

// RMSNormalization returns X normalized by the root mean square of its
// axes from o.Axis on, times scale (ONNX RMSNormalization, version 23).
func RMSNormalization(x, scale *tensor.Tensor, o NormalizationOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"RMSNormalization", 23}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	if x == nil || scale == nil {
		return nil, op.errorf("input", "X and scale are required")
	}
	axis, epsilon := o.axisEpsilon()
	return rmsNormalization(opt, op, nil, x, scale, axis, epsilon, int64(tensor.Float))
}

func rmsNormalizationNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	scale, err := n.requiredInput(in, 1, "scale")
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
	y, err := rmsNormalization(opt, n.op(), n, x, scale, axis, float64(eps), stash)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func rmsNormalization(opt *Options, op opRef, n *Node, x, scale *tensor.Tensor, axis int64, eps float64, stash int64) (*tensor.Tensor, error) {
	if err := normCheckType(op, "X", x.DataType(), floatBFTypes); err != nil {
		return nil, err
	}
	if err := normCheckType(op, "scale", scale.DataType(), floatBFTypes); err != nil {
		return nil, err
	}
	r := x.Rank()
	a, ok := normalizeAxis(axis, r)
	if !ok {
		return nil, op.errorf("axis", "axis %d is outside [%d, %d] (X rank %d)", axis, -r, r-1, r)
	}
	switch tensor.DataType(stash) {
	case tensor.Float, tensor.Float16, tensor.Double, tensor.BFloat16:
	default:
		return nil, op.errorf("stash_type", "stash_type is %d, not a float type (1, 10, 11 or 16)", stash)
	}
	sc, err := normBroadcastParam(opt, op, n, 1, "scale", "scale", scale, x.Shape()[a:])
	if err != nil {
		return nil, err
	}
	return normalizeInto(opt, op, norm.RMS, eps, normLastAxes(x.Shape(), a), x, scale.DataType(), sc, norm.Param{}, norm.Stats{})
}
