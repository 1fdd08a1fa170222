// LayerNormalization, version 17. ONNX Operators.md: "This is layer
// normalization defined in ONNX as function. The overall computation can
// be split into two stages. The first stage is standardization, which
// makes the normalized elements have zero mean and unit variances. ...
// Mean = ReduceMean<axes=normalized_axes>(X); D = Sub(X, Mean); DD =
// Mul(D, D); Var = ReduceMean<axes=normalized_axes>(DD); VarEps = Add(Var,
// epsilon); StdDev = Sqrt(VarEps); InvStdDev = Reciprocal(StdDev);
// Normalized = Mul(D, InvStdDev). The second stage then scales and shifts
// the outcome of the first stage using NormalizedScaled = Mul(Normalized,
// Scale); Y = Add(NormalizedScaled, B)." The normalized axes are axis
// (default -1) and those after it; Scale and B broadcast to them; Mean and
// InvStdDev have X's shape with 1 from axis on, of type stash_type (1 or
// 16, the U of float and bfloat16). Computed in float64, rounded once.
//
// Rules: [type] X float16, float, double or bfloat16, Scale and B of X's
// type; [axis] in [-r, r-1]; [stash_type] 1 or 16; [scale] Scale and B
// broadcast to X.shape[axis:].

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("LayerNormalization", []int{17}, layerNormalization) }

func layerNormalization(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	scale, err := requiredInput(op, in, 1, "Scale")
	if err != nil {
		return nil, err
	}
	b, err := optionalInput(op, in, 2)
	if err != nil {
		return nil, err
	}
	a64, _ := n.Int("axis", -1)
	eps32, _ := n.Float("epsilon", 1e-5)
	stash, _ := n.Int("stash_type", 1)
	if !normFloatType(x.DataType(), true) {
		return nil, op.errorf("type", "X is %v", x.DataType())
	}
	if scale.DataType() != x.DataType() || (b != nil && b.DataType() != x.DataType()) {
		return nil, op.errorf("type", "Scale and B must be of X's type %v", x.DataType())
	}
	r := x.Rank()
	axis, ok := normalizeAxis(int(a64), -r, r)
	if !ok || int64(int(a64)) != a64 {
		return nil, op.errorf("axis", "axis %d is outside [%d, %d]", a64, -r, r-1)
	}
	if stash != 1 && stash != 16 {
		return nil, op.errorf("stash_type", "stash_type %d is neither 1 nor 16", stash)
	}
	normShape := x.Shape()[axis:]
	for _, p := range []*tensor.Tensor{scale, b} {
		if p != nil && !broadcastsTo(p.Shape(), normShape) {
			return nil, op.errorf("scale", "shape %v does not broadcast to %v", p.Shape(), normShape)
		}
	}
	if err := checkSize(opt, op, x.DataType(), x.Shape()); err != nil {
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
	var bv []float64
	if b != nil {
		bv = computeElements[float64](b)
	}
	cols := numElements(normShape)
	rows := numElements(x.Shape()[:axis])
	y := make([]float64, len(xv))
	means, invs := make([]float64, rows), make([]float64, rows)
	stop := newPoll(opt, opOf(n))
	for row := range rows {
		v := xv[row*cols : (row+1)*cols]
		if stop.stop(len(v)) {
			return nil, stop.err
		}
		mean, variance := normMoments(v)
		inv := 1 / math.Sqrt(variance+float64(eps32))
		means[row], invs[row] = mean, inv
		idx := make([]int, len(normShape))
		for j := range cols {
			d := v[j] - mean
			e := float64(d * inv)
			e = float64(e * sv[broadcastIndex(idx, normShape, scale.Shape())])
			if bv != nil {
				e += bv[broadcastIndex(idx, normShape, b.Shape())]
			}
			y[row*cols+j] = e
			nextIndex(idx, normShape)
		}
	}
	statShape := append([]int(nil), x.Shape()...)
	for i := axis; i < r; i++ {
		statShape[i] = 1
	}
	u := tensor.DataType(stash)
	outs := []tensor.Value{computeTensor(x.DataType(), x.Shape(), y), computeTensor(u, statShape, means), computeTensor(u, statShape, invs)}
	return outs[:min(max(n.NumOutputs, 1), 3)], nil
}

// broadcastsTo reports whether shape p broadcasts unidirectionally to s.
func broadcastsTo(p, s []int) bool {
	if len(p) > len(s) {
		return false
	}
	off := len(s) - len(p)
	for i, d := range p {
		if d != 1 && d != s[off+i] {
			return false
		}
	}
	return true
}

// broadcastIndex is the flat index, in a tensor of shape p broadcast to
// shape s, of the element at multi-index idx of s.
func broadcastIndex(idx, s, p []int) int {
	off := len(s) - len(p)
	k := 0
	for i, d := range p {
		k *= d
		if d != 1 {
			k += idx[off+i]
		}
	}
	return k
}
