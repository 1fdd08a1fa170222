// BitShift shifts the bits of X by Y elementwise, with broadcasting, on
// unsigned integers; the attribute direction ("LEFT" or "RIGHT", required)
// says which way.
//
// Versions: 11. The rules: [type] X is of an unsigned type and Y of X's;
// [direction] direction is LEFT or RIGHT; [broadcast] the shapes broadcast.
// A shift by the type's width or more, undefined in C, gives 0 (numpy's
// and Go's result; docs/divergences.md).

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

var bitShiftOp = &binaryOp{
	name: "BitShift", types: versionTypes{11: unsignedTypes},
	kernel: bitShiftKernel,
}

func init() {
	register("BitShift", []int{11}, [2]int{2, 2}, [2]int{1, 1}, bitShiftOp.node)
	declareAttrs("BitShift", AttrSpec{Name: "direction", Type: AttrString})
}

var (
	shiftLeft = fixedKernels(integerBinaries([8]binaryKernel{
		binaryFunc(func(a, b uint8) uint8 { return a << b }), binaryFunc(func(a, b uint16) uint16 { return a << b }),
		elementwise.Shift(true, binaryFunc(func(a, b uint32) uint32 { return a << b })), elementwise.Shift(true, binaryFunc(func(a, b uint64) uint64 { return a << b })),
	}))
	shiftRight = fixedKernels(integerBinaries([8]binaryKernel{
		binaryFunc(func(a, b uint8) uint8 { return a >> b }), binaryFunc(func(a, b uint16) uint16 { return a >> b }),
		elementwise.Shift(false, binaryFunc(func(a, b uint32) uint32 { return a >> b })), elementwise.Shift(false, binaryFunc(func(a, b uint64) uint64 { return a >> b })),
	}))
)

func bitShiftKernel(n *Node, dt tensor.DataType) (binaryKernel, error) {
	a, ok := n.Attrs["direction"] // required: no default
	if !ok || a.Type != AttrString {
		return nil, n.op().errorf("direction", "attribute direction (a string) is required")
	}
	switch dir := a.String; dir {
	case "LEFT":
		return shiftLeft(n, dt)
	case "RIGHT":
		return shiftRight(n, dt)
	default:
		return nil, n.op().errorf("direction", "direction is %q; it is LEFT or RIGHT", dir)
	}
}
