package reference

// Cast (versions 1, 6, 9, 13, 19, 21, 23, 24, 25) and CastLike (15, 19,
// 21, 23, 24, 25), after the ONNX specification and, where it leaves the
// result open, the ONNX reference evaluator (op_cast.py: numpy's and
// ml_dtypes' astype):
//
//	"Casting from floating point to: floating point: +/- infinity if OOR
//	(out of range). fixed point: undefined if OOR. bool: +/- 0.0 to False;
//	all else to True."
//	"Casting from fixed point to: floating point: +/- infinity if OOR.
//	fixed point: when OOR, discard higher bits and reinterpret (with respect
//	to two's complement representation for signed types). bool: zero to
//	False; nonzero to True."
//	"Casting from bool to: floating point: {1.0, 0.0}. fixed point: {1, 0}."
//	The float 8 tables: saturate clamps [x] > FLT_MAX to FLT_MAX; without
//	it, NaN (E4M3FN, the FNUZ types) or Inf (E5M2). "else: RNE".
//
// Each element is taken to its exact value, then to the nearest value of
// the target type found in the list of the type's values (ties to the even
// code), or to the integer it stands for modulo 2^bits.

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Cast", []int{1, 6, 9, 13, 19, 21, 23, 24, 25}, castKernel)
	register("CastLike", []int{15, 19, 21, 23, 24, 25}, castLikeKernel)
}

// castFirstVersion is the first version of Cast that has each type.
func castFirstVersion(dt tensor.DataType) int {
	switch dt {
	case tensor.String:
		return 9
	case tensor.BFloat16:
		return 13
	case tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ:
		return 19
	case tensor.Int4, tensor.Uint4:
		return 21
	case tensor.Float4E2M1:
		return 23
	case tensor.Float8E8M0:
		return 24
	case tensor.Int2, tensor.Uint2:
		return 25
	case tensor.Float, tensor.Double, tensor.Float16, tensor.Bool, tensor.Int8, tensor.Int16, tensor.Int32,
		tensor.Int64, tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64:
		return 1
	}
	return math.MaxInt32
}

type castAttrs struct {
	saturate  bool
	roundMode string
}

func readCastAttrs(n *ops.Node) (castAttrs, error) {
	a := castAttrs{saturate: true, roundMode: "up"}
	if n.Version >= 19 {
		s, err := n.Int("saturate", 1)
		if err != nil {
			return a, err
		}
		a.saturate = s != 0
	}
	if n.Version >= 24 {
		m, err := n.Str("round_mode", "up")
		if err != nil {
			return a, err
		}
		a.roundMode = m
	}
	return a, nil
}

func castKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := requiredInput(opOf(n), in, 0, "input")
	if err != nil {
		return nil, err
	}
	attr, ok := n.Attrs["to"]
	if !ok {
		return nil, opOf(n).errorf("to", "attribute to is required")
	}
	to := tensor.DataType(attr.Int)
	if n.Version < 6 {
		if to, err = tensor.ParseDataType(strings.ToLower(attr.String)); err != nil {
			return nil, opOf(n).errorf("to", "%v", err)
		}
	}
	a, err := readCastAttrs(n)
	if err != nil {
		return nil, err
	}
	return castTo(opt, n, x, to, a)
}

func castLikeKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := requiredInput(opOf(n), in, 0, "input")
	if err != nil {
		return nil, err
	}
	like, err := requiredInput(opOf(n), in, 1, "target_type")
	if err != nil {
		return nil, err
	}
	a, err := readCastAttrs(n)
	if err != nil {
		return nil, err
	}
	return castTo(opt, n, x, like.DataType(), a)
}

