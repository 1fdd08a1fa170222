// Xor computes the logical A xor B elementwise, with broadcasting, on bool
// tensors.
//
// Versions: 1 broadcasts B to A by the legacy rule (attributes broadcast
// and axis); 7 broadcasts both ways. The rules: [type] both inputs are
// bool; [broadcast] the shapes broadcast.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

var xorOp = &binaryOp{
	name: "Xor", types: versionTypes{1: boolTypes, 7: boolTypes},
	legacyBefore: 7, boolOut: true,
	kernel: fixedKernels(map[tensor.DataType]binaryKernel{tensor.Bool: elementwise.BoolXor}),
}

func init() {
	register("Xor", []int{1, 7}, [2]int{2, 2}, [2]int{1, 1}, xorOp.node)
	declareAttrs("Xor", legacyBroadcastAttrs(7)...)
}
