// LinearRegressor (ai.onnx.ml, version 1), after the ONNX-ML
// specification: "Generalized linear regression evaluation. If targets is
// set to 1 (default) then univariate regression is performed. If targets
// is set to M then M sets of coefficients must be passed in as a sequence
// and M results will be output for each input n in N. The coefficients
// array is of length n, and the coefficients for each target are
// contiguous. Intercepts are optional but if provided must match the
// number of targets." post_transform NONE (default), SOFTMAX, LOGISTIC,
// SOFTMAX_ZERO, PROBIT, applied to each row of scores. X [N, C] or [C]
// (T float, double, int64, int32); Y float [N, targets]. Sums in float64 in
// feature order, rounded once.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "LinearRegressor", []int{1}, linearRegressor) }

func linearRegressor(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, rows, c, err := mlInput(op, in)
	if err != nil {
		return nil, err
	}
	targets, err := n.Int("targets", 1)
	if err != nil {
		return nil, err
	}
	if targets < 1 || targets > 1<<31-1 {
		return nil, op.errorf("targets", "targets must be at least 1")
	}
	coef, _, err := n.Floats("coefficients")
	if err != nil {
		return nil, err
	}
	if int64(len(coef)) != targets*int64(c) {
		return nil, op.errorf("coefficients", "targets*C coefficients")
	}
	icpt, _, err := n.Floats("intercepts")
	if err != nil {
		return nil, err
	}
	if len(icpt) != 0 && int64(len(icpt)) != targets {
		return nil, op.errorf("intercepts", "one intercept per target")
	}
	post, err := mlPostTransform(n)
	if err != nil {
		return nil, err
	}
	m := int(targets)
	y, err := newTensor(opt, op, tensor.Float, []int{rows, m})
	if err != nil {
		return nil, err
	}
	for r := range rows {
		s := linearRow(x, r, c, coef, m, icpt)
		postTransform(post, s)
		for j, v := range s {
			data[float32](y)[r*m+j] = float32(v)
		}
	}
	return values(y), nil
}

// mlInput reads X of the linear and SVM operators: [N, C] or [C] (one
// row), float, double, int64 or int32.
func mlInput(op opRef, in []tensor.Value) (x *tensor.Tensor, rows, c int, err error) {
	if x, err = requiredInput(op, in, 0, "X"); err != nil {
		return nil, 0, 0, err
	}
	switch x.DataType() {
	case tensor.Float, tensor.Double, tensor.Int64, tensor.Int32:
	default:
		return nil, 0, 0, op.errorf("type", "X must be float, double, int64 or int32")
	}
	switch x.Rank() {
	case 1:
		return x, 1, x.Shape()[0], nil
	case 2:
		return x, x.Shape()[0], x.Shape()[1], nil
	}
	return nil, 0, 0, op.errorf("rank", "X must be [N, C] or [C]")
}

// mlPostTransform reads post_transform (default NONE).
func mlPostTransform(n *ops.Node) (string, error) {
	post, err := n.Str("post_transform", "NONE")
	if err != nil {
		return "", err
	}
	switch post {
	case "NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT":
		return post, nil
	}
	return "", opOf(n).errorf("post_transform", "post_transform %q", post)
}

// linearRow returns the m scores of row r of X: for target j, the sum over
// the features of x*coef[j*c+f], then plus intercept j (when given).
func linearRow(x *tensor.Tensor, r, c int, coef []float32, m int, icpt []float32) []float64 {
	s := make([]float64, m)
	for j := range m {
		for f := range c {
			s[j] += realOf(elementAt(x, r*c+f)) * float64(coef[j*c+f])
		}
		if len(icpt) > 0 {
			s[j] += float64(icpt[j])
		}
	}
	return s
}