func castTo(opt *ops.Options, n *ops.Node, x *tensor.Tensor, to tensor.DataType, a castAttrs) ([]tensor.Value, error) {
	if castFirstVersion(to) > n.Version {
		return nil, opOf(n).errorf("to", "cannot convert to %v", to)
	}
	if castFirstVersion(x.DataType()) > n.Version {
		return nil, opOf(n).errorf("type", "cannot convert from %v", x.DataType())
	}
	if a.roundMode != "up" && a.roundMode != "down" && a.roundMode != "nearest" {
		return nil, opOf(n).errorf("round_mode", "round_mode %q", a.roundMode)
	}
	y, err := newTensor(opt, opOf(n), to, x.Shape())
	if err != nil {
		return nil, err
	}
	for i := range x.Len() {
		if x.DataType() == to { // a conversion to the same type changes nothing
			copyElement(y, i, x, i)
			continue
		}
		v := exactValue(x, i)
		if v.kind == 'f' && v.f != v.f && (to == tensor.Float || to == tensor.Double || to == tensor.Float16) {
			neg, payload := nanOf(x, i)
			bits := nanBits(to, x.DataType(), neg, payload)
			for k := range to.Size() {
				y.Bytes()[i*to.Size()+k] = byte(bits >> (8 * k))
			}
			continue
		}
		if v.kind == 's' && to != tensor.String {
			var ok bool
			if v, ok = parseNumber(v.s, to.IsFloat() || to == tensor.Bool); !ok {
				return nil, opOf(n).errorf("string", "%q is not a number", x.Strings()[i])
			}
		}
		storeValue(y, x, i, v, a)
	}
	return []tensor.Value{y}, nil
}

// number is the exact value of one element: an integer (int, or uint for
// uint64 values past int64), a float, or a string.
type number struct {
	kind  byte // 'i' integer, 'u' unsigned 64-bit integer, 'f' float, 's' string
	i     int64
	u     uint64
	f     float64
	s     string
	float tensor.DataType // the source's type, for writing floats as text
}

// NaN payloads are outside the specification; the reference evaluator's
// conversions (numpy's and the hardware's) keep a NaN's sign and the top
// bits of its payload, setting the quiet bit, except float16 to float32
// (numpy's npy_half_to_float), which keeps the bits as they are. bfloat16
// and the float 8 types write their one quiet NaN of the sign (ml_dtypes);
// a float 8 NaN reads as the quiet NaN of its sign (positive for the FNUZ
// types and float8e8m0, whose NaN has no sign).

// nanOf returns the sign and payload (aligned to float64's 52 mantissa
// bits) of a NaN element of a float type.
func nanOf(t *tensor.Tensor, i int) (neg bool, payload uint64) {
	b := t.Bytes()
	switch t.DataType() {
	case tensor.Float:
		u := uint64(b[4*i]) | uint64(b[4*i+1])<<8 | uint64(b[4*i+2])<<16 | uint64(b[4*i+3])<<24
		return u>>31 == 1, (u & 0x7FFFFF) << 29
	case tensor.Double:
		var u uint64
		for k := 7; k >= 0; k-- {
			u = u<<8 | uint64(b[8*i+k])
		}
		return u>>63 == 1, u & (1<<52 - 1)
	case tensor.Float16:
		u := uint64(b[2*i]) | uint64(b[2*i+1])<<8
		return u>>15 == 1, (u & 0x3FF) << 42
	case tensor.BFloat16:
		u := uint64(b[2*i]) | uint64(b[2*i+1])<<8
		return u>>15 == 1, (u & 0x7F) << 45
	case tensor.Float8E4M3FN, tensor.Float8E5M2:
		return b[i]&0x80 != 0, 1 << 51
	}
	return false, 1 << 51
}

// nanBits returns the bits of the NaN of type dt (float, double or float16)
// that a NaN of sign neg and payload becomes, coming from type from.
func nanBits(dt, from tensor.DataType, neg bool, payload uint64) uint64 {
	var sign uint64
	if neg {
		sign = 1
	}
	switch dt {
	case tensor.Double:
		return sign<<63 | 0x7FF<<52 | payload | 1<<51
	case tensor.Float:
		quiet := uint64(1) << 22
		if from == tensor.Float16 {
			quiet = 0
		}
		return sign<<31 | 0x7F800000 | payload>>29 | quiet
	}
	return sign<<15 | 0x7C00 | payload>>42 | 0x200
}

