// Round, versions 11, 22. ONNX Operators.md:
//
// "Round takes one input Tensor and rounds the values, element-wise,
// meaning it finds the nearest integer for each value. In case of halves,
// the rule is to round them to the nearest even integer. If input x is
// integral, +0, -0, NaN, or infinite, x itself is returned. The output
// tensor has the same shape and type as the input. Examples: ```
// round([0.9]) = [1.0] round([2.5]) = [2.0] round([2.3]) = [2.0"

package reference

import "math"

func init() {
	register("Round", []int{11, 22}, floatFunction(math.RoundToEven))
}
