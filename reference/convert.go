package reference

// Storing a value computed in float64 into an element of any type that
// computes: the conversion ONNX's Cast performs from a float (round to
// nearest even; integers saturate to their range, NaN gives 0; bool is
// v != 0). Pad-2's float value and Resize's results go through it.

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/tensor"
)

// storable reports whether storeFloat can write elements of type dt.
func storable(dt tensor.DataType) bool {
	switch dt {
	case tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16, tensor.Bool:
		return true
	}
	return dt.IsInteger()
}

// storeFloat sets element i of t to v converted to t's type.
func storeFloat(t *tensor.Tensor, i int, v float64) error {
	switch t.DataType() {
	case tensor.Float:
		setElement(t, i, float32(v))
	case tensor.Double:
		setElement(t, i, v)
	case tensor.Float16:
		setElement(t, i, uint16(float16.Fromfloat32(float32(v))))
	case tensor.BFloat16:
		setElement(t, i, uint16(tensor.BF16FromFloat32(float32(v))))
	case tensor.Bool:
		b := byte(0)
		if v != 0 {
			b = 1
		}
		t.Bytes()[i] = b
	case tensor.Int8:
		t.Bytes()[i] = byte(int8(roundSaturate(v, math.MinInt8, math.MaxInt8)))
	case tensor.Int4:
		t.Bytes()[i] = byte(int8(roundSaturate(v, -8, 7)))
	case tensor.Int2:
		t.Bytes()[i] = byte(int8(roundSaturate(v, -2, 1)))
	case tensor.Uint8:
		t.Bytes()[i] = byte(roundSaturate(v, 0, math.MaxUint8))
	case tensor.Uint4:
		t.Bytes()[i] = byte(roundSaturate(v, 0, 15))
	case tensor.Uint2:
		t.Bytes()[i] = byte(roundSaturate(v, 0, 3))
	case tensor.Int16:
		setElement(t, i, int16(roundSaturate(v, math.MinInt16, math.MaxInt16)))
	case tensor.Uint16:
		setElement(t, i, uint16(roundSaturate(v, 0, math.MaxUint16)))
	case tensor.Int32:
		setElement(t, i, int32(roundSaturate(v, math.MinInt32, math.MaxInt32)))
	case tensor.Uint32:
		setElement(t, i, uint32(roundSaturate(v, 0, math.MaxUint32)))
	case tensor.Int64:
		r := math.RoundToEven(v)
		switch {
		case r != r:
			setElement(t, i, int64(0))
		case r >= 0x1p63:
			setElement(t, i, int64(math.MaxInt64))
		case r < -0x1p63:
			setElement(t, i, int64(math.MinInt64))
		default:
			setElement(t, i, int64(r))
		}
	case tensor.Uint64:
		r := math.RoundToEven(v)
		switch {
		case r != r || r <= 0:
			setElement(t, i, uint64(0))
		case r >= 0x1p64:
			setElement(t, i, uint64(math.MaxUint64))
		default:
			setElement(t, i, uint64(r))
		}
	default:
		return fmt.Errorf("%w: cannot compute in %v", tensor.ErrType, t.DataType())
	}
	return nil
}

// roundSaturate rounds v half to even and clamps it to [lo, hi]; NaN gives 0.
func roundSaturate(v, lo, hi float64) float64 {
	if v != v {
		return 0
	}
	return math.Max(lo, math.Min(hi, math.RoundToEven(v)))
}

// setElement stores v as element i of t, whose elements are v's size, in
// the machine's byte order (the storage's).
func setElement[T int16 | uint16 | int32 | uint32 | int64 | uint64 | float32 | float64](t *tensor.Tensor, i int, v T) {
	b := t.Bytes()
	switch x := any(v).(type) {
	case int16:
		binary.NativeEndian.PutUint16(b[2*i:], uint16(x))
	case uint16:
		binary.NativeEndian.PutUint16(b[2*i:], x)
	case int32:
		binary.NativeEndian.PutUint32(b[4*i:], uint32(x))
	case uint32:
		binary.NativeEndian.PutUint32(b[4*i:], x)
	case int64:
		binary.NativeEndian.PutUint64(b[8*i:], uint64(x))
	case uint64:
		binary.NativeEndian.PutUint64(b[8*i:], x)
	case float32:
		binary.NativeEndian.PutUint32(b[4*i:], math.Float32bits(x))
	case float64:
		binary.NativeEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
}