func exactValue(t *tensor.Tensor, i int) number {
	dt := t.DataType()
	b := t.Bytes()
	le := func(size int) uint64 {
		var v uint64
		for k := size - 1; k >= 0; k-- {
			v = v<<8 | uint64(b[i*size+k])
		}
		return v
	}
	switch dt {
	case tensor.String:
		return number{kind: 's', s: t.Strings()[i]}
	case tensor.Bool, tensor.Uint8, tensor.Uint4, tensor.Uint2, tensor.Uint16, tensor.Uint32:
		return number{kind: 'i', i: int64(le(dt.Size()))}
	case tensor.Int8, tensor.Int4, tensor.Int2:
		return number{kind: 'i', i: int64(int8(b[i]))}
	case tensor.Int16:
		return number{kind: 'i', i: int64(int16(le(2)))}
	case tensor.Int32:
		return number{kind: 'i', i: int64(int32(le(4)))}
	case tensor.Int64:
		return number{kind: 'i', i: int64(le(8))}
	case tensor.Uint64:
		return number{kind: 'u', u: le(8)}
	case tensor.Float:
		return number{kind: 'f', f: float64(math.Float32frombits(uint32(le(4)))), float: dt}
	case tensor.Double:
		return number{kind: 'f', f: math.Float64frombits(le(8)), float: dt}
	case tensor.Float16:
		return number{kind: 'f', f: float16Value(uint16(le(2))), float: dt}
	case tensor.BFloat16:
		return number{kind: 'f', f: float64(math.Float32frombits(uint32(le(2)) << 16)), float: dt}
	}
	return number{kind: 'f', f: minifloatValue(dt, b[i]), float: dt}
}

// float16Value is the value of IEEE half-precision bits h.
func float16Value(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10)&0x1F, float64(h&0x3FF)
	switch {
	case e == 0x1F && m == 0:
		return sign * math.Inf(1)
	case e == 0x1F: // NaN: its sign and payload widened, as IEEE widening keeps them
		return math.Float64frombits(uint64(h>>15)<<63 | 0x7FF<<52 | uint64(h&0x3FF)<<42)
	case e == 0:
		return sign * m * math.Ldexp(1, -24)
	}
	return sign * (1 + m/1024) * math.Ldexp(1, e-15)
}

// minifloatValue is the value of the one-byte float types, by their
// definitions (ONNX docs/docsgen "Float stored in 8 bits" and IR.md).
func minifloatValue(dt tensor.DataType, b byte) float64 {
	var expBits, manBits, bias int
	switch dt {
	case tensor.Float8E8M0:
		if b == 0xFF {
			return math.NaN()
		}
		return math.Ldexp(1, int(b)-127)
	case tensor.Float4E2M1:
		expBits, manBits, bias = 2, 1, 1
	case tensor.Float8E4M3FN:
		if b&0x7F == 0x7F {
			return math.Copysign(math.NaN(), float64(1-int(b>>7)*2))
		}
		expBits, manBits, bias = 4, 3, 7
	case tensor.Float8E4M3FNUZ:
		if b == 0x80 {
			return math.NaN()
		}
		expBits, manBits, bias = 4, 3, 8
	case tensor.Float8E5M2:
		if b&0x7C == 0x7C {
			if b&0x03 == 0 {
				return math.Inf(1 - 2*int(b>>7))
			}
			return math.Copysign(math.NaN(), float64(1-int(b>>7)*2))
		}
		expBits, manBits, bias = 5, 2, 15
	case tensor.Float8E5M2FNUZ:
		if b == 0x80 {
			return math.NaN()
		}
		expBits, manBits, bias = 5, 2, 16
	}
	signBit := 1 << (expBits + manBits)
	sign := 1.0
	if int(b)&signBit != 0 {
		sign = -1
	}
	e := int(b) >> manBits & (1<<expBits - 1)
	m := float64(int(b) & (1<<manBits - 1))
	if e == 0 {
		return sign * m * math.Ldexp(1, 1-bias-manBits)
	}
	return sign * (1 + m/float64(int(1)<<manBits)) * math.Ldexp(1, e-bias)
}

