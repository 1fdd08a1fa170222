// MeanVarianceNormalization, versions 9 and 13. ONNX Operators.md: "A
// MeanVarianceNormalization Function: Perform mean variance normalization
// on the input tensor X using formula: (X-EX)/sqrt(E(X-EX)^2)". Its
// function body adds epsilon 1e-9 to the standard deviation: "X_RM =
// ReduceMean<axes>(X) ... STD = Sqrt(Variance); X_variance = Sub(X, X_RM);
// Processed_STD = Add(STD, Epsilon); Y = Div(X_variance, Processed_STD)".
// axes defaults to [0, 2, 3]. The variance is the mean of the squared
// deviations, computed in float64 and rounded once; 13 adds bfloat16.
//
// Rules: [type] X float16, float, double (bfloat16 from 13); [axes] each
// in [-r, r-1], none twice.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("MeanVarianceNormalization", []int{9, 13}, meanVarianceNormalization) }

func meanVarianceNormalization(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	axes64, ok, _ := n.Ints("axes")
	if !ok {
		axes64 = []int64{0, 2, 3}
	}
	if !normFloatType(x.DataType(), n.Version >= 13) {
		return nil, op.errorf("type", "X is %v", x.DataType())
	}
	r := x.Rank()
	reduced := make([]bool, r)
	for _, a64 := range axes64 {
		a, ok := normalizeAxis(int(a64), -r, r)
		if !ok || int64(int(a64)) != a64 || reduced[a] {
			return nil, op.errorf("axes", "axis %d is out of range or repeated", a64)
		}
		reduced[a] = true
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
	y := make([]float64, len(xv))
	stop := newPoll(opt, opOf(n))
	for _, slice := range reductionGroups(x.Shape(), reduced) {
		v := normGather(xv, slice)
		if stop.stop(len(v)) {
			return nil, stop.err
		}
		mean, variance := normMoments(v)
		std := math.Sqrt(variance) + 1e-9
		for j, i := range slice {
			y[i] = (v[j] - mean) / std
		}
	}
	return []tensor.Value{computeTensor(x.DataType(), x.Shape(), y)}, nil
}
