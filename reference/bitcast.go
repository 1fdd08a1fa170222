package reference

// BitCast (version 26): "Reinterprets the binary representation of a tensor
// as a different data type, specified by the 'to' attribute. Unlike Cast,
// BitCast preserves the exact bit pattern without any value conversion."
// "All types except string are supported. Implementations must treat the
// underlying bytes as little endian." onnxshape casts between types of one
// bit width; the bits of each element are read as an unsigned number and
// written back as the target's bits (sub-byte types by their low bits; a
// nonzero byte read as bool is true); complex128, the one 128-bit type,
// only to itself, byte for byte.

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("BitCast", []int{26}, bitCast) }

func bitCast(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	a, ok := n.Attrs["to"]
	if ok && a.Type != ops.AttrInt {
		return nil, op.errorf("attribute", "attribute to is of type %v, expected %v", a.Type, ops.AttrInt)
	}
	if !ok {
		return nil, op.errorf("to", "attribute to is required")
	}
	to := tensor.DataType(a.Int)
	if x.DataType() == tensor.String {
		return nil, op.errorf("type", "BitCast takes no %v", x.DataType())
	}
	if !to.Valid() || to == tensor.String || to.Bits() != x.DataType().Bits() {
		return nil, op.errorf("to", "%v as %v", x.DataType(), to)
	}
	y, err := newTensor(opt, op, to, x.Shape())
	if err != nil {
		return nil, err
	}
	size, bits := to.Size(), to.Bits()
	if bits > 64 { // complex128 as itself
		copy(y.Bytes(), x.Bytes())
		return values(y), nil
	}
	for i := range x.Len() {
		var u uint64 // the element's bits, little-endian
		for k := size - 1; k >= 0; k-- {
			u = u<<8 | uint64(x.Bytes()[i*size+k])
		}
		if bits < 8 {
			u %= 1 << bits
		}
		switch {
		case to == tensor.Bool:
			y.Bytes()[i] = map[bool]byte{true: 1, false: 0}[u != 0]
		case bits < 8:
			putInt(y, i, u) // int4 and int2 sign-extend, the others keep the bits
			if to == tensor.Float4E2M1 {
				y.Bytes()[i] = byte(u)
			}
		default:
			for k := range size {
				y.Bytes()[i*size+k] = byte(u >> (8 * k))
			}
		}
	}
	return values(y), nil
}
