// BatchNormalization normalizes each channel of X (N x C x D1 ... Dn; a
// 1-D X of N elements is one channel): Y = (X - mean) / sqrt(var +
// epsilon) * scale + B. In inference mode mean and var are the inputs
// input_mean and input_var; in training mode they are the batch's own,
// over N and the spatial axes (var the population variance), and the
// running statistics come out updated with momentum: running_mean =
// input_mean * momentum + mean * (1 - momentum), likewise running_var.
//
// Versions and how each selects training mode:
//   - 1 and 6: is_test (0 by default: training); outputs Y, mean, var,
//     saved_mean, saved_var; spatial (1: per channel; 0: per activation,
//     scale and the others of shape C x D1 ... Dn); 1 also consumed_inputs,
//     which changes nothing.
//   - 7: no is_test: training when more than Y is asked for; spatial.
//   - 9: as 7 without spatial (always per channel).
//   - 14 and 15: training_mode (0); outputs Y, running_mean, running_var
//     (training mode only).
//
// Before 14 the mean and var outputs are the running statistics and
// saved_mean and saved_var the batch's mean and variance (as the ONNX
// reference evaluator gives them).
//
// Types: float16, float, double, one type for every input, up to 9; from
// 14 also bfloat16 and mean and var (U) of their own type; from 15 scale
// and B (T1) of their own type too. The rules, in order: [type] the
// inputs' types; [rank] X of rank 1 or more (2 before 9); [shape] scale,
// B, input_mean and input_var of shape [C] (C x D1 ... Dn with spatial 0);
// [outputs] no running statistics outside training mode.
//
// The inference kernel is one affine map per channel, y = x*a + b with a =
// scale/sqrt(var+epsilon) and b = B - mean*a in float64, rounded once to
// Y's type; it differs from the reference engine's spec-order arithmetic
// by at most the bound reference.Agree states. Training computes the
// batch statistics over each channel's planes (ops/internal/norm) in
// float64.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/norm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("BatchNormalization", []int{1, 6, 7, 9, 14, 15}, [2]int{5, 5}, [2]int{1, 5}, batchNormalizationNode)
	declareAttrs("BatchNormalization", AttrSpec{Name: "epsilon", Type: AttrFloat}, AttrSpec{Name: "momentum", Type: AttrFloat},
		AttrSpec{Name: "is_test", Type: AttrInt, Before: 7}, AttrSpec{Name: "spatial", Type: AttrInt, Before: 9},
		AttrSpec{Name: "training_mode", Type: AttrInt, From: 14}, consumedInputs)
}

// BatchNormalizationOptions are BatchNormalization's attributes in
// inference mode.
type BatchNormalizationOptions struct {
	// Epsilon is added to the variance; nil means 1e-5, the ONNX default.
	Epsilon *float32
}

// BatchNormalization returns X normalized per channel with the given
// statistics (ONNX BatchNormalization, version 15, inference mode).
func BatchNormalization(x, scale, b, mean, variance *tensor.Tensor, o BatchNormalizationOptions, opts ...Option) (*tensor.Tensor, error) {
	epsilon := float32(1e-5)
	if o.Epsilon != nil {
		epsilon = *o.Epsilon
	}
	op := opRef{"BatchNormalization", 15}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	out, err := batchNormalization(opt, op, nil, []*tensor.Tensor{x, scale, b, mean, variance}, bnAttrs{eps: float64(epsilon), momentum: 0.9, spatial: true}, 1)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

type bnAttrs struct {
	eps, momentum float64
	spatial       bool
	training      bool
}

func batchNormalizationNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	t := make([]*tensor.Tensor, 5)
	for i, name := range []string{"X", "scale", "B", "input_mean", "input_var"} {
		var err error
		if t[i], err = n.requiredInput(in, i, name); err != nil {
			return nil, err
		}
	}
	if err := batchNormSONNX(opt, n, t); err != nil {
		return nil, err
	}
	eps, err := n.Float("epsilon", 1e-5)
	if err != nil {
		return nil, err
	}
	momentum, err := n.Float("momentum", 0.9)
	if err != nil {
		return nil, err
	}
	a := bnAttrs{eps: float64(eps), momentum: float64(momentum), spatial: true}
	outs := max(n.NumOutputs, 1)
	switch {
	case op.version < 7:
		isTest, err := n.Int("is_test", 0)
		if err != nil {
			return nil, err
		}
		a.training = isTest == 0
	case op.version < 14:
		a.training = outs > 1
	default:
		mode, err := n.Int("training_mode", 0)
		if err != nil {
			return nil, err
		}
		a.training = mode != 0
	}
	if op.version < 9 {
		spatial, err := n.Int("spatial", 1)
		if err != nil {
			return nil, err
		}
		a.spatial = spatial != 0
	}
	if op.version >= 14 && !a.training && outs > 1 {
		return nil, op.errorf("outputs", "running_mean and running_var are outputs of training mode only (training_mode is 0)")
	}
	if op.version >= 14 && outs > 3 {
		return nil, op.errorf("outputs", "%d outputs: version %d has Y, running_mean and running_var", outs, op.version)
	}
	out, err := batchNormalization(opt, op, n, t, a, outs)
	if err != nil {
		return nil, err
	}
	return values(out...), nil
}

