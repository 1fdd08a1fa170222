package convert

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// The conversion engine: Cast, CastLike and the operators that write a
// value given in one type into a tensor of another (ConstantOfShape,
// EyeLike, OneHot) convert through it. It follows the ONNX Cast rules and,
// where they leave the result open, the ONNX reference evaluator (numpy and
// ml_dtypes):
//
//   - float to float: one rounding, to nearest even, from the exact source
//     value (double to bfloat16 goes through float32, as ml_dtypes does);
//     overflow gives an infinity where the type has one. The float 8 types
//     follow the saturate tables of the Cast specification; float4e2m1 and
//     float8e8m0 as the reference evaluator.
//   - integer to integer: the low bits, two's complement ("200 (int16) ->
//     -56 (int8)"); integer to float: one rounding to nearest even.
//   - float to integer (undefined by ONNX when out of range): truncation
//     toward zero, then as an integer; NaN, infinities and values outside
//     int64 give math.MinInt64 before that, as the x86 conversion that
//     numpy and onnxruntime use (docs/divergences.md).
//   - to bool: zero is false, anything else (NaN included) true; from
//     bool: 0 and 1.
//   - strings: parsed as numbers ("+INF", "INF", "-INF", "NaN" in any case
//     are the special values); numbers are written as numpy writes them.

// Options are the attributes of Cast that shape a conversion.
type Options struct {
	// Saturate clamps a float 8 result that overflows to the type's largest
	// finite value (true by default) instead of giving NaN or infinity.
	Saturate bool
	// RoundMode is how a value becomes float8e8m0: "up" (the default),
	// "down" or "nearest".
	RoundMode string
}

var DefaultCast = Options{Saturate: true, RoundMode: "up"}

// Chunk is how many elements the general path converts at once
// through its float64 or int64 buffer.
const Chunk = 2048

// Into writes the elements [lo, hi) of src, converted, into dst (of
// the same length). It fails only for a string that is not a number.
func Into(dst, src *tensor.Tensor, lo, hi int, o Options) error {
	sdt, ddt := src.DataType(), dst.DataType()
	switch {
	case sdt == tensor.String || ddt == tensor.String:
		return convertStrings(dst, src, lo, hi, o)
	case sdt == ddt:
		if size := sdt.Size(); size > 0 {
			copy(dst.Bytes()[lo*size:hi*size], src.Bytes()[lo*size:hi*size])
		}
		return nil
	case sdt == tensor.Float && ddt == tensor.Float16:
		f32sToF16s(movement.AsElems[uint16](dst.Bytes())[lo:hi], movement.AsElems[uint32](src.Bytes())[lo:hi])
		return nil
	case sdt == tensor.Float16 && ddt == tensor.Float:
		f16sToF32s(movement.AsElems[uint32](dst.Bytes())[lo:hi], movement.AsElems[uint16](src.Bytes())[lo:hi])
		return nil
	}
	if boolCast(dst, src, lo, hi) || directCast(dst, src, lo, hi) || floatToIntCast(dst, src, lo, hi) || float32Cast(dst, src, lo, hi, o) {
		return nil
	}
	if sdt.IsFloat() {
		var buf [Chunk]float64
		for c := lo; c < hi; c += Chunk {
			v := buf[:min(Chunk, hi-c)]
			DecodeFloats(v, src, c)
			EncodeFloats(dst, c, v, o)
		}
		return nil
	}
	var buf [Chunk]int64
	for c := lo; c < hi; c += Chunk {
		v := buf[:min(Chunk, hi-c)]
		DecodeInts(v, src, c)
		encodeInts(dst, c, v, !sdt.IsSigned() && sdt != tensor.Bool, o)
	}
	return nil
}

