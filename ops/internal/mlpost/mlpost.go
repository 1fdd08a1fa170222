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
// maximum first; SoftmaxZero leaves a zero score zero and spreads the
// rest; Logistic is 1/(1+exp(-x)); Probit is sqrt(2)*erfinv(2p-1).
func (t Transform) Apply(row []float64) {
	switch t {
	case Softmax, SoftmaxZero:
		hi := math.Inf(-1)
		for _, v := range row {
			hi = math.Max(hi, v)
		}
		sum := 0.0
		for i, v := range row {
			if t == SoftmaxZero && v == 0 {
				continue
			}
			row[i] = math.Exp(v - hi)
			sum += row[i]
		}
		for i := range row {
			if t == SoftmaxZero && row[i] == 0 {
				continue
			}
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
