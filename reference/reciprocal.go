// Reciprocal, versions 1, 6, 13. ONNX Operators.md:
//
// "Reciprocal takes one input data (Tensor) and produces one output data
// (Tensor) where the reciprocal is, y = 1/x, is applied to the tensor
// elementwise."

package reference

func init() {
	register("Reciprocal", []int{1, 6, 13}, floatFunction(func(x float64) float64 { return 1 / x }))
}