// directCast converts between Go's own numeric types where Go's conversion
// is the ONNX one (integer to integer, integer to float, float to float),
// reporting false for the other pairs.
func directCast(dst, src *tensor.Tensor, lo, hi int) bool {
	sdt, ddt := src.DataType(), dst.DataType()
	if !goNumeric(sdt) || !goNumeric(ddt) || (isGoFloat(sdt) && !isGoFloat(ddt)) {
		return false
	}
	s := src.Bytes()
	switch sdt {
	case tensor.Float:
		return castFrom(movement.AsElems[float32](s)[lo:hi], dst, lo)
	case tensor.Double:
		return castFrom(movement.AsElems[float64](s)[lo:hi], dst, lo)
	case tensor.Int8:
		return castFrom(movement.AsElems[int8](s)[lo:hi], dst, lo)
	case tensor.Uint8:
		return castFrom(s[lo:hi], dst, lo)
	case tensor.Int16:
		return castFrom(movement.AsElems[int16](s)[lo:hi], dst, lo)
	case tensor.Uint16:
		return castFrom(movement.AsElems[uint16](s)[lo:hi], dst, lo)
	case tensor.Int32:
		return castFrom(movement.AsElems[int32](s)[lo:hi], dst, lo)
	case tensor.Uint32:
		return castFrom(movement.AsElems[uint32](s)[lo:hi], dst, lo)
	case tensor.Int64:
		return castFrom(movement.AsElems[int64](s)[lo:hi], dst, lo)
	case tensor.Uint64:
		return castFrom(movement.AsElems[uint64](s)[lo:hi], dst, lo)
	}
	return false
}

// floatToIntCast converts float32 or float64 to the integer types but
// uint64 as EncodeFloats does (floatToInt, then the low bits), without the
// float64 buffer, reporting false for the other pairs. float32 to
// int32/uint32 goes eight at a time where the processor can.
func floatToIntCast(dst, src *tensor.Tensor, lo, hi int) bool {
	sdt, ddt := src.DataType(), dst.DataType()
	if sdt != tensor.Float && sdt != tensor.Double {
		return false
	}
	d := dst.Bytes()
	switch ddt {
	case tensor.Int32, tensor.Uint32:
		out := movement.AsElems[uint32](d)[lo:hi]
		if sdt == tensor.Float {
			f32sToI32s(out, movement.AsElems[float32](src.Bytes())[lo:hi])
			return true
		}
		truncFrom(out, src, lo, hi)
	case tensor.Int64:
		out := movement.AsElems[int64](d)[lo:hi]
		if sdt == tensor.Float {
			i := intFloatVector(out, movement.AsElems[float32](src.Bytes())[lo:hi])
			out, lo = out[i:], lo+i
		}
		truncFrom(out, src, lo, hi)
	case tensor.Int16, tensor.Uint16:
		out := movement.AsElems[uint16](d)[lo:hi]
		if sdt == tensor.Float {
			f32sToNarrow(out, movement.AsElems[float32](src.Bytes())[lo:hi])
			return true
		}
		truncFrom(out, src, lo, hi)
	case tensor.Int8, tensor.Uint8:
		if sdt == tensor.Float {
			f32sToNarrow(d[lo:hi], movement.AsElems[float32](src.Bytes())[lo:hi])
			return true
		}
		truncFrom(d[lo:hi], src, lo, hi)
	default:
		return false
	}
	return true
}

// f32sToNarrow is f32sToI32s for 8- and 16-bit targets.
func f32sToNarrow[D uint8 | uint16](d []D, s []float32) {
	d = d[:len(s)]
	for i := 0; i < len(s); {
		i += f32sToNarrowVector(d[i:], s[i:])
		for end := min(i+8, len(s)); i < end; i++ {
			d[i] = D(floatToInt(float64(s[i]), false))
		}
	}
}

// truncFrom writes the low bits of floatToInt of elements [lo, hi) of the
// float32 or float64 tensor src into d.
func truncFrom[D uint8 | uint16 | uint32 | int64](d []D, src *tensor.Tensor, lo, hi int) {
	if src.DataType() == tensor.Float {
		for i, x := range movement.AsElems[float32](src.Bytes())[lo:hi] {
			d[i] = D(floatToInt(float64(x), false))
		}
		return
	}
	for i, x := range movement.AsElems[float64](src.Bytes())[lo:hi] {
		d[i] = D(floatToInt(x, false))
	}
}

// f32sToI32s is truncFrom for float32 to int32 or uint32: the vector
// conversion where it agrees with floatToInt, one element at a time for a
// block of eight where it may not, and for the tail.
func f32sToI32s(d []uint32, s []float32) {
	d = d[:len(s)]
	for i := 0; i < len(s); {
		i += f32sToI32sVector(d[i:], s[i:])
		for end := min(i+8, len(s)); i < end; i++ {
			d[i] = uint32(floatToInt(float64(s[i]), false))
		}
	}
}

type goNumber interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

func goNumeric(dt tensor.DataType) bool {
	switch dt {
	case tensor.Float, tensor.Double, tensor.Int8, tensor.Uint8, tensor.Int16, tensor.Uint16,
		tensor.Int32, tensor.Uint32, tensor.Int64, tensor.Uint64:
		return true
	}
	return false
}

