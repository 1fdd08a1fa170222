// BatchNormalization, versions 1, 6, 7, 9, 14, 15. ONNX Operators.md
// (15): "Carries out batch normalization as described in the paper
// https://arxiv.org/abs/1502.03167. ... training_mode=True: running_mean =
// input_mean * momentum + current_mean * (1 - momentum); running_var =
// input_var * momentum + current_var * (1 - momentum); Y = (X -
// current_mean) / sqrt(current_var + epsilon) * scale + B where:
// current_mean = ReduceMean(X, axis=all_except_channel_index); current_var
// = ReduceVar(X, axis=all_except_channel_index). training_mode=False: Y =
// (X - input_mean) / sqrt(input_var + epsilon) * scale + B". X is N x C x
// D1 ... Dn (from 9 also a 1-D X of N elements, C being 1); ReduceVar is
// the population variance.
//
// Training mode: is_test = 0 (its default) in 1 and 6; more than one
// output in 7 and 9; training_mode = 1 in 14 and 15. Before 14 the outputs
// are Y, mean and var (the running statistics), saved_mean and saved_var
// (the batch's mean and variance, as the ONNX reference evaluator gives
// them); from 14, Y, running_mean and running_var, outputs of training
// mode only. spatial (1, 6, 7; default 1) 0 computes per activation: the
// parameters have shape C x D1 ... Dn and the statistics are over N only.
// Types: one T of float16, float, double before 14; 14 adds bfloat16 and a
// type U of input_mean and input_var; 15 a type T1 of scale and B. Y is
// computed in float64 in the order written above, rounded once.
//
// Rules: [type] the inputs' types; [rank] X of rank 1 or more (2 before
// 9); [shape] scale, B, input_mean, input_var of shape [C] (or C x D1 ...
// Dn, or flat, with spatial 0); [outputs] no running statistics outside
// training mode (14, 15).
//
// Under the SONNX profile (batch_normalization.md, "BatchNormalization
// version 15"), checked first: "[R1] Only inference mode is specified"
// (training_mode [C1], "training_mode shall be 0"); "epsilon shall be
// strictly positive" (epsilon [C1]); "X shall have rank rX >= 1" (X [C3]);
// "scale shall be a 1-D tensor of size C = dX_1 (or size 1 when rX = 1)"
// (scale [C1], which B, input_mean and input_var restate); "for all c,
// input_var[c] >= 0" (input_var [C3]; NaN is not >= 0). The ids are
// sonnxrule's BatchNorm* constants.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("BatchNormalization", []int{1, 6, 7, 9, 14, 15}, batchNormalization) }

