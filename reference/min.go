// Min, versions 1, 6, 8, 12, 13. ONNX Operators.md:
//
// "Element-wise minimum of each of the input tensors (with Numpy-style
// broadcasting support). All inputs and outputs must have the same data
// type."
//
// NaN is the minimum of anything (numpy's minimum); min(-0, +0) is -0.

package reference

func init() {
	register("Min", []int{1, 6, 8, 12, 13}, fold(func(acc, x scalar) scalar {
		return arith(acc, x, func(a, b float64) float64 { return min(a, b) },
			func(a, b int64) int64 { return min(a, b) },
			func(a, b uint64) uint64 { return min(a, b) })
	}, nil))
}