func isGoFloat(dt tensor.DataType) bool { return dt == tensor.Float || dt == tensor.Double }

func castFrom[S goNumber](s []S, dst *tensor.Tensor, lo int) bool {
	d := dst.Bytes()
	switch dst.DataType() {
	case tensor.Float:
		castSlice(movement.AsElems[float32](d)[lo:], s)
	case tensor.Double:
		castSlice(movement.AsElems[float64](d)[lo:], s)
	case tensor.Int8:
		castSlice(movement.AsElems[int8](d)[lo:], s)
	case tensor.Uint8:
		castSlice(d[lo:], s)
	case tensor.Int16:
		castSlice(movement.AsElems[int16](d)[lo:], s)
	case tensor.Uint16:
		castSlice(movement.AsElems[uint16](d)[lo:], s)
	case tensor.Int32:
		castSlice(movement.AsElems[int32](d)[lo:], s)
	case tensor.Uint32:
		castSlice(movement.AsElems[uint32](d)[lo:], s)
	case tensor.Int64:
		castSlice(movement.AsElems[int64](d)[lo:], s)
	case tensor.Uint64:
		castSlice(movement.AsElems[uint64](d)[lo:], s)
	default:
		return false
	}
	return true
}

func castSlice[D, S goNumber](d []D, s []S) {
	d = d[:len(s)]
	i := 0
	if d, ok := any(d).([]float32); ok { // int32, int64 and uint8 to float32: vector loops
		switch s := any(s).(type) {
		case []int32:
			i = intFloatVector(d, s)
		case []int64:
			i = intFloatVector(d, s)
		case []uint8:
			i = boolsToF32sVector(d, s) // VPMOVZXBD and VCVTDQ2PS: any byte, exactly
		}
	}
	if d, ok := any(d).([]int32); ok { // int64 to int32: the low halves
		if s, ok := any(s).([]int64); ok {
			i = i64sToI32sVector(d, s)
		}
	}
	switch d := any(d).(type) { // float32 <-> float64, int32 to int64: vector loops
	case []float64:
		if s, ok := any(s).([]float32); ok {
			i = widenVector(d, s)
		}
	case []float32:
		if s, ok := any(s).([]float64); ok {
			i = widenVector(d, s)
		}
	case []int64:
		if s, ok := any(s).([]int32); ok {
			i = widenVector(d, s)
		}
	}
	for ; i < len(s); i++ {
		d[i] = D(s[i])
	}
}

// DecodeFloats sets v[i] to the value of element at+i of a float tensor.
func DecodeFloats(v []float64, src *tensor.Tensor, at int) {
	b := src.Bytes()
	switch src.DataType() {
	case tensor.Float:
		for i, x := range movement.AsElems[float32](b)[at : at+len(v)] {
			v[i] = float64(x)
		}
	case tensor.Double:
		copy(v, movement.AsElems[float64](b)[at:])
	case tensor.Float16:
		for i, x := range movement.AsElems[uint16](b)[at : at+len(v)] {
			v[i] = float64(F16ToF32(x))
		}
	case tensor.BFloat16:
		for i, x := range movement.AsElems[uint16](b)[at : at+len(v)] {
			v[i] = float64(math.Float32frombits(uint32(x) << 16))
		}
	default:
		f := minifloatOf(src.DataType())
		for i, x := range b[at : at+len(v)] {
			v[i] = f.decode(x)
		}
	}
}

// DecodeInts sets v[i] to element at+i of an integer or bool tensor; a
// uint64 is kept as its bit pattern.
func DecodeInts(v []int64, src *tensor.Tensor, at int) {
	b := src.Bytes()
	switch src.DataType() {
	case tensor.Int8, tensor.Int4, tensor.Int2:
		for i, x := range b[at : at+len(v)] {
			v[i] = int64(int8(x))
		}
	case tensor.Uint8, tensor.Uint4, tensor.Uint2, tensor.Bool:
		for i, x := range b[at : at+len(v)] {
			v[i] = int64(x)
		}
	case tensor.Int16:
		for i, x := range movement.AsElems[int16](b)[at : at+len(v)] {
			v[i] = int64(x)
		}
	case tensor.Uint16:
		for i, x := range movement.AsElems[uint16](b)[at : at+len(v)] {
			v[i] = int64(x)
		}
	case tensor.Int32:
		for i, x := range movement.AsElems[int32](b)[at : at+len(v)] {
			v[i] = int64(x)
		}
	case tensor.Uint32:
		for i, x := range movement.AsElems[uint32](b)[at : at+len(v)] {
			v[i] = int64(x)
		}
	case tensor.Int64, tensor.Uint64:
		copy(v, movement.AsElems[int64](b)[at:])
	}
}

