// Sign computes the sign of X elementwise: -1, 0 or 1 in X's type.
//
// Versions: 9, and 13, which adds bfloat16. The rule: [type] X's type is
// one the version allows. NaN stays NaN and a zero keeps its sign (numpy's
// and onnxruntime's result).

package ops

var signOp = &unaryOp{
	name: "Sign", types: versionTypes{9: numberTypes, 13: numberBFTypes},
	kernel: fixedUnaries(numberUnaries([8]unaryKernel{
		mapping(signOf[uint8]), mapping(signOf[uint16]), mapping(signOf[uint32]), mapping(signOf[uint64]),
		mapping(signOf[int8]), mapping(signOf[int16]), mapping(signOf[int32]), mapping(signOf[int64]),
	}, mapping(signOf[float32]), mapping(signOf[float64]))),
}

func init() {
	register("Sign", []int{9, 13}, [2]int{1, 1}, [2]int{1, 1}, signOp.node)
	declareAttrs("Sign")
}

func signOf[T number](x T) T {
	switch {
	case x > 0:
		return 1
	case x < 0:
		var one T = 1
		return -one // never reached for unsigned T
	}
	return x
}