// batchNormalizationCheck checks the inputs and returns C, the number of
// elements a parameter holds and the size of a plane of one channel.
func batchNormalizationCheck(op opRef, t []*tensor.Tensor, a bnAttrs) (params, plane int, err error) {
	x := t[0]
	types := floatTypes
	if op.version >= 14 {
		types = floatBFTypes
	}
	if err := normCheckType(op, "X", x.DataType(), types); err != nil {
		return 0, 0, err
	}
	names := []string{"X", "scale", "B", "input_mean", "input_var"}
	// Each input's type is its own (a new type variable) or that of an
	// input before it: before 14 all are T; 14 gives mean and var U; 15
	// gives scale and B T1.
	sameAs := []int{-1, 0, 1, 2, 3}
	if op.version >= 14 {
		sameAs[3] = -1
	}
	if op.version >= 15 {
		sameAs[1] = -1
	}
	for i := 1; i < 5; i++ {
		if sameAs[i] < 0 {
			if err := normCheckType(op, names[i], t[i].DataType(), types); err != nil {
				return 0, 0, err
			}
			continue
		}
		if j := sameAs[i]; t[i].DataType() != t[j].DataType() {
			return 0, 0, op.errorf("type", "%s is %v, but %s is %v (one type)", names[i], t[i].DataType(), names[j], t[j].DataType())
		}
	}
	shape := x.Shape()
	if len(shape) < 1 || (op.version < 9 && len(shape) < 2) {
		return 0, 0, op.errorf("rank", "X has shape %v: N x C x D1 ... Dn", shape)
	}
	c, plane := 1, 1
	if len(shape) >= 2 {
		c = shape[1]
		for _, d := range shape[2:] {
			plane *= d
		}
	}
	params = c
	want := []int{c}
	if !a.spatial {
		params = c * plane
		want = shape[1:]
	}
	for i := 1; i < 5; i++ {
		s := t[i].Shape()
		if !tensor.SameShape(s, want) && !(len(s) == 1 && s[0] == params) {
			return 0, 0, op.errorf("shape", "%s has shape %v, expected %v", names[i], s, want)
		}
	}
	return params, plane, nil
}

func batchNormalization(opt *Options, op opRef, n *Node, t []*tensor.Tensor, a bnAttrs, outs int) ([]*tensor.Tensor, error) {
	for i, x := range t {
		if x == nil {
			return nil, op.errorf("input", "required input #%d is missing", i)
		}
	}
	params, plane, err := batchNormalizationCheck(op, t, a)
	if err != nil {
		return nil, err
	}
	var p [4][]float64
	for i, name := range []string{"scale", "B", "input_mean", "input_var"} {
		if p[i], err = normParam64s(opt, op, n, i+1, name, t[i+1]); err != nil {
			return nil, err
		}
	}
	x := t[0]
	if !a.training {
		y, err := batchNormInference(opt, op, x, a, plane, p)
		if err != nil {
			return nil, err
		}
		return []*tensor.Tensor{y}, nil
	}
	// Training: the statistics of each parameter's slice over the batch
	// (and, per channel, the planes), Y from them.
	batch := x.Shape()[0]
	l := norm.Layout{Slices: params, N: batch}
	if a.spatial {
		l.N = batch * plane
		stride := params * plane
		offs := make([]int, 0)
		if err := opt.orDefault().scratch(op, "the offsets of a channel", l.N, 8); err != nil {
			return nil, err
		}
		for n := range batch {
			for k := range plane {
				offs = append(offs, n*stride+k)
			}
		}
		l.Start = func(s int) int { return s * plane }
		l.Offsets = offs
	} else {
		l.Start = func(s int) int { return s }
		l.Step = params
	}
	if err := opt.orDefault().scratch(op, "the batch statistics", 2*params, 8); err != nil {
		return nil, err
	}
	st := norm.Stats{Means: make([]float64, params), Variances: make([]float64, params)}
	y, err := normalizeInto(opt, op, norm.StdDev, a.eps, l, x, x.DataType(),
		norm.Param{V: p[0], Mod: params, Div: max(l.N, 1)}, norm.Param{V: p[1], Mod: params, Div: max(l.N, 1)}, st)
	if err != nil {
		return nil, err
	}
	res := []*tensor.Tensor{y}
	statType, statShape := t[3].DataType(), t[3].Shape()
	running := func(in []float64, batchStat []float64) []float64 {
		out := make([]float64, len(in))
		for i := range in {
			out[i] = float64(in[i]*a.momentum) + float64(batchStat[i]*float64(1-a.momentum))
		}
		return out
	}
	stats := [][]float64{running(p[2], st.Means), running(p[3], st.Variances), st.Means, st.Variances}
	for i := 1; i < outs && i < 5; i++ {
		s, err := normStatsTensor(opt, op, statType, statShape, stats[i-1])
		if err != nil {
			return nil, err
		}
		res = append(res, s)
	}
	return res, nil
}

// batchNormInference is Y = X*a + b per channel (per activation with
// spatial 0), a = scale/sqrt(var+eps), b = B - mean*a.
func batchNormInference(opt *Options, op opRef, x *tensor.Tensor, a bnAttrs, plane int, p [4][]float64) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	k := len(p[0])
	if err := opt.scratch(op, "the per-channel affine map", 2*k, 8); err != nil {
		return nil, err
	}
	mul, add := make([]float64, k), make([]float64, k)
	for c := range k {
		mul[c] = p[0][c] / math.Sqrt(p[3][c]+a.eps)
		add[c] = p[1][c] - float64(p[2][c]*mul[c])
	}
	block := plane
	if !a.spatial {
		block = 1
	}
	y, err := opt.newOverwritten(op, x.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	xs, err := normLoad(opt, op, x)
	if err != nil {
		return nil, err
	}
	ys, flush, err := normOut(opt, op, y)
	if err != nil {
		return nil, err
	}
	par := reduceParallel(opt, op)
	if xv, ok := xs.([]float64); ok {
		err = norm.Affine(xv, ys.([]float64), block, mul, add, par)
	} else {
		err = norm.Affine(xs.([]float32), ys.([]float32), block, mul, add, par)
	}
	if err != nil {
		return nil, err
	}
	flush()
	return y, nil
}
