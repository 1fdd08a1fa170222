// Sum computes the elementwise sum of one or more inputs, added from the
// first to the last.
//
// Versions: 1 (consumed_inputs changes nothing) and 6 take inputs of one
// shape; from 8 the inputs broadcast to each other; 13 adds bfloat16. The
// rules: [type] every input has the first one's type, a float type the
// version allows; [shape] (before 8) every input has the first one's
// shape; [broadcast] (from 8) the shapes broadcast. float16 and bfloat16
// round each partial sum (onnxruntime's pairwise Eigen sums do too).

package ops

var sumOp = &variadicOp{binaryOp: binaryOp{
	name: "Sum", types: versionTypes{1: floatTypes, 6: floatTypes, 8: floatTypes, 13: floatBFTypes},
	kernel: addOp.kernel,
}}

func init() {
	register("Sum", []int{1, 6, 8, 13}, [2]int{1, -1}, [2]int{1, 1}, sumOp.node)
	declareAttrs("Sum", consumedInputs)
}
