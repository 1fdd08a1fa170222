// BitCast reinterprets the bits of every element as the type its attribute
// to names, without converting values: float32 1.0 becomes int32
// 1065353216. The shape stays.
//
// Versions: 26, every type but string (complex64 is 64 bits, read as its
// real then imaginary float32, little-endian; complex128 is 128 bits, only
// itself). onnxshape casts between types of one bit width (the spec's
// "same bit-width"; bool is 8 bits); other widths are refused.
//
// Sub-byte types (held one a byte) reinterpret their low bits: int4 -1 is
// uint4 15. A byte other than 0 and 1 read as bool is true (onnxshape's
// choice: such a byte is no bool).
//
// Rules: [to] a valid type of the input's bit width, not a string (the
// input's own type gives a copy); [type] the input is not a string;
// [size] the output fits the size limit.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("BitCast", []int{26}, [2]int{1, 1}, [2]int{1, 1}, bitCastNode)
	declareAttrs("BitCast", AttrSpec{Name: "to", Type: AttrInt})
}

func bitCastNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	a, ok, err := n.attr("to", AttrInt)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, op.errorf("to", "attribute to is required")
	}
	to := tensor.DataType(a.Int)
	if dt := x.DataType(); dt == tensor.String {
		return nil, op.errorf("type", "BitCast takes no %v", dt)
	}
	if !to.Valid() || to == tensor.String || to.Bits() != x.DataType().Bits() {
		return nil, op.errorf("to", "cannot reinterpret %v (%d bits) as %v", x.DataType(), x.DataType().Bits(), to)
	}
	y, err := opt.newOverwritten(op, to, x.Shape())
	if err != nil {
		return nil, err
	}
	// Across the run's cores when it is large, as onnxruntime's copy is.
	if err := movement.Copy(opt.moves(), y.Bytes(), x.Bytes()); err != nil {
		return nil, op.wrap("cancelled", err, "run stopped")
	}
	b := y.Bytes()
	switch {
	case to == tensor.Bool:
		for i, v := range b {
			b[i] = convert.B2U(v != 0)
		}
	case to.Bits() < 8 && to.IsInteger():
		for i, v := range b {
			b[i] = narrowSubByte(to, int64(v))
		}
	case to.Bits() < 8: // float4e2m1: its low 4 bits
		for i, v := range b {
			b[i] = v & 0x0F
		}
	}
	return values(y), nil
}
