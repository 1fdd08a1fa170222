package convert

import (
	"context"
	"fmt"
	"math"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/ops/internal/poll"
	"github.com/onnxshape/onnxshape/tensor"
)

// Conversions between a tensor's elements and the float type an operator
// computes in, for the operators that compute (Resize's linear and cubic
// modes) and for attribute values given as floats whatever the data type
// (Pad-2's value, Resize's extrapolation_value).

// Float is the type an operator accumulates in.
type Float interface{ float32 | float64 }

// FloatComputable reports whether StoreFloats can write type dt: the IEEE
// floats, bfloat16, every integer type and bool.
func FloatComputable(dt tensor.DataType) bool {
	switch dt {
	case tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16, tensor.Bool:
		return true
	}
	return dt.IsInteger()
}

// NativeFloat reports whether LoadFloats[A] returns a tensor of type dt as
// it is, allocating nothing.
func NativeFloat[A Float](dt tensor.DataType) bool {
	var zero A
	switch any(zero).(type) {
	case float32:
		return dt == tensor.Float
	}
	return dt == tensor.Double
}

// LoadFloats returns t's elements as []A. For a tensor already of type A it
// returns t's own storage, which must not be modified; otherwise it
// allocates one []A (float16 and bfloat16 convert to float32 directly, not
// through float64), whose size the caller checks first.
func LoadFloats[A Float](t *tensor.Tensor) ([]A, error) {
	var zero A
	switch any(zero).(type) {
	case float32:
		switch t.DataType() {
		case tensor.Float:
			v, err := tensor.Data[float32](t)
			return any(v).([]A), err
		case tensor.Float16:
			out := make([]float32, t.Len())
			Float16sToFloat32s(out, movement.AsElems[uint16](t.Bytes()))
			return any(out).([]A), nil
		case tensor.BFloat16:
			out := make([]float32, t.Len())
			for i, b := range movement.AsElems[uint16](t.Bytes())[:len(out)] {
				out[i] = tensor.BF16(b).Float32()
			}
			return any(out).([]A), nil
		}
	case float64:
		if t.DataType() == tensor.Double {
			v, err := tensor.Data[float64](t)
			return any(v).([]A), err
		}
	}
	f, err := t.Float64s()
	if err != nil {
		return nil, err
	}
	if _, ok := any(zero).(float64); ok {
		return any(f).([]A), nil
	}
	out := make([]A, len(f))
	for i, x := range f {
		out[i] = A(x)
	}
	return out, nil
}