// encodeInts writes integers (unsigned: the bit patterns of uint64 values)
// into elements at.. of dst.
func encodeInts(dst *tensor.Tensor, at int, v []int64, unsigned bool, o Options) {
	dt := dst.DataType()
	if !dt.IsFloat() {
		StoreInts(dst, at, v)
		return
	}
	value := func(x int64) float64 {
		if unsigned {
			return float64(uint64(x))
		}
		return float64(x)
	}
	if dt == tensor.Float || dt == tensor.BFloat16 {
		// One rounding to float32 (bfloat16 rounds from that float32, as
		// ml_dtypes does), not through float64.
		f := make([]float32, len(v))
		for i, x := range v {
			if unsigned {
				f[i] = float32(uint64(x))
			} else {
				f[i] = float32(x)
			}
		}
		if dt == tensor.Float {
			copy(movement.AsElems[float32](dst.Bytes())[at:], f)
			return
		}
		d := movement.AsElems[uint16](dst.Bytes())[at : at+len(v)]
		for i, x := range f {
			d[i] = F32ToBF16(x)
		}
		return
	}
	f := make([]float64, len(v))
	for i, x := range v {
		f[i] = value(x)
	}
	EncodeFloats(dst, at, f, o)
}

// StoreInts writes integers into an integer or bool tensor: the low bits,
// nonzero as true.
func StoreInts(dst *tensor.Tensor, at int, v []int64) {
	b := dst.Bytes()
	switch dt := dst.DataType(); dt {
	case tensor.Bool:
		for i, x := range v {
			b[at+i] = B2U(x != 0)
		}
	case tensor.Int8, tensor.Uint8:
		for i, x := range v {
			b[at+i] = byte(x)
		}
	case tensor.Int4, tensor.Int2:
		shift := 8 - dt.Bits()
		for i, x := range v {
			b[at+i] = byte(int8(byte(x)<<shift) >> shift)
		}
	case tensor.Uint4, tensor.Uint2:
		mask := byte(1)<<dt.Bits() - 1
		for i, x := range v {
			b[at+i] = byte(x) & mask
		}
	case tensor.Int16, tensor.Uint16:
		d := movement.AsElems[uint16](b)[at : at+len(v)]
		for i, x := range v {
			d[i] = uint16(x)
		}
	case tensor.Int32, tensor.Uint32:
		d := movement.AsElems[uint32](b)[at : at+len(v)]
		for i, x := range v {
			d[i] = uint32(x)
		}
	case tensor.Int64, tensor.Uint64:
		copy(movement.AsElems[int64](b)[at:], v)
	}
}

