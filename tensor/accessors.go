package tensor

import (
	"fmt"
	"math"

	"github.com/x448/float16"
)

// inferDim returns shape with its -1, if any, replaced by the length that
// makes n elements: ONNX Reshape's rule for one inferred dimension.
func inferDim(shape []int, n int) ([]int, error) {
	at := -1
	known := 1
	for i, d := range shape {
		switch {
		case d == -1 && at >= 0:
			return nil, fmt.Errorf("%w: %v has more than one -1", ErrShape, shape)
		case d == -1:
			at = i
		case d < 0:
			return nil, fmt.Errorf("%w: dimension %d is %d (only -1, inferred, may be negative)", ErrShape, i, d)
		default:
			if d != 0 && known > math.MaxInt/d {
				return nil, fmt.Errorf("%w: %v has more elements than an int can count", ErrShape, shape)
			}
			known *= d
		}
	}
	if at < 0 {
		return shape, nil
	}
	if known == 0 || n%known != 0 {
		return nil, fmt.Errorf("%w: cannot infer the -1 of %v for %d elements", ErrShape, shape, n)
	}
	out := append([]int{}, shape...)
	out[at] = n / known
	return out, nil
}

// NewLimited is New for shapes read from outside: a tensor whose storage
// would take more than maxBytes is refused, before anything is allocated,
// with an error wrapping ErrLimit (a String tensor counts 16 bytes an
// element). maxBytes <= 0 means no cap beyond New's own.
func NewLimited(maxBytes int64, dt DataType, shape ...int) (*Tensor, error) {
	if maxBytes > 0 && dt.Valid() {
		per := int64(dt.Size())
		if dt == String {
			per = 16
		}
		// The count in int64, saturated: a shape past the cap is a limit,
		// even where it would overflow an int (32-bit platforms).
		n := int64(1)
		for i, d := range shape {
			switch {
			case d < 0:
				return nil, fmt.Errorf("%w: dimension %d is %d", ErrShape, i, d)
			case d != 0 && n > math.MaxInt64/int64(d):
				n = math.MaxInt64
			default:
				n *= int64(d)
			}
		}
		if hasZero(shape) {
			n = 0
		}
		if per > 0 && n > maxBytes/per {
			return nil, fmt.Errorf("%w: %v of shape %v takes more than %d elements of %d bytes, above the cap of %d bytes", ErrLimit, dt, shape, maxBytes/per, per, maxBytes)
		}
	}
	return New(dt, shape...)
}

// hasZero reports whether shape has a dimension of length 0.
func hasZero(shape []int) bool {
	for _, d := range shape {
		if d == 0 {
			return true
		}
	}
	return false
}

// ScalarOf returns a rank-0 tensor of type dt holding v, rounded to the
// nearest value of dt for the float types and converted like a Go
// conversion for the integer types (true for any non-zero v for Bool). It
// is the way to build a constant of a model's element type from a literal:
// tensor.ScalarOf(tensor.Float, 114.0/255). The types without a
// conversion from float64 here (string, complex, the float8, float4 and
// sub-byte integer types) are refused, as are a NaN or infinity for an
// integer type.
func ScalarOf(dt DataType, v float64) (*Tensor, error) {
	if dt.IsInteger() || dt == Bool {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: %v has no %v value", ErrType, v, dt)
		}
	}
	switch dt {
	case Float:
		return Scalar(float32(v)), nil
	case Double:
		return Scalar(v), nil
	case Float16:
		return Scalar(float16.Fromfloat32(float32(v))), nil
	case BFloat16:
		return Scalar(BF16FromFloat32(float32(v))), nil
	case Int8:
		return Scalar(int8(v)), nil
	case Int16:
		return Scalar(int16(v)), nil
	case Int32:
		return Scalar(int32(v)), nil
	case Int64:
		return Scalar(int64(v)), nil
	case Uint8:
		return Scalar(uint8(v)), nil
	case Uint16:
		return Scalar(uint16(v)), nil
	case Uint32:
		return Scalar(uint32(v)), nil
	case Uint64:
		return Scalar(uint64(v)), nil
	case Bool:
		return Scalar(v != 0), nil
	}
	return nil, fmt.Errorf("%w: ScalarOf makes float, double, float16, bfloat16, bool and 8- to 64-bit integer tensors, not %v", ErrType, dt)
}

