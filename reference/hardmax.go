// Hardmax (1, 11, 13): "The operator computes the hardmax values for the
// given input: Hardmax(element in input, axis) = 1 if the element is the
// first maximum value along the specified axis, 0 otherwise." A NaN counts
// as the maximum (the first NaN), as numpy's argmax, which the reference
// evaluator uses, has it. (softmaxfamily.go)

package reference

func init() { registerSoftmaxFamily("Hardmax", hardmax[float32], hardmax[float64]) }

func hardmax[A float32 | float64](v []A, _ bool) []A {
	first := 0
	for i, x := range v {
		if v[first] == v[first] && (x != x || x > v[first]) {
			first = i
		}
	}
	out := make([]A, len(v))
	if len(v) > 0 {
		out[first] = 1
	}
	return out
}
