package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

// The scatter operators' shared write: ScatterElements, ScatterND and
// Scatter put updates into a copy of data, replacing (reduction none: in
// order, so that of two updates of one element the last wins, as the
// reference evaluator) or combining with add, mul, max or min, as numpy's
// np.add, np.multiply, np.maximum and np.minimum do: integers wrap, NaN
// propagates through max and min, bool adds as or and multiplies as and,
// float16, bfloat16 and the float 8 types compute in float32 and round to
// their type after every update.

// reduction is a scatter's reduction attribute.
type reduction string

// reductionAttr reads attribute reduction where version since has it:
// add and mul from 16, max and min from 18.
func reductionAttr(n *Node) (reduction, error) {
	if n.Version < 16 {
		return "none", nil
	}
	r, err := n.Str("reduction", "none")
	if err != nil {
		return "", err
	}
	switch {
	case r == "none" || r == "add" || r == "mul":
	case (r == "max" || r == "min") && n.Version >= 18:
	default:
		return "", n.op().errorf("reduction", "reduction %q is not one of version %d's", r, n.Version)
	}
	return reduction(r), nil
}

// scatterBlocks sets y[at[i]+k] (op)= src[i*block+k] for every i in order
// and k < block. y is a copy of data; at holds element offsets.
func scatterBlocks(op opRef, y *tensor.Tensor, at []int64, src *tensor.Tensor, block int, red reduction) error {
	if red == "none" {
		if y.DataType() == tensor.String {
			d, s := y.Strings(), src.Strings()
			for i, a := range at {
				copy(d[a:int(a)+block], s[i*block:(i+1)*block])
			}
			return nil
		}
		size := y.DataType().Size()
		d, s := y.Bytes(), src.Bytes()
		for i, a := range at {
			copy(d[int(a)*size:(int(a)+block)*size], s[i*block*size:(i+1)*block*size])
		}
		return nil
	}
	b, s := y.Bytes(), src.Bytes()
	switch dt := y.DataType(); dt {
	case tensor.Float:
		combineBlocks(asElems[float32](b), at, asElems[float32](s), block, floatCombine[float32](red))
	case tensor.Double:
		combineBlocks(asElems[float64](b), at, asElems[float64](s), block, floatCombine[float64](red))
	case tensor.Int8:
		combineBlocks(asElems[int8](b), at, asElems[int8](s), block, intCombine[int8](red))
	case tensor.Uint8:
		combineBlocks(b, at, s, block, intCombine[uint8](red))
	case tensor.Int16:
		combineBlocks(asElems[int16](b), at, asElems[int16](s), block, intCombine[int16](red))
	case tensor.Uint16:
		combineBlocks(asElems[uint16](b), at, asElems[uint16](s), block, intCombine[uint16](red))
	case tensor.Int32:
		combineBlocks(asElems[int32](b), at, asElems[int32](s), block, intCombine[int32](red))
	case tensor.Uint32:
		combineBlocks(asElems[uint32](b), at, asElems[uint32](s), block, intCombine[uint32](red))
	case tensor.Int64:
		combineBlocks(asElems[int64](b), at, asElems[int64](s), block, intCombine[int64](red))
	case tensor.Uint64:
		combineBlocks(asElems[uint64](b), at, asElems[uint64](s), block, intCombine[uint64](red))
	case tensor.Bool:
		and := red == "mul" || red == "min"
		combineBlocks(b, at, s, block, func(x, u byte) byte {
			if and {
				return x & u
			}
			return x | u
		})
	case tensor.String, tensor.Complex64, tensor.Complex128:
		return op.errorf("reduction", "reduction %s cannot combine %v", red, dt)
	default:
		if dt.IsInteger() { // int4, uint4, int2, uint2: wrap to the type's bits
			f := intCombine[int64](red)
			combineBlocks(b, at, s, block, func(x, u byte) byte {
				if dt.IsSigned() {
					return narrowSubByte(dt, f(int64(int8(x)), int64(int8(u))))
				}
				return narrowSubByte(dt, f(int64(x), int64(u)))
			})
			return nil
		}
		return scatterRounded(y, at, src, block, red)
	}
	return nil
}

// narrowSubByte keeps the low bits of x as a value of the 4-bit or 2-bit
// integer type dt.
func narrowSubByte(dt tensor.DataType, x int64) byte {
	shift := 8 - dt.Bits()
	if dt.IsSigned() {
		return byte(int8(byte(x)<<shift) >> shift)
	}
	return byte(x) & (byte(1)<<dt.Bits() - 1)
}

func combineBlocks[E any](d []E, at []int64, s []E, block int, f func(E, E) E) {
	for i, a := range at {
		dst := d[a : int(a)+block]
		for k, u := range s[i*block : (i+1)*block] {
			dst[k] = f(dst[k], u)
		}
	}
}

type scatterNumber interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

func intCombine[E scatterNumber](red reduction) func(E, E) E {
	switch red {
	case "add":
		return func(x, u E) E { return x + u }
	case "mul":
		return func(x, u E) E { return x * u }
	case "max":
		return func(x, u E) E { return max(x, u) }
	}
	return func(x, u E) E { return min(x, u) }
}

// floatCombine is intCombine with NaN propagating through max and min, and
// of two equal values (-0 and +0) the element already there kept, as
// np.maximum and np.minimum return their first argument then.
func floatCombine[E float32 | float64](red reduction) func(E, E) E {
	switch red {
	case "add":
		return func(x, u E) E { return x + u }
	case "mul":
		return func(x, u E) E { return x * u }
	case "max":
		return func(x, u E) E {
			if x != x || x >= u {
				return x
			}
			return u
		}
	}
	return func(x, u E) E {
		if x != x || x <= u {
			return x
		}
		return u
	}
}

// scatterRounded combines float16, bfloat16 and the float 8 types in
// float32, rounding to the type after every update.
func scatterRounded(y *tensor.Tensor, at []int64, src *tensor.Tensor, block int, red reduction) error {
	f := floatCombine[float32](red)
	one := tensor.MustNew(y.DataType(), 1)
	var v [1]float64
	get := func(t *tensor.Tensor, i int) float32 {
		convert.DecodeFloats(v[:], t, i)
		return float32(v[0])
	}
	size := y.DataType().Size()
	for i, a := range at {
		for k := range block {
			r := f(get(y, int(a)+k), get(src, i*block+k))
			convert.EncodeFloats(one, 0, []float64{float64(r)}, convert.DefaultCast)
			copy(y.Bytes()[(int(a)+k)*size:], one.Bytes())
		}
	}
	return nil
}