// storeValue writes v into element i of y, converted to y's type.
func storeValue(y, x *tensor.Tensor, i int, v number, a castAttrs) {
	dt := y.DataType()
	switch {
	case dt == tensor.String && x.DataType() == tensor.Bool: // numpy writes True and False
		y.Strings()[i] = map[bool]string{true: "True", false: "False"}[v.i != 0]
	case dt == tensor.String:
		y.Strings()[i] = numberText(v)
	case dt == tensor.Bool:
		nonzero := (v.kind == 'i' && v.i != 0) || (v.kind == 'u' && v.u != 0) || (v.kind == 'f' && v.f != 0)
		y.Bytes()[i] = 0
		if nonzero {
			y.Bytes()[i] = 1
		}
	case dt.IsFloat():
		var f float64
		switch v.kind {
		case 'i':
			f = intToFloat(v.i, dt)
		case 'u':
			f = float64(v.u)
			if dt == tensor.Float || dt == tensor.BFloat16 {
				f = float64(float32(v.u))
			}
		default:
			f = v.f
		}
		putFloat(y, i, f, a)
	default:
		putInt(y, i, integerOf(v, dt))
	}
}

// intToFloat is an integer as the float a conversion to dt starts from:
// float32 and bfloat16 from the integer rounded once to float32, the
// others from float64.
func intToFloat(x int64, dt tensor.DataType) float64 {
	if dt == tensor.Float || dt == tensor.BFloat16 {
		return float64(float32(x))
	}
	return float64(x)
}

// integerOf is the integer v stands for: a float truncated toward zero, or
// math.MinInt64 when that is no int64 (NaN, infinities, out of range; the
// specification leaves it undefined, x86 gives this), uint64 targets
// reading [2^63, 2^64) exactly.
func integerOf(v number, dt tensor.DataType) uint64 {
	switch v.kind {
	case 'i':
		return uint64(v.i)
	case 'u':
		return v.u
	}
	t := math.Trunc(v.f)
	switch {
	case dt == tensor.Uint64 && t >= 0x1p63 && t < 0x1p64:
		return uint64(t)
	case t != t || t >= 0x1p63 || t < -0x1p63:
		return 1 << 63
	}
	return uint64(int64(t))
}

// putInt writes the integer x (as 64 two's complement bits) modulo 2^bits
// of the type, reinterpreted as signed for signed types.
func putInt(y *tensor.Tensor, i int, x uint64) {
	dt := y.DataType()
	bits := dt.Bits()
	if dt.Size() == 1 && bits < 8 { // int4, uint4, int2, uint2, stored one per byte
		low := x % (1 << bits)
		if dt.IsSigned() && low >= 1<<(bits-1) {
			y.Bytes()[i] = byte(int8(int64(low) - 1<<bits))
		} else {
			y.Bytes()[i] = byte(low)
		}
		return
	}
	size := dt.Size()
	for k := range size {
		y.Bytes()[i*size+k] = byte(x >> (8 * k))
	}
}