// LoadFloatsPolled is LoadFloats for a kernel: the conversion goes in steps
// of pollWork elements, each a view of t's storage, with a look at the run's
// context between them; a cancelled run returns the context's error.
func LoadFloatsPolled[A Float](ctx context.Context, t *tensor.Tensor) ([]A, error) {
	if NativeFloat[A](t.DataType()) || t.DataType().Size() <= 0 || t.Len() <= poll.Work {
		return LoadFloats[A](t)
	}
	c := poll.New(ctx)
	out := make([]A, t.Len())
	size := t.DataType().Size()
	for lo := 0; lo < len(out); lo += poll.Work {
		if c.Stop(poll.Work) {
			return nil, c.Err
		}
		hi := min(lo+poll.Work, len(out))
		part, err := tensor.Wrap(t.DataType(), []int{hi - lo}, t.Bytes()[lo*size:hi*size])
		if err != nil {
			return nil, err
		}
		if err := LoadFloatsInto(out[lo:hi], part); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// LoadFloatsInto is LoadFloats into dst, of t's length: float16 and
// bfloat16 to float32 convert in place, without a copy of their own.
func LoadFloatsInto[A Float](dst []A, t *tensor.Tensor) error {
	if d, ok := any(dst).([]float32); ok {
		switch t.DataType() {
		case tensor.Float16:
			Float16sToFloat32s(d, movement.AsElems[uint16](t.Bytes()))
			return nil
		case tensor.BFloat16:
			for i, b := range movement.AsElems[uint16](t.Bytes())[:len(d)] {
				d[i] = tensor.BF16(b).Float32()
			}
			return nil
		}
	}
	v, err := LoadFloats[A](t)
	if err != nil {
		return err
	}
	copy(dst, v)
	return nil
}

// StoreFloatsPolled is StoreFloats for a kernel, in steps of pollWork
// elements with a look at the run's context between them.
func StoreFloatsPolled[A Float](ctx context.Context, t *tensor.Tensor, v []A) error {
	size := t.DataType().Size()
	if size <= 0 || len(v) <= poll.Work {
		return StoreFloats(t, v)
	}
	c := poll.New(ctx)
	for lo := 0; lo < len(v); lo += poll.Work {
		if c.Stop(poll.Work) {
			return c.Err
		}
		hi := min(lo+poll.Work, len(v))
		part, err := tensor.Wrap(t.DataType(), []int{hi - lo}, t.Bytes()[lo*size:hi*size])
		if err != nil {
			return err
		}
		if err := StoreFloats(part, v[lo:hi]); err != nil {
			return err
		}
	}
	return nil
}

// StoreFloats writes v into t, whose type must pass FloatComputable:
// floats are rounded to nearest even, integers are rounded half to even and
// saturated to the type's range (NaN becomes 0), bool is v != 0.
func StoreFloats[A Float](t *tensor.Tensor, v []A) error {
	dt := t.DataType()
	b := t.Bytes()
	switch dt {
	case tensor.Float:
		d := movement.AsElems[float32](b)
		for i, x := range v {
			d[i] = float32(x)
		}
	case tensor.Double:
		d := movement.AsElems[float64](b)
		for i, x := range v {
			d[i] = float64(x)
		}
	case tensor.Float16:
		d := movement.AsElems[uint16](b)
		if f, ok := any(v).([]float32); ok {
			Float32sToFloat16s(d, f)
			break
		}
		for i, x := range v {
			d[i] = uint16(float16.Fromfloat32(float32(x)))
		}
	case tensor.BFloat16:
		d := movement.AsElems[uint16](b)
		for i, x := range v {
			d[i] = uint16(tensor.BF16FromFloat32(float32(x)))
		}
	case tensor.Bool:
		for i, x := range v {
			if x != 0 {
				b[i] = 1
			} else {
				b[i] = 0
			}
		}
	case tensor.Int8, tensor.Int4, tensor.Int2:
		lo, hi := intRange(dt)
		for i, x := range v {
			b[i] = byte(int8(saturate(float64(x), lo, hi)))
		}
	case tensor.Uint8, tensor.Uint4, tensor.Uint2:
		lo, hi := intRange(dt)
		for i, x := range v {
			b[i] = byte(saturate(float64(x), lo, hi))
		}
	case tensor.Int16:
		d := movement.AsElems[int16](b)
		for i, x := range v {
			d[i] = int16(saturate(float64(x), math.MinInt16, math.MaxInt16))
		}
	case tensor.Uint16:
		d := movement.AsElems[uint16](b)
		for i, x := range v {
			d[i] = uint16(saturate(float64(x), 0, math.MaxUint16))
		}
	case tensor.Int32:
		d := movement.AsElems[int32](b)
		for i, x := range v {
			d[i] = int32(saturate(float64(x), math.MinInt32, math.MaxInt32))
		}
	case tensor.Uint32:
		d := movement.AsElems[uint32](b)
		for i, x := range v {
			d[i] = uint32(saturate(float64(x), 0, math.MaxUint32))
		}
	case tensor.Int64:
		d := movement.AsElems[int64](b)
		for i, x := range v {
			d[i] = saturateInt64(float64(x))
		}
	case tensor.Uint64:
		d := movement.AsElems[uint64](b)
		for i, x := range v {
			d[i] = saturateUint64(float64(x))
		}
	default:
		return fmt.Errorf("%w: cannot compute in %v", tensor.ErrType, dt)
	}
	return nil
}

// ScalarOf returns a one-element tensor of type dt holding v, converted as
// StoreFloats does.
func ScalarOf(dt tensor.DataType, v float64) (*tensor.Tensor, error) {
	t, err := tensor.New(dt, 1)
	if err != nil {
		return nil, err
	}
	if err := StoreFloats(t, []float64{v}); err != nil {
		return nil, err
	}
	return t, nil
}

// intRange returns the range of the integer types held in one byte.
func intRange(dt tensor.DataType) (lo, hi float64) {
	switch dt {
	case tensor.Int8:
		return math.MinInt8, math.MaxInt8
	case tensor.Int4:
		return -8, 7
	case tensor.Int2:
		return -2, 1
	case tensor.Uint8:
		return 0, math.MaxUint8
	case tensor.Uint4:
		return 0, 15
	case tensor.Uint2:
		return 0, 3
	}
	return 0, 0
}

// saturate rounds x half to even and clamps it to [lo, hi]; NaN gives 0.
func saturate(x, lo, hi float64) float64 {
	if x != x {
		return 0
	}
	return math.Max(lo, math.Min(hi, math.RoundToEven(x)))
}

func saturateInt64(x float64) int64 {
	switch x = math.RoundToEven(x); {
	case x != x:
		return 0
	case x >= 0x1p63:
		return math.MaxInt64
	case x < -0x1p63:
		return math.MinInt64
	}
	return int64(x)
}

func saturateUint64(x float64) uint64 {
	switch x = math.RoundToEven(x); {
	case x != x || x <= 0:
		return 0
	case x >= 0x1p64:
		return math.MaxUint64
	}
	return uint64(x)
}

// RoundToType rounds x to the nearest value of the float type dt (float,
// double, float16, bfloat16): the precision a computation in dt keeps.
func RoundToType(dt tensor.DataType, x float64) float64 {
	switch dt {
	case tensor.Float:
		return float64(float32(x))
	case tensor.Float16:
		return float64(F16ToF32(F64ToF16(x)))
	case tensor.BFloat16:
		return float64(math.Float32frombits(uint32(F32ToBF16(float32(x))) << 16))
	}
	return x
}