// F16 is the Go type of a float16 element (IEEE half precision), so that
// float16 tensors need no import of the package that defines it.
type F16 = float16.Float16

// F16FromFloat32 rounds f to the nearest float16, ties to even; NaN stays
// NaN. Its Float32 method converts back.
func F16FromFloat32(f float32) F16 { return float16.Fromfloat32(f) }

// Float32s returns t's elements converted to float32, for every numeric
// type (bool as 0 and 1), rounding as a Go conversion does. It fails for
// String and the complex types.
func (t *Tensor) Float32s() ([]float32, error) {
	if t != nil && t.dtype == Float {
		return ToSlice[float32](t)
	}
	v, err := t.Float64s()
	if err != nil {
		return nil, err
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out, nil
}

// Exact-type copies of the elements, each ToSlice with the type spelled
// out: ToSlice[T] (a copy) and Data[T] (a read-only view) are the one way
// to read a tensor's elements in their own type, and Float32s, Float64s
// and Int64s read them converted. These wrappers stay for code written
// against them.

// Int8s returns a copy of the elements of an int8 tensor.
//
// Deprecated: use ToSlice[int8](t), or Data[int8](t) to read without a copy.
func (t *Tensor) Int8s() ([]int8, error) { return ToSlice[int8](t) }

// Int16s returns a copy of the elements of an int16 tensor.
//
// Deprecated: use ToSlice[int16](t), or Data[int16](t) to read without a copy.
func (t *Tensor) Int16s() ([]int16, error) { return ToSlice[int16](t) }

// Int32s returns a copy of the elements of an int32 tensor.
//
// Deprecated: use ToSlice[int32](t), or Data[int32](t) to read without a copy.
func (t *Tensor) Int32s() ([]int32, error) { return ToSlice[int32](t) }

// Uint8s returns a copy of the elements of a uint8 tensor.
//
// Deprecated: use ToSlice[uint8](t), or Data[uint8](t) to read without a copy.
func (t *Tensor) Uint8s() ([]uint8, error) { return ToSlice[uint8](t) }

// Uint16s returns a copy of the elements of a uint16 tensor.
//
// Deprecated: use ToSlice[uint16](t), or Data[uint16](t) to read without a copy.
func (t *Tensor) Uint16s() ([]uint16, error) { return ToSlice[uint16](t) }

// Uint32s returns a copy of the elements of a uint32 tensor.
//
// Deprecated: use ToSlice[uint32](t), or Data[uint32](t) to read without a copy.
func (t *Tensor) Uint32s() ([]uint32, error) { return ToSlice[uint32](t) }

// Uint64s returns a copy of the elements of a uint64 tensor.
//
// Deprecated: use ToSlice[uint64](t), or Data[uint64](t) to read without a copy.
func (t *Tensor) Uint64s() ([]uint64, error) { return ToSlice[uint64](t) }

// Bools returns a copy of the elements of a bool tensor.
//
// Deprecated: use ToSlice[bool](t), or Data[bool](t) to read without a copy.
func (t *Tensor) Bools() ([]bool, error) { return ToSlice[bool](t) }

// Float16s returns a copy of the elements of a float16 tensor.
//
// Deprecated: use ToSlice[F16](t), or Data[F16](t) to read without a copy.
func (t *Tensor) Float16s() ([]F16, error) { return ToSlice[F16](t) }

// BFloat16s returns a copy of the elements of a bfloat16 tensor.
//
// Deprecated: use ToSlice[BF16](t), or Data[BF16](t) to read without a copy.
func (t *Tensor) BFloat16s() ([]BF16, error) { return ToSlice[BF16](t) }

// Complex64s returns a copy of the elements of a complex64 tensor.
//
// Deprecated: use ToSlice[complex64](t), or Data[complex64](t) to read without a copy.
func (t *Tensor) Complex64s() ([]complex64, error) { return ToSlice[complex64](t) }

// Complex128s returns a copy of the elements of a complex128 tensor.
//
// Deprecated: use ToSlice[complex128](t), or Data[complex128](t) to read without a copy.
func (t *Tensor) Complex128s() ([]complex128, error) { return ToSlice[complex128](t) }
