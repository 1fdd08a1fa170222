package convert

import (
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// boolCast converts bool to float32 or float64 and float32 or float64 to
// bool in one plain loop, reporting false for the other pairs: the general
// path went through an int64 or float64 buffer and a call per element.
// float32 goes 32 at a time in boolvec_amd64.s where the processor can.
// The results are the general path's: a bool byte (0 or 1) is the float 0
// or 1; a float is true unless it is ±0 (NaN is true).
func boolCast(dst, src *tensor.Tensor, lo, hi int) bool {
	sdt, ddt := src.DataType(), dst.DataType()
	s, d := src.Bytes(), dst.Bytes()
	switch {
	case sdt == tensor.Bool && ddt == tensor.Float:
		boolsToFloats(movement.AsElems[float32](d)[lo:hi], s[lo:hi])
	case sdt == tensor.Bool && ddt == tensor.Double:
		boolsToFloats(movement.AsElems[float64](d)[lo:hi], s[lo:hi])
	case sdt == tensor.Float && ddt == tensor.Bool:
		floatsToBools(d[lo:hi], movement.AsElems[float32](s)[lo:hi])
	case sdt == tensor.Double && ddt == tensor.Bool:
		floatsToBools(d[lo:hi], movement.AsElems[float64](s)[lo:hi])
	default:
		return false
	}
	return true
}

func boolsToFloats[F float32 | float64](d []F, s []byte) {
	s = s[:len(d)]
	i := 0
	if d, ok := any(d).([]float32); ok {
		i = boolsToF32sVector(d, s)
	}
	for ; i < len(d); i++ {
		d[i] = F(s[i])
	}
}

func floatsToBools[F float32 | float64](d []byte, s []F) {
	s = s[:len(d)]
	i := 0
	if s, ok := any(s).([]float32); ok {
		i = f32sToBoolsVector(d, s)
	}
	for ; i < len(d); i++ {
		var b byte
		if s[i] != 0 {
			b = 1
		}
		d[i] = b
	}
}
