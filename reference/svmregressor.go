// SVMRegressor (ai.onnx.ml, version 1), after the ONNX-ML specification:
// "Support Vector Machine regression prediction and one-class SVM anomaly
// detection." coefficients "Support vector coefficients"; kernel_params
// "List of 3 elements containing gamma, coef0, and degree, in that order.
// Zero if unused for the kernel"; kernel_type "The kernel type, one of
// 'LINEAR,' 'POLY,' 'RBF,' 'SIGMOID'"; n_supports "The number of support
// vectors"; one_class "Flag indicating whether the regression is a
// one-class SVM or not"; post_transform "Indicates the transform to apply
// to the score"; rho; support_vectors "Chosen support vectors". Y float
// [N, 1]. The formula follows onnxruntime (ops/svmregressor.go says it):
// sum_v coefficients[v] K(x, sv_v) + rho[0], or x·coefficients + rho[0]
// without support vectors; one_class makes it 1 above 0, else -1; then
// post_transform. Sums in float64, in vector (feature) order.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "SVMRegressor", []int{1}, svmRegressor) }

func svmRegressor(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, rows, f, err := mlInput(op, in)
	if err != nil {
		return nil, err
	}
	kernel, params, err := svmKernelAttrs(n)
	if err != nil {
		return nil, err
	}
	supports, err := n.Int("n_supports", 0)
	if err != nil {
		return nil, err
	}
	if supports < 0 || supports > math.MaxInt32 {
		return nil, op.errorf("n_supports", "n_supports must be a count")
	}
	sv, _, err := n.Floats("support_vectors")
	if err != nil {
		return nil, err
	}
	coef, _, err := n.Floats("coefficients")
	if err != nil {
		return nil, err
	}
	rho, _, err := n.Floats("rho")
	if err != nil {
		return nil, err
	}
	oneClass, err := n.Int("one_class", 0)
	if err != nil {
		return nil, err
	}
	post, err := mlPostTransform(n)
	if err != nil {
		return nil, err
	}
	v := int(supports)
	if v > 0 && int64(len(sv)) != int64(v)*int64(f) {
		return nil, op.errorf("support_vectors", "n_supports*F support vector values")
	}
	if (v > 0 && len(coef) != v) || (v == 0 && len(coef) != f) {
		return nil, op.errorf("coefficients", "one coefficient per support vector (per feature without)")
	}
	if len(rho) < 1 {
		return nil, op.errorf("rho", "rho must hold the intercept")
	}
	if err := checkSize(opt, op, tensor.Float, []int{rows, 1}); err != nil {
		return nil, err
	}
	y, err := newTensor(opt, op, tensor.Float, []int{rows, 1})
	if err != nil {
		return nil, err
	}
	for r := range rows {
		row := make([]float64, f)
		for i := range row {
			row[i] = realOf(elementAt(x, r*f+i))
		}
		s := 0.0
		if v > 0 {
			for j := range v {
				s += float64(coef[j]) * svmKernelValue(kernel, params, row, sv[j*f:(j+1)*f])
			}
		} else {
			for i := range f {
				s += row[i] * float64(coef[i])
			}
		}
		s += float64(rho[0])
		if oneClass != 0 {
			if s > 0 {
				s = 1
			} else {
				s = -1
			}
		}
		out := []float64{s}
		postTransform(post, out)
		data[float32](y)[r] = float32(out[0])
	}
	return values(y), nil
}

// svmKernelAttrs reads kernel_type (default LINEAR) and kernel_params
// (none, all 0, or [gamma, coef0, degree]).
func svmKernelAttrs(n *ops.Node) (string, [3]float64, error) {
	var p [3]float64
	kernel, err := n.Str("kernel_type", "LINEAR")
	if err != nil {
		return "", p, err
	}
	switch kernel {
	case "LINEAR", "POLY", "RBF", "SIGMOID":
	default:
		return "", p, opOf(n).errorf("kernel_type", "kernel_type %q", kernel)
	}
	params, _, err := n.Floats("kernel_params")
	if err != nil {
		return "", p, err
	}
	if len(params) != 0 && len(params) != 3 {
		return "", p, opOf(n).errorf("kernel_params", "kernel_params must be [gamma, coef0, degree]")
	}
	for i, v := range params {
		p[i] = float64(v)
	}
	return kernel, p, nil
}

// svmKernelValue is K(x, s) of the kernel with params [gamma, coef0,
// degree].
func svmKernelValue(kernel string, p [3]float64, x []float64, s []float32) float64 {
	if kernel == "RBF" {
		d2 := 0.0
		for i := range x {
			d := x[i] - float64(s[i])
			d2 += d * d
		}
		return math.Exp(-p[0] * d2)
	}
	dot := 0.0
	for i := range x {
		dot += x[i] * float64(s[i])
	}
	switch kernel {
	case "POLY":
		return math.Pow(p[0]*dot+p[1], p[2])
	case "SIGMOID":
		return math.Tanh(p[0]*dot + p[1])
	}
	return dot
}
