package tensor

import (
	"fmt"
	"math"

	"github.com/x448/float16"
)

// Float32 returns the value of a bfloat16.
func (b BF16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// BF16FromFloat32 rounds f to the nearest bfloat16, ties to even; NaN stays NaN.
func BF16FromFloat32(f float32) BF16 {
	u := math.Float32bits(f)
	if f != f {
		return BF16(u>>16 | 0x40) // keep the sign, force a quiet NaN
	}
	u += 0x7FFF + (u>>16)&1
	return BF16(u >> 16)
}

// decodeMinifloat returns the value of a small IEEE-like float with the given
// exponent and mantissa widths and bias, without special values.
func decodeMinifloat(v uint8, expBits, manBits uint, bias int) float64 {
	sign := 1.0
	if v>>(expBits+manBits)&1 == 1 {
		sign = -1
	}
	e := int(v>>manBits) & (1<<expBits - 1)
	m := float64(int(v) & (1<<manBits - 1))
	scale := float64(uint(1) << manBits)
	if e == 0 {
		return sign * math.Ldexp(m/scale, 1-bias)
	}
	return sign * math.Ldexp(1+m/scale, e-bias)
}

// Float64 returns the value of a float8e4m3fn (no infinities; S.1111.111 is NaN).
func (f F8E4M3FN) Float64() float64 {
	if f&0x7F == 0x7F {
		return math.NaN()
	}
	return decodeMinifloat(uint8(f), 4, 3, 7)
}

// Float64 returns the value of a float8e4m3fnuz (0x80 is NaN; no -0, no infinities).
func (f F8E4M3FNUZ) Float64() float64 {
	if f == 0x80 {
		return math.NaN()
	}
	return decodeMinifloat(uint8(f), 4, 3, 8)
}

// Float64 returns the value of a float8e5m2 (IEEE-like, with infinities and NaNs).
func (f F8E5M2) Float64() float64 {
	switch {
	case f&0x7F == 0x7C:
		return math.Inf(1 - 2*int(f>>7))
	case f&0x7C == 0x7C:
		return math.NaN()
	}
	return decodeMinifloat(uint8(f), 5, 2, 15)
}

// Float64 returns the value of a float8e5m2fnuz (0x80 is NaN; no -0, no infinities).
func (f F8E5M2FNUZ) Float64() float64 {
	if f == 0x80 {
		return math.NaN()
	}
	return decodeMinifloat(uint8(f), 5, 2, 16)
}

// Float64 returns the value of a float8e8m0, 2^(f-127); 0xFF is NaN.
func (f F8E8M0) Float64() float64 {
	if f == 0xFF {
		return math.NaN()
	}
	return math.Ldexp(1, int(f)-127)
}

// Float64 returns the value of a float4e2m1 (no infinities, no NaN).
func (f F4E2M1) Float64() float64 { return decodeMinifloat(uint8(f)&0x0F, 2, 1, 1) }

// Float64s returns t's elements converted to float64, for every numeric type
// (bool as 0 and 1). It fails for String and the complex types.
func (t *Tensor) Float64s() ([]float64, error) {
	if t == nil {
		return nil, errNil
	}
	out := make([]float64, t.n)
	b := t.data
	switch t.dtype {
	case Float:
		v, _ := Data[float32](t)
		for i, x := range v {
			out[i] = float64(x)
		}
	case Double:
		v, _ := Data[float64](t)
		copy(out, v)
	case Float16:
		v, _ := Data[float16.Float16](t)
		for i, x := range v {
			out[i] = float64(x.Float32())
		}
	case BFloat16:
		v, _ := Data[BF16](t)
		for i, x := range v {
			out[i] = float64(x.Float32())
		}
	case Int8, Int4, Int2:
		for i := range out {
			out[i] = float64(int8(b[i]))
		}
	case Uint8, Uint4, Uint2, Bool:
		for i := range out {
			out[i] = float64(b[i])
		}
	case Int16:
		v, _ := Data[int16](t)
		for i, x := range v {
			out[i] = float64(x)
		}
	case Uint16:
		v, _ := Data[uint16](t)
		for i, x := range v {
			out[i] = float64(x)
		}
	case Int32:
		v, _ := Data[int32](t)
		for i, x := range v {
			out[i] = float64(x)
		}
	case Uint32:
		v, _ := Data[uint32](t)
		for i, x := range v {
			out[i] = float64(x)
		}
	case Int64:
		v, _ := Data[int64](t)
		for i, x := range v {
			out[i] = float64(x)
		}
	case Uint64:
		v, _ := Data[uint64](t)
		for i, x := range v {
			out[i] = float64(x)
		}
	case Float8E4M3FN:
		for i := range out {
			out[i] = F8E4M3FN(b[i]).Float64()
		}
	case Float8E4M3FNUZ:
		for i := range out {
			out[i] = F8E4M3FNUZ(b[i]).Float64()
		}
	case Float8E5M2:
		for i := range out {
			out[i] = F8E5M2(b[i]).Float64()
		}
	case Float8E5M2FNUZ:
		for i := range out {
			out[i] = F8E5M2FNUZ(b[i]).Float64()
		}
	case Float8E8M0:
		for i := range out {
			out[i] = F8E8M0(b[i]).Float64()
		}
	case Float4E2M1:
		for i := range out {
			out[i] = F4E2M1(b[i]).Float64()
		}
	default:
		return nil, fmt.Errorf("%w: %v has no real value", ErrType, t.dtype)
	}
	return out, nil
}

// Int64s returns the elements of a tensor of any integer type (int2 to
// int64, uint2 to uint64) or of bool as int64; a uint64 above MaxInt64,
// and any other type, is an error wrapping ErrType.
func (t *Tensor) Int64s() ([]int64, error) {
	if t == nil {
		return nil, errNil
	}
	if !t.dtype.IsInteger() && t.dtype != Bool {
		return nil, fmt.Errorf("%w: %v is not an integer type", ErrType, t.dtype)
	}
	if t.dtype == Uint64 {
		v, _ := Data[uint64](t)
		out := make([]int64, len(v))
		for i, x := range v {
			if x > math.MaxInt64 {
				return nil, fmt.Errorf("%w: element %d (%d) does not fit an int64", ErrType, i, x)
			}
			out[i] = int64(x)
		}
		return out, nil
	}
	if t.dtype == Int64 {
		v, _ := Data[int64](t)
		return append([]int64{}, v...), nil
	}
	f, err := t.Float64s() // exact: every other integer type fits a float64
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(f))
	for i, x := range f {
		out[i] = int64(x)
	}
	return out, nil
}