func batchNormalization(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	names := []string{"X", "scale", "B", "input_mean", "input_var"}
	t := make([]*tensor.Tensor, 5)
	for i, name := range names {
		var err error
		if t[i], err = requiredInput(op, in, i, name); err != nil {
			return nil, err
		}
	}
	x := t[0]
	if err := batchNormSONNX(opt, n, t); err != nil {
		return nil, err
	}
	eps := attrFloat(n, "epsilon", 1e-5)
	momentum := attrFloat(n, "momentum", 0.9)
	outs := max(n.NumOutputs, 1)
	var training bool
	switch {
	case n.Version < 7:
		isTest, _ := n.Int("is_test", 0)
		training = isTest == 0
	case n.Version < 14:
		training = outs > 1
	default:
		mode, _ := n.Int("training_mode", 0)
		training = mode != 0
	}
	spatial := true
	if n.Version < 9 {
		s, _ := n.Int("spatial", 1)
		spatial = s != 0
	}
	if n.Version >= 14 && !training && outs > 1 {
		return nil, op.errorf("outputs", "running statistics outside training mode")
	}
	if n.Version >= 14 && outs > 3 {
		return nil, op.errorf("outputs", "%d outputs, at most 3", outs)
	}
	// [type]: T for all before 14; U for the statistics from 14; T1 for
	// scale and B from 15.
	bf := n.Version >= 14
	if !normFloatType(x.DataType(), bf) {
		return nil, op.errorf("type", "X is %v", x.DataType())
	}
	own := map[int]bool{3: n.Version >= 14, 1: n.Version >= 15} // a type variable of its own
	for i := 1; i < 5; i++ {
		if own[i] {
			if !normFloatType(t[i].DataType(), bf) {
				return nil, op.errorf("type", "%s is %v", names[i], t[i].DataType())
			}
		} else if t[i].DataType() != t[i-1].DataType() {
			return nil, op.errorf("type", "%s is %v, %s %v", names[i], t[i].DataType(), names[i-1], t[i-1].DataType())
		}
	}
	shape := x.Shape()
	if len(shape) < 1 || (n.Version < 9 && len(shape) < 2) {
		return nil, op.errorf("rank", "X has shape %v", shape)
	}
	c := 1
	if len(shape) >= 2 {
		c = shape[1]
	}
	spatialSize := 1
	if len(shape) > 2 {
		spatialSize = numElements(shape[2:])
	}
	params, want := c, []int{c}
	if !spatial {
		params, want = c*spatialSize, shape[1:]
	}
	for i := 1; i < 5; i++ {
		s := t[i].Shape()
		if !tensor.SameShape(s, want) && !tensor.SameShape(s, []int{params}) {
			return nil, op.errorf("shape", "%s has shape %v, expected %v", names[i], s, want)
		}
	}
	if err := checkSize(opt, op, x.DataType(), shape); err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	if err := chargeScratch(opt, op, "float64 copies of the inputs, the results and the output", inputElements(in)+2*x.Len(), 8); err != nil {
		return nil, err
	}
	xv := computeElements[float64](x)
	scale, b := computeElements[float64](t[1]), computeElements[float64](t[2])
	mean, variance := computeElements[float64](t[3]), computeElements[float64](t[4])
	// param is the index of the parameters of element flat of X.
	param := func(flat int) int {
		if spatial {
			return flat / spatialSize % c
		}
		return flat % params
	}
	if training {
		slices := make([][]float64, params)
		stop := newPoll(opt, op)
		for flat, v := range xv { // in row-major order: batch, then the plane
			p := param(flat)
			slices[p] = append(slices[p], v)
			if stop.stop(1) {
				return nil, stop.err
			}
		}
		batchMean, batchVar := make([]float64, params), make([]float64, params)
		for p := range params {
			batchMean[p], batchVar[p] = normMoments(slices[p])
		}
		running := func(in, cur []float64) []float64 {
			out := make([]float64, params)
			for p := range out {
				out[p] = float64(in[p]*momentum) + float64(cur[p]*float64(1-momentum))
			}
			return out
		}
		runMean, runVar := running(mean, batchMean), running(variance, batchVar)
		mean, variance = batchMean, batchVar
		y, err := batchNormY(opt, op, xv, param, scale, b, mean, variance, eps)
		if err != nil {
			return nil, err
		}
		res := []tensor.Value{computeTensor(x.DataType(), shape, y)}
		for _, s := range [][]float64{runMean, runVar, batchMean, batchVar}[:min(outs, 5)-1] {
			res = append(res, computeTensor(t[3].DataType(), t[3].Shape(), s))
		}
		return res, nil
	}
	y, err := batchNormY(opt, op, xv, param, scale, b, mean, variance, eps)
	if err != nil {
		return nil, err
	}
	return []tensor.Value{computeTensor(x.DataType(), shape, y)}, nil
}

// batchNormY is (x - mean) / sqrt(var + epsilon) * scale + B for every
// element, the parameters of element flat at index param(flat).
func batchNormY(opt *ops.Options, op opRef, xv []float64, param func(int) int, scale, b, mean, variance []float64, eps float64) ([]float64, error) {
	y := make([]float64, len(xv))
	stop := newPoll(opt, op)
	for flat, v := range xv {
		p := param(flat)
		y[flat] = float64(float64((v-mean[p])/math.Sqrt(variance[p]+eps))*scale[p]) + b[p]
		if stop.stop(1) {
			return nil, stop.err
		}
	}
	return y, nil
}

// batchNormSONNX checks the SONNX specification's constraints, in its
// order (see the header).
func batchNormSONNX(opt *ops.Options, n *ops.Node, t []*tensor.Tensor) error {
	op := opOf(n)
	if !sonnx(opt) || n.Version < 14 {
		return nil
	}
	if mode, _ := n.Int("training_mode", 0); mode != 0 {
		return op.errorf(sonnxrule.BatchNormTraining, "training_mode is %d, not 0", mode)
	}
	if eps := attrFloat(n, "epsilon", 1e-5); !(eps > 0) {
		return op.errorf(sonnxrule.BatchNormEpsilon, "epsilon is %v, not > 0", eps)
	}
	shape := t[0].Shape()
	if len(shape) < 1 {
		return op.errorf(sonnxrule.BatchNormRank, "X has rank 0")
	}
	c := 1
	if len(shape) >= 2 {
		c = shape[1]
	}
	for i, name := range []string{"scale", "B", "input_mean", "input_var"} {
		if !tensor.SameShape(t[i+1].Shape(), []int{c}) {
			return op.errorf(sonnxrule.BatchNormParams, "%s has shape %v, not [%d]", name, t[i+1].Shape(), c)
		}
	}
	for k := range t[4].Len() {
		if v := elementAt(t[4], k).f; !(v >= 0) {
			return op.errorf(sonnxrule.BatchNormVariance, "input_var[%d] is %v, not >= 0", k, v)
		}
	}
	return nil
}