func B2U(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// floatToInt is the integer a float becomes before it is narrowed: the
// value truncated toward zero, and math.MinInt64 where that is not an
// int64 (NaN, infinities, out of range), as x86's conversion gives. uint64
// targets read values in [2^63, 2^64) exactly.
func floatToInt(x float64, unsigned64 bool) int64 {
	switch {
	case x != x:
		return math.MinInt64
	case unsigned64 && x >= 0x1p63 && x < 0x1p64:
		return int64(uint64(x))
	case x >= 0x1p63 || x < -0x1p63:
		return math.MinInt64
	}
	return int64(x)
}

// EncodeFloats writes float values into elements at.. of dst, of any
// numeric type.
func EncodeFloats(dst *tensor.Tensor, at int, v []float64, o Options) {
	b := dst.Bytes()
	switch dt := dst.DataType(); dt {
	case tensor.Float:
		d := movement.AsElems[float32](b)[at : at+len(v)]
		for i, x := range v {
			d[i] = float32(x)
		}
	case tensor.Double:
		copy(movement.AsElems[float64](b)[at:], v)
	case tensor.Float16:
		d := movement.AsElems[uint16](b)[at : at+len(v)]
		for i, x := range v {
			d[i] = F64ToF16(x)
		}
	case tensor.BFloat16:
		d := movement.AsElems[uint16](b)[at : at+len(v)]
		for i, x := range v {
			d[i] = F32ToBF16(float32(x))
		}
	case tensor.Float8E8M0:
		for i, x := range v {
			b[at+i] = toE8M0(float32(x), o.Saturate, o.RoundMode)
		}
	case tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ, tensor.Float4E2M1:
		f := minifloatOf(dt)
		sat := o.Saturate || dt == tensor.Float4E2M1
		for i, x := range v {
			b[at+i] = f.encode(x, sat)
		}
	case tensor.Bool:
		for i, x := range v {
			b[at+i] = B2U(x != 0)
		}
	default:
		n := make([]int64, len(v))
		u64 := dt == tensor.Uint64
		for i, x := range v {
			n[i] = floatToInt(x, u64)
		}
		StoreInts(dst, at, n)
	}
}

// F32ToF16 rounds the float32 with bits x to the nearest float16, ties to
// even; NaN keeps its sign and the top of its payload (quiet). The normal
// range adds the rounding bias to the bits and shifts; subnormals let the
// FPU round by adding a magic number (F. Giesen's float_to_half_fast3_rtne).
func F32ToF16(x uint32) uint16 {
	sign := uint16(x>>16) & 0x8000
	x &= 0x7FFFFFFF
	switch {
	case x >= 0x47800000: // 65536 and above: overflow, infinity or NaN
		if x > 0x7F800000 {
			return sign | 0x7E00 | uint16(x>>13)&0x3FF
		}
		return sign | 0x7C00
	case x < 0x38800000: // below 2^-14: a float16 subnormal or zero
		const magic = 0x3F000000 // 0.5: puts the subnormal's bits at the bottom, rounded by the FPU
		f := math.Float32frombits(x) + math.Float32frombits(magic)
		return sign | uint16(math.Float32bits(f)-magic)
	}
	odd := (x >> 13) & 1
	x += 0xC8000FFF + odd // rebias the exponent (-112 << 23) and round to nearest even
	return sign | uint16(x>>13)
}

// f32sToF16s is F32ToF16 over a slice: sixteen at a time with F16C where
// the processor has it (the same bits), then the common case (a normal
// float16) written in the loop, which the compiler would not inline.
func f32sToF16s(d []uint16, s []uint32) {
	d = d[:len(s)]
	head := f16AlignHead(d)
	f32sToF16sLoop(d[:head], s[:head])
	done := head + f32sToF16sVector(d[head:], s[head:])
	f32sToF16sLoop(d[done:], s[done:])
}

// f32sToF16sLoop is f32sToF16s one element at a time.
func f32sToF16sLoop(d []uint16, s []uint32) {
	d = d[:len(s)]
	for i, x := range s {
		a := x & 0x7FFFFFFF
		if a-0x38800000 < 0x47800000-0x38800000 { // [2^-14, 65536): normal
			a += 0xC8000FFF + (a>>13)&1
			d[i] = uint16(x>>16)&0x8000 | uint16(a>>13)
			continue
		}
		d[i] = F32ToF16(x)
	}
}

// f16sToF32s is F16ToF32 over a slice, writing float32 bits, its common
// case (a normal float16: rebias the exponent, widen the mantissa) written
// in the loop.
func f16sToF32s(d []uint32, s []uint16) {
	d = d[:len(s)]
	v := f16sToF32sVector(d, s)
	d, s = d[v:], s[v:]
	for i, h := range s {
		if e := h & 0x7C00; e != 0 && e != 0x7C00 {
			d[i] = uint32(h&0x8000)<<16 | (uint32(h&0x7FFF)+0x1C000)<<13
			continue
		}
		d[i] = math.Float32bits(F16ToF32(h))
	}
}

// F16ToF32 returns the float32 value of the float16 with bits h.
func F16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1F
	man := uint32(h & 0x3FF)
	switch {
	case exp == 0x1F:
		return math.Float32frombits(sign | 0x7F800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		v := float32(man) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
}

// F64ToF16 rounds a float64 to the nearest float16, ties to even (one
// rounding, as numpy); NaN keeps its sign, quiet.
func F64ToF16(x float64) uint16 {
	if x != x {
		bits := math.Float64bits(x)
		return uint16(bits>>48)&0x8000 | 0x7E00 | uint16(bits>>42)&0x1FF
	}
	bits, over := float16Format.round(x)
	if over {
		return bits | 0x7C00 // infinity of x's sign
	}
	return bits
}

// F32ToBF16 rounds to the nearest bfloat16, ties to even; NaN becomes the
// quiet NaN of its sign (Eigen's and ml_dtypes' conversion).
func F32ToBF16(f float32) uint16 {
	u := math.Float32bits(f)
	if f != f {
		return uint16(u>>16)&0x8000 | 0x7FC0
	}
	u += 0x7FFF + (u>>16)&1
	return uint16(u >> 16)
}

// minifloat describes a small binary float format: its exponent and
// mantissa widths, bias, and how it spells what it cannot hold.
type minifloat struct {
	exp, man  uint
	bias      int
	max       float64 // the largest finite value
	inf       bool    // has infinities (all-ones exponent, zero mantissa)
	nanBits   uint16  // the NaN it gives (sign added unless unsignedNaN)
	noNegZero bool    // fnuz: -0 does not exist (its bits are NaN)
	hasNaN    bool
}

var (
	float16Format = minifloat{exp: 5, man: 10, bias: 15, max: 65504, inf: true, nanBits: 0x7E00, hasNaN: true}
	e4m3fn        = minifloat{exp: 4, man: 3, bias: 7, max: 448, nanBits: 0x7F, hasNaN: true}
	e4m3fnuz      = minifloat{exp: 4, man: 3, bias: 8, max: 240, nanBits: 0x80, noNegZero: true, hasNaN: true}
	e5m2          = minifloat{exp: 5, man: 2, bias: 15, max: 57344, inf: true, nanBits: 0x7E, hasNaN: true}
	e5m2fnuz      = minifloat{exp: 5, man: 2, bias: 16, max: 57344, nanBits: 0x80, noNegZero: true, hasNaN: true}
	e2m1          = minifloat{exp: 2, man: 1, bias: 1, max: 6}
)

func minifloatOf(dt tensor.DataType) minifloat {
	switch dt {
	case tensor.Float8E4M3FN:
		return e4m3fn
	case tensor.Float8E4M3FNUZ:
		return e4m3fnuz
	case tensor.Float8E5M2:
		return e5m2
	case tensor.Float8E5M2FNUZ:
		return e5m2fnuz
	case tensor.Float4E2M1:
		return e2m1
	case tensor.Float8E8M0:
		return minifloat{exp: 8, bias: 127}
	}
	return float16Format
}

// decode returns the value of the element with bits b. A NaN is the quiet
// NaN of its sign (positive for the types whose NaN has no sign).
func (f minifloat) decode(b byte) float64 {
	if f.man == 0 { // float8e8m0: a power of two, 0xFF NaN
		if b == 0xFF {
			return quietNaN(false)
		}
		return math.Ldexp(1, int(b)-127)
	}
	signBit := byte(1) << (f.exp + f.man)
	mag := b &^ signBit
	switch {
	case f.noNegZero && b == 0x80:
		return quietNaN(false)
	case f.hasNaN && !f.noNegZero && !f.inf && mag == byte(f.nanBits):
		return quietNaN(b&signBit != 0)
	case f.inf && uint(mag)>>f.man == 1<<f.exp-1:
		if mag&(1<<f.man-1) != 0 {
			return quietNaN(b&signBit != 0)
		}
		return math.Inf(1 - 2*int(b>>(f.exp+f.man)))
	}
	e := int(mag >> f.man)
	m := float64(mag & (1<<f.man - 1))
	var v float64
	if e == 0 {
		v = math.Ldexp(m, 1-f.bias-int(f.man))
	} else {
		v = math.Ldexp(m+float64(uint(1)<<f.man), e-f.bias-int(f.man))
	}
	if b&signBit != 0 {
		v = -v
	}
	return v
}

// round rounds |x| (finite) to the format's precision, ties to even, and
// returns the bits with the sign, and whether the result exceeds max.
func (f minifloat) round(x float64) (uint16, bool) {
	sign := uint16(0)
	if math.Signbit(x) {
		sign = 1 << (f.exp + f.man)
		x = -x
	}
	if math.IsInf(x, 0) {
		return sign, true
	}
	minExp := 1 - f.bias
	_, e := math.Frexp(x)
	e-- // x = 1.m * 2^e
	q := max(e, minExp) - int(f.man)
	r := math.RoundToEven(math.Ldexp(x, -q)) // x in units of the last place
	v := math.Ldexp(r, q)
	if v == 0 {
		return sign, false
	}
	if v > f.max {
		return sign, true
	}
	_, e = math.Frexp(v)
	e--
	if e < minExp {
		return sign | uint16(r), false
	}
	m := uint16(math.Ldexp(v, int(f.man)-e)) &^ (1 << f.man)
	return sign | uint16(e+f.bias)<<f.man | m, false
}

// encode converts x to the format: to nearest even; past max, the largest
// finite value of x's sign when saturating, else infinity or NaN as the
// Cast tables say; fnuz types have no -0.
func (f minifloat) encode(x float64, saturate bool) byte {
	signBit := uint16(1) << (f.exp + f.man)
	neg := math.Signbit(x)
	if x != x {
		switch {
		case !f.hasNaN: // float4e2m1 has no NaN: ml_dtypes writes the bits of -0
			return byte(signBit)
		case f.noNegZero:
			return byte(f.nanBits)
		}
		return byte(f.nanBits | signIf(neg, signBit))
	}
	bits, over := f.round(x)
	if over {
		switch {
		case saturate || !f.hasNaN:
			return byte(f.maxBits() | signIf(neg, signBit))
		case f.inf:
			return byte(uint16(1<<f.exp-1)<<f.man | signIf(neg, signBit))
		case f.noNegZero:
			return byte(f.nanBits)
		}
		return byte(f.nanBits | signIf(neg, signBit))
	}
	if f.noNegZero && bits == signBit {
		return 0
	}
	return byte(bits)
}

func signIf(neg bool, bit uint16) uint16 {
	if neg {
		return bit
	}
	return 0
}

// quietNaN is the float64 quiet NaN without payload of the sign.
func quietNaN(neg bool) float64 {
	if neg {
		return math.Float64frombits(0xFFF8 << 48)
	}
	return math.Float64frombits(0x7FF8 << 48)
}

// maxBits are the bits of the largest finite value.
func (f minifloat) maxBits() uint16 {
	b, _ := f.round(f.max)
	return b
}

// toE8M0 converts to float8e8m0 as the ONNX reference evaluator does
// (onnx.numpy_helper.to_float8e8m0): from the float32's exponent bits,
// rounded by mode, NaN and infinities to 0xFF, the sign ignored.
func toE8M0(x float32, saturate bool, mode string) byte {
	u := math.Float32bits(x)
	exp := uint16(u>>23) & 0xFF
	if exp == 0xFF {
		return 0xFF
	}
	up := false
	switch mode {
	case "nearest":
		g, r, s := u&0x400000 != 0, u&0x200000 != 0, u&0x1FFFFF != 0
		up = g && (r || s || exp > 0)
	case "up":
		up = u&0x7FFFFF != 0
	}
	if up && !(saturate && exp == 0xFE) {
		exp++
	}
	return byte(exp)
}

// convertStrings converts to or from strings (from string to string is a
// copy).
func convertStrings(dst, src *tensor.Tensor, lo, hi int, o Options) error {
	if src.DataType() == tensor.String && dst.DataType() == tensor.String {
		copy(dst.Strings()[lo:hi], src.Strings()[lo:hi])
		return nil
	}
	if dst.DataType() == tensor.String {
		d := dst.Strings()
		for i := lo; i < hi; i++ {
			d[i] = formatElement(src, i)
		}
		return nil
	}
	s := src.Strings()
	ddt := dst.DataType()
	for i := lo; i < hi; i++ {
		if ddt.IsFloat() || ddt == tensor.Bool { // bool: the number is nonzero
			f, err := parseFloatString(s[i])
			if err != nil {
				return err
			}
			EncodeFloats(dst, i, []float64{f}, o)
			continue
		}
		n, err := parseIntString(s[i])
		if err != nil {
			return err
		}
		encodeInts(dst, i, []int64{n}, ddt == tensor.Uint64, o)
	}
	return nil
}

// errNotNumber is the error of a string Cast cannot read as a number.
type errNotNumber string

func (e errNotNumber) Error() string { return strconv.Quote(string(e)) + " is not a number" }

// parseFloatString reads a number as ONNX Cast does: plain or scientific,
// and "INF", "+INF", "-INF", "NaN" in any case.
func parseFloatString(s string) (float64, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "INF", "+INF", "INFINITY", "+INFINITY":
		return math.Inf(1), nil
	case "-INF", "-INFINITY":
		return math.Inf(-1), nil
	case "NAN", "+NAN", "-NAN":
		return math.NaN(), nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil && !isRangeErr(err) {
		return 0, errNotNumber(s)
	}
	return f, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// parseIntString reads an integer; a decimal such as "100.5" gives its
// integer part (the specification's "may yield result 100"). Integers
// beyond int64 keep their low 64 bits through uint64 where they fit.
func parseIntString(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if n, err := strconv.ParseInt(t, 10, 64); err == nil {
		return n, nil
	}
	if n, err := strconv.ParseUint(t, 10, 64); err == nil {
		return int64(n), nil
	}
	f, err := parseFloatString(t)
	if err != nil {
		return 0, err
	}
	return floatToInt(f, true), nil
}

// formatElement writes element i of a numeric tensor as numpy's astype(str)
// does: integers in decimal, bool as True and False, floats in the
// shortest form that reads back to the same value of their type, positional
// between 1e-4 and 1e16 (with ".0" for whole numbers), scientific
// otherwise; nan, inf, -inf.
func formatElement(t *tensor.Tensor, i int) string {
	dt := t.DataType()
	switch {
	case dt == tensor.Bool:
		if t.Bytes()[i] != 0 {
			return "True"
		}
		return "False"
	case dt == tensor.Uint64:
		return strconv.FormatUint(movement.AsElems[uint64](t.Bytes())[i], 10)
	case dt.IsInteger():
		var v [1]int64
		DecodeInts(v[:], t, i)
		return strconv.FormatInt(v[0], 10)
	}
	var v [1]float64
	DecodeFloats(v[:], t, i)
	bits := 64
	if dt != tensor.Double {
		bits = 32
	}
	return formatFloat(v[0], bits, dt)
}

func formatFloat(x float64, bits int, dt tensor.DataType) string {
	switch {
	case x != x:
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	prec := -1
	if dt != tensor.Float && dt != tensor.Double {
		prec = shortestDigits(x, dt)
	}
	a := math.Abs(x)
	if a != 0 && (a < 1e-4 || a >= 1e16) {
		return strconv.FormatFloat(x, 'e', prec, bits)
	}
	s := strconv.FormatFloat(x, 'f', -1, bits)
	if prec >= 0 {
		s = trimFixed(strconv.FormatFloat(x, 'e', prec, 64))
	}
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// shortestDigits is the fewest digits after the point, in scientific form,
// that read back to x in type dt (a type narrower than float32).
func shortestDigits(x float64, dt tensor.DataType) int {
	t := tensor.MustNew(dt, 1)
	EncodeFloats(t, 0, []float64{x}, DefaultCast)
	want := t.Bytes()[0:dt.Size()]
	u := tensor.MustNew(dt, 1)
	for p := 0; p < 17; p++ {
		y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', p, 64), 64)
		EncodeFloats(u, 0, []float64{y}, DefaultCast)
		if string(u.Bytes()) == string(want) {
			return p
		}
	}
	return -1
}

// trimFixed turns a scientific string into positional notation.
func trimFixed(s string) string {
	f, _ := strconv.ParseFloat(s, 64)
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// Float16sToFloat32s widens the float16s with bits src into dst, as
// F16ToF32 does each (sixteen at a time with F16C where the processor has
// it), but for a signalling NaN, which comes out quiet, as
// github.com/x448/float16 (and so the reference engine) widens it: the
// kernels that compute float16 in float32 load their inputs through it.
func Float16sToFloat32s(dst []float32, src []uint16) {
	d := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst))
	src = src[:len(dst)]
	f16sToF32s(d, src)
	// Four halves at a time (once src is 8-byte aligned), looked at one
	// by one only when one has the exponent of an infinity or NaN (a lane
	// of t is then zero).
	const exp, ones, tops = 0x7C007C007C007C00, 0x0001000100010001, 0x8000800080008000
	head := 0
	for head < len(src) && uintptr(unsafe.Pointer(&src[head]))%8 != 0 {
		head++
	}
	quietSignalling(d[:head], src[:head])
	words := (len(src) - head) / 4
	if words > 0 {
		for w, x := range unsafe.Slice((*uint64)(unsafe.Pointer(&src[head])), words) {
			if t := x&exp ^ exp; (t-ones)&^t&tops != 0 {
				i := head + 4*w
				quietSignalling(d[i:i+4], src[i:i+4])
			}
		}
	}
	i := head + 4*words
	quietSignalling(d[i:], src[i:])
}

// quietSignalling sets the quiet bit of the float32s in d widened from the
// signalling NaNs of src.
func quietSignalling(d []uint32, src []uint16) {
	for i, h := range src {
		if h&0x7E00 == 0x7C00 && h&0x1FF != 0 {
			d[i] |= 0x00400000
		}
	}
}

// Float32sToFloat16s rounds src to float16 bits in dst, as F32ToF16 does
// each (F16C's VCVTPS2PH where the processor has it).
func Float32sToFloat16s(dst []uint16, src []float32) {
	f32sToF16s(dst[:len(src)], unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(src))), len(src)))
}
