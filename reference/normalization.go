package reference

// What the normalization operators' reference kernels share: the mean and
// variance of a slice, written as LayerNormalization's definition writes
// them (ReduceMean of X, then ReduceMean of the squared deviations), in
// float64 whatever the tensor's type, sums in the order of sumlanes.go; a
// float type check; and a slice's elements.

import (
	"slices"

	"github.com/onnxshape/onnxshape/tensor"
)

// normMoments is the mean of v and the mean of its squared deviations.
func normMoments(v []float64) (mean, variance float64) {
	n := float64(len(v))
	mean = sumLanes(slices.Values(v)) / n
	variance = sumLanesOf(slices.Values(v), func(x float64) float64 {
		d := x - mean
		return float64(d * d)
	}) / n
	return mean, variance
}

// normFloatType reports whether dt is float16, float or double, or
// bfloat16 where withBF.
func normFloatType(dt tensor.DataType, withBF bool) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.BFloat16:
		return withBF
	}
	return false
}

// normGather returns the elements of v at the indices idx, in order.
func normGather(v []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for j, i := range idx {
		out[j] = v[i]
	}
	return out
}
