// Package mlpost holds the score post-transforms of the ai.onnx.ml
// classifiers and regressors (post_transform NONE, SOFTMAX, LOGISTIC,
// SOFTMAX_ZERO, PROBIT): TreeEnsemble, TreeEnsembleRegressor,
// TreeEnsembleClassifier, LinearClassifier, LinearRegressor, SVMClassifier
// and SVMRegressor apply them to each row of scores, in float64, before
// rounding once to the output type.
//
// It never allocates and never touches anything but the row it is given.
package mlpost

import "math"

// Transform is a post-transform of a row of scores.
type Transform uint8

// The post-transforms, in TreeEnsemble's numbering (its post_transform
// attribute is this number).
const (
	None Transform = iota
	Softmax
	Logistic
	SoftmaxZero
	Probit
)

// Parse returns the transform of a post_transform string attribute
// ("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT").
func Parse(name string) (Transform, bool) {
	t, ok := map[string]Transform{"NONE": None, "SOFTMAX": Softmax, "LOGISTIC": Logistic,
		"SOFTMAX_ZERO": SoftmaxZero, "PROBIT": Probit}[name]
	return t, ok
}

// Apply transforms a row of scores in place. Softmax subtracts the row's
// maximum first; Logistic is 1/(1+exp(-x)); Probit is sqrt(2)*erfinv(2p-1).
// SoftmaxZero is the ONNX reference implementation's: a score within 1e-7
// of 0 is only scaled by exp(-max), the others are exp(v - max), all are
// divided by their sum, and a row whose sum is 0 becomes 0.5 everywhere.
func (t Transform) Apply(row []float64) {
	switch t {
	case Softmax:
		hi := math.Inf(-1)
		for _, v := range row {
			hi = math.Max(hi, v)
		}
		sum := 0.0
		for i, v := range row {
			row[i] = math.Exp(v - hi)
			sum += row[i]
		}
		for i := range row {
			row[i] /= sum
		}
	case SoftmaxZero:
		hi := math.Inf(-1)
		for _, v := range row {
			hi = math.Max(hi, v)
		}
		scale, sum := math.Exp(-hi), 0.0
		for i, v := range row {
			if v > 1e-7 || v < -1e-7 {
				row[i] = math.Exp(v - hi)
			} else {
				row[i] = v * scale
			}
			sum += row[i]
		}
		if sum == 0 {
			for i := range row {
				row[i] = 0.5
			}
			return
		}
		for i := range row {
			row[i] /= sum
		}
	case Logistic:
		for i, v := range row {
			row[i] = 1 / (1 + math.Exp(-v))
		}
	case Probit:
		for i, v := range row {
			row[i] = math.Sqrt2 * math.Erfinv(2*v-1)
		}
	}
}
