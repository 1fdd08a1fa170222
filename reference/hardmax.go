// Hardmax (1, 11, 13): "The operator computes the hardmax values for the
// given input: Hardmax(element in input, axis) = 1 if the element is the
// first maximum value along the specified axis, 0 otherwise." A NaN counts
// as the maximum (the first NaN), as numpy's argmax, which the reference
// evaluator uses, has it. (softmaxfamily.go)

package reference

import "iter"

func init() { registerSoftmaxFamily("Hardmax", hardmax[float32], hardmax[float64]) }

func hardmax[A float32 | float64](v iter.Seq[A], _ bool) func(int, A) A {
	first, best, i := 0, A(0), 0
	for x := range v {
		if i == 0 || (best == best && (x != x || x > best)) {
			first, best = i, x
		}
		i++
	}
	return func(k int, _ A) A {
		if k == first {
			return 1
		}
		return 0
	}
}