// putFloat writes the float f into element i of a float tensor.
func putFloat(y *tensor.Tensor, i int, f float64, a castAttrs) {
	dt := y.DataType()
	b := y.Bytes()
	switch dt {
	case tensor.Double:
		u := math.Float64bits(f)
		for k := range 8 {
			b[i*8+k] = byte(u >> (8 * k))
		}
		return
	case tensor.Float:
		u := math.Float32bits(float32(f)) // IEEE conversion: round to nearest even
		for k := range 4 {
			b[i*4+k] = byte(u >> (8 * k))
		}
		return
	case tensor.Float8E8M0:
		b[i] = e8m0Of(float32(f), a)
		return
	}
	var code uint16
	if dt == tensor.BFloat16 {
		code = nearestCode(dt, float64(float32(f)), false) // ml_dtypes rounds to float32 first
	} else {
		// saturate applies to the float 8 types; float16 overflows to
		// infinity; float4e2m1, without infinity, saturates.
		saturate := a.saturate
		switch dt {
		case tensor.Float16:
			saturate = false
		case tensor.Float4E2M1:
			saturate = true
		}
		code = nearestCode(dt, f, saturate)
	}
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		b[i*2], b[i*2+1] = byte(code), byte(code>>8)
		return
	}
	b[i] = byte(code)
}

// e8m0Of follows the reference evaluator's to_float8e8m0: the float32's
// exponent, rounded by round_mode; NaN and infinities give 0xFF.
func e8m0Of(f float32, a castAttrs) byte {
	u := math.Float32bits(f)
	e := u >> 23 & 0xFF
	if e == 0xFF {
		return 0xFF
	}
	fraction := u & 0x7FFFFF
	var up bool
	switch a.roundMode {
	case "up":
		up = fraction != 0
	case "nearest":
		guard := fraction>>22&1 == 1
		rest := fraction&0x3FFFFF != 0
		up = guard && (rest || e > 0)
	}
	if up && (e < 0xFE || !a.saturate) {
		e++
	}
	return byte(e)
}

// A float type's non-negative finite values in increasing order, with
// their codes.
type valueList struct {
	values []float64
	codes  []uint16
}

var valueLists sync.Map // tensor.DataType -> *valueList

func valuesOf(dt tensor.DataType) *valueList {
	if l, ok := valueLists.Load(dt); ok {
		return l.(*valueList)
	}
	l := &valueList{}
	n, signBit := 256, uint16(0x80)
	switch dt {
	case tensor.Float16, tensor.BFloat16:
		n, signBit = 65536, 0x8000
	case tensor.Float4E2M1:
		n, signBit = 16, 0x8
	}
	for c := range n {
		code := uint16(c)
		if code&signBit != 0 {
			continue
		}
		var v float64
		switch dt {
		case tensor.Float16:
			v = float16Value(code)
		case tensor.BFloat16:
			v = float64(math.Float32frombits(uint32(code) << 16))
		default:
			v = minifloatValue(dt, byte(code))
		}
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			l.values = append(l.values, v)
			l.codes = append(l.codes, code)
		}
	}
	// The codes without the sign bit grow with their values in each of
	// these formats, so the list is built in increasing order.
	valueLists.Store(dt, l)
	return l
}

