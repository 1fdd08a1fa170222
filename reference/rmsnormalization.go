// RMSNormalization, version 23. ONNX Operators.md: "This is RMS
// normalization defined in ONNX as function as described in the paper
// https://arxiv.org/pdf/1910.07467. The overall computation can be split
// into two stages. The root mean squared norm is taken over the last D
// dimensions, where D is the dimension of normalized_shape. ... XSquared =
// Mul(X, X); XSquaredMean = ReduceMean<axes=normalized_axes>(XSquared);
// MeanSquareEpsilon = Add(XSquaredMean, epsilon); RMS =
// Sqrt(MeanSquareEpsilon); Normalized = Div(X, RMS). The second stage then
// scales the outcome of the first stage using: Y = Mul(Normalized, Scale)".
// The division by RMS is computed as a product with its reciprocal, as
// LayerNormalization's InvStdDev, in float64; Y has scale's type (V).
//
// Rules: [type] X and scale float16, float, double or bfloat16; [axis] in
// [-r, r-1]; [stash_type] a float type (1, 10, 11, 16); [scale] scale
// broadcasts to X.shape[axis:].

package reference

import (
	"math"
	"slices"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("RMSNormalization", []int{23}, rmsNormalization) }

func rmsNormalization(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	scale, err := requiredInput(op, in, 1, "scale")
	if err != nil {
		return nil, err
	}
	a64, _ := n.Int("axis", -1)
	eps32, _ := n.Float("epsilon", 1e-5)
	stash, _ := n.Int("stash_type", 1)
	if !normFloatType(x.DataType(), true) || !normFloatType(scale.DataType(), true) {
		return nil, op.errorf("type", "X is %v, scale %v", x.DataType(), scale.DataType())
	}
	r := x.Rank()
	axis, ok := normalizeAxis(int(a64), -r, r)
	if !ok || int64(int(a64)) != a64 {
		return nil, op.errorf("axis", "axis %d is outside [%d, %d]", a64, -r, r-1)
	}
	if !normFloatType(tensor.DataType(stash), true) {
		return nil, op.errorf("stash_type", "stash_type %d is not a float type", stash)
	}
	normShape := x.Shape()[axis:]
	if !broadcastsTo(scale.Shape(), normShape) {
		return nil, op.errorf("scale", "shape %v does not broadcast to %v", scale.Shape(), normShape)
	}
	if err := checkSize(opt, op, scale.DataType(), x.Shape()); err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	if err := chargeScratch(opt, op, "float64 copies of the inputs, the results and the output", inputElements(in)+2*x.Len(), 8); err != nil {
		return nil, err
	}
	xv := computeElements[float64](x)
	sv := computeElements[float64](scale)
	cols := numElements(normShape)
	y := make([]float64, len(xv))
	stop := newPoll(opt, opOf(n))
	for row := range numElements(x.Shape()[:axis]) {
		v := xv[row*cols : (row+1)*cols]
		if stop.stop(len(v)) {
			return nil, stop.err
		}
		meanSquare := sumLanesOf(slices.Values(v), func(x float64) float64 { return float64(x * x) }) / float64(cols)
		inv := 1 / math.Sqrt(meanSquare+float64(eps32))
		idx := make([]int, len(normShape))
		for j := range cols {
			e := float64(v[j] * inv)
			y[row*cols+j] = float64(e * sv[broadcastIndex(idx, normShape, scale.Shape())])
			nextIndex(idx, normShape)
		}
	}
	return []tensor.Value{computeTensor(scale.DataType(), x.Shape(), y)}, nil
}
