// Mean, versions 1, 6, 8, 13. ONNX Operators.md:
//
// "Element-wise mean of each of the input tensors (with Numpy-style
// broadcasting support). All inputs and outputs must have the same data
// type."

package reference

func init() {
	register("Mean", []int{1, 6, 8, 13}, fold(
		func(acc, x scalar) scalar { return floatOf(acc.f + x.f) },
		func(sum scalar, count int) scalar { return floatOf(sum.f / float64(count)) }))
}