// nearestCode is the code of dt nearest to f, ties to the even code; past
// the largest finite value (by more than half its last place, or by
// exactly half where the largest code is odd), the largest value when
// saturating, else infinity or NaN as the type has them. NaN stays NaN as
// the reference evaluator spells it for the type.
func nearestCode(dt tensor.DataType, f float64, saturate bool) uint16 {
	signBit := uint16(0x80)
	switch dt {
	case tensor.Float16, tensor.BFloat16:
		signBit = 0x8000
	case tensor.Float4E2M1:
		signBit = 0x8
	}
	neg := math.Signbit(f)
	sign := uint16(0)
	if neg {
		sign = signBit
	}
	fnuz := dt == tensor.Float8E4M3FNUZ || dt == tensor.Float8E5M2FNUZ
	if f != f {
		switch dt {
		case tensor.Float16:
			return sign | 0x7E00 | uint16(math.Float64bits(f)>>42)&0x1FF
		case tensor.BFloat16:
			return sign | 0x7FC0
		case tensor.Float8E4M3FN:
			return sign | 0x7F
		case tensor.Float8E5M2:
			return sign | 0x7E
		case tensor.Float4E2M1:
			return 0x8 // no NaN: ml_dtypes writes the bits of -0
		}
		return 0x80 // the FNUZ NaN
	}
	l := valuesOf(dt)
	a := math.Abs(f)
	top := len(l.values) - 1
	maxValue, maxCode := l.values[top], l.codes[top]
	half := (maxValue - l.values[top-1]) / 2
	if a > maxValue+half || (a == maxValue+half && maxCode&1 == 1) || math.IsInf(a, 1) {
		switch {
		case saturate:
			return sign | maxCode
		case dt == tensor.Float16:
			return sign | 0x7C00
		case dt == tensor.BFloat16:
			return sign | 0x7F80
		case dt == tensor.Float8E5M2:
			return sign | 0x7C
		case dt == tensor.Float8E4M3FN:
			return sign | 0x7F
		}
		return 0x80
	}
	k := sort.SearchFloat64s(l.values, a) // first value >= a
	code := l.codes[min(k, top)]
	if k > 0 && (k > top || a-l.values[k-1] < l.values[k]-a ||
		(a-l.values[k-1] == l.values[k]-a && l.codes[k-1]&1 == 0)) {
		code = l.codes[k-1]
	}
	if code == 0 && fnuz {
		return 0 // no -0
	}
	return sign | code
}

// parseNumber reads a string as the specification says: plain or
// scientific numbers, "+INF", "INF", "-INF", "NaN" in any case; integers
// from their digits ("100.5" may yield 100).
func parseNumber(s string, float bool) (number, bool) {
	t := strings.TrimSpace(s)
	switch strings.ToUpper(t) {
	case "INF", "+INF", "INFINITY", "+INFINITY":
		return number{kind: 'f', f: math.Inf(1)}, true
	case "-INF", "-INFINITY":
		return number{kind: 'f', f: math.Inf(-1)}, true
	case "NAN", "+NAN", "-NAN":
		return number{kind: 'f', f: math.NaN()}, true
	}
	if !float {
		if n, err := strconv.ParseInt(t, 10, 64); err == nil {
			return number{kind: 'i', i: n}, true
		}
		if n, err := strconv.ParseUint(t, 10, 64); err == nil {
			return number{kind: 'u', u: n}, true
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if ne, ok := err.(*strconv.NumError); ok && ne.Err != strconv.ErrRange {
		return number{}, false
	}
	return number{kind: 'f', f: f}, true
}

// numberText writes a number as numpy's astype(str).
func numberText(v number) string {
	switch v.kind {
	case 's':
		return v.s
	case 'i':
		return strconv.FormatInt(v.i, 10)
	case 'u':
		return strconv.FormatUint(v.u, 10)
	}
	f := v.f
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	// the fewest significant digits that read back to the same value of
	// the source type
	var text string
	for digits := 1; digits <= 17; digits++ {
		text = strconv.FormatFloat(f, 'e', digits-1, 64)
		back, _ := strconv.ParseFloat(text, 64)
		if sameInType(back, f, v.float) {
			break
		}
	}
	a := math.Abs(f)
	if a != 0 && (a < 1e-4 || a >= 1e16) {
		return text
	}
	back, _ := strconv.ParseFloat(text, 64)
	out := strconv.FormatFloat(back, 'f', -1, 64)
	if !strings.Contains(out, ".") {
		out += ".0"
	}
	return out
}

// sameInType reports whether x and y are the same value of type dt.
func sameInType(x, y float64, dt tensor.DataType) bool {
	switch dt {
	case tensor.Double:
		return x == y
	case tensor.Float:
		return float32(x) == float32(y)
	case tensor.Float8E8M0:
		return e8m0Of(float32(x), castAttrs{saturate: true, roundMode: "up"}) == e8m0Of(float32(y), castAttrs{saturate: true, roundMode: "up"})
	}
	return nearestCode(dt, x, true) == nearestCode(dt, y, true)
}
