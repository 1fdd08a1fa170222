// Add, versions 1, 6, 7, 13, 14. ONNX Operators.md:
//
// "Performs element-wise binary addition (with Numpy-style broadcasting
// support)."

package reference

func init() {
	register("Add", []int{1, 6, 7, 13, 14}, binaryKernel(7, false, func(_ call, a, b scalar) scalar {
		return arith(a, b,
			func(x, y float64) float64 { return x + y },
			func(x, y int64) int64 { return x + y },
			func(x, y uint64) uint64 { return x + y })
	}))
}
