package convert

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// float32Cast converts float32 to bfloat16 and the float8 formats, and
// bfloat16 to float32, on the float32's bits, reporting false for the other
// pairs: the general path went through a float64 buffer and, for float8,
// math.Frexp and math.Ldexp per element. The results are the general
// path's, bit for bit (NaN included: a bfloat16 NaN widens quieted, as
// through float64).
func float32Cast(dst, src *tensor.Tensor, lo, hi int, o Options) bool {
	sdt, ddt := src.DataType(), dst.DataType()
	switch {
	case sdt == tensor.Float && ddt == tensor.BFloat16:
		d, s := movement.AsElems[uint16](dst.Bytes())[lo:hi], movement.AsElems[float32](src.Bytes())[lo:hi]
		i := f32sToBF16sVector(d, s)
		for ; i < len(s); i++ {
			d[i] = F32ToBF16(s[i])
		}
	case sdt == tensor.BFloat16 && ddt == tensor.Float:
		d, s := movement.AsElems[uint32](dst.Bytes())[lo:hi], movement.AsElems[uint16](src.Bytes())[lo:hi]
		for i, h := range s {
			u := uint32(h) << 16
			if u&0x7FFFFFFF > 0x7F800000 {
				u |= 0x400000 // quiet, as a float64 round trip leaves it
			}
			d[i] = u
		}
	case sdt == tensor.Float && (ddt == tensor.Float8E4M3FN || ddt == tensor.Float8E4M3FNUZ || ddt == tensor.Float8E5M2 || ddt == tensor.Float8E5M2FNUZ):
		f := minifloatOf(ddt)
		f32sToMinifloat(dst.Bytes()[lo:hi], movement.AsElems[uint32](src.Bytes())[lo:hi], f, o.Saturate)
	default:
		return false
	}
	return true
}

// f32sToMinifloat is minifloat.encode for float32 inputs with bits s, on
// the bits: a magnitude below the format's least normal is rounded to its
// subnormal quantum by the FPU (adding a power of two whose last place is
// that quantum rounds to nearest even and leaves the quantum count in the
// low bits); a normal one by adding the rounding bias below the kept
// mantissa bits and shifting, as F32ToF16 does. A result past the largest
// finite value is what encode gives for an overflow.
func f32sToMinifloat(d []byte, s []uint32, f minifloat, saturate bool) {
	d = d[:len(s)]
	signBit := uint32(1) << (f.exp + f.man)
	drop := 23 - f.man
	minNormal := uint32(1-f.bias+127) << 23 // bits of 2^(1-bias)
	magic := uint32(1-f.bias-int(f.man)+23+127) << 23
	magicF := math.Float32frombits(magic)
	rebias := uint32(f.bias-127) << 23 // added modulo 2^32: lowers the exponent
	maxBits := uint32(f.maxBits())
	var nanPos, nanNeg, overPos, overNeg byte
	nanPos, nanNeg = f.encode(math.NaN(), saturate), f.encode(math.Copysign(math.NaN(), -1), saturate)
	overPos, overNeg = f.encode(math.Inf(1), saturate), f.encode(math.Inf(-1), saturate)
	for i, u := range s {
		neg := u >> 31
		a := u & 0x7FFFFFFF
		var r uint32
		switch {
		case a > 0x7F800000:
			d[i] = nanPos
			if neg != 0 {
				d[i] = nanNeg
			}
			continue
		case a < minNormal:
			r = math.Float32bits(math.Float32frombits(a)+magicF) - magic
		default:
			r = (a + rebias + (1<<(drop-1) - 1) + (a>>drop)&1) >> drop
		}
		switch {
		case r > maxBits:
			d[i] = overPos
			if neg != 0 {
				d[i] = overNeg
			}
		case neg != 0 && !(f.noNegZero && r == 0):
			d[i] = byte(r | signBit)
		default:
			d[i] = byte(r)
		}
	}
}
