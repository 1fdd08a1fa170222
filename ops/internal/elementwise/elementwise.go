// The elementwise engine: what every elementwise operator (arithmetic,
// comparison, logic, bitwise, math functions, activations, Where) shares.
//
// Broadcasting follows onnxruntime's element_wise_ops.h: the output shape
// is walked in spans, runs of elements along the innermost axis after
// merging every run of axes over which each input either advances or stays
// put alike. Over a span each input is either a contiguous run (step 1) or
// a single element (step 0, a broadcast scalar), so a binary operator is
// three loops: left input scalar, right input scalar, both spans. Unary
// operators are one loop over contiguous chunks.
//
// Go does not vectorize: the float32 and float64 loops of Add, Sub, Mul and
// Div, Relu's float32 loop and Where's 4-byte select run AVX loops on amd64
// (arith_amd64.s, written by scripts/gen-arith-asm.py), Go the ends of each
// span and every other loop.
//
// float16 and bfloat16 compute through float32, as onnxruntime does: each
// chunk of a span is widened to float32, run through the operator's float32
// loop and rounded back once to the 16-bit type (docs/divergences.md).

package ops

import (
	"math"
	"unsafe"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// typeSet is a set of element types, one bit per tensor.DataType.
type typeSet uint64

func typesOf(dts ...tensor.DataType) typeSet {
	var s typeSet
	for _, dt := range dts {
		s |= 1 << uint(dt)
	}
	return s
}

func (s typeSet) has(dt tensor.DataType) bool { return dt >= 0 && dt < 64 && s&(1<<uint(dt)) != 0 }

// The type lists the ONNX schemas of the elementwise operators use.
var (
	floatTypes    = typesOf(tensor.Float16, tensor.Float, tensor.Double)
	floatBFTypes  = floatTypes | typesOf(tensor.BFloat16)
	unsignedTypes = typesOf(tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64)
	signedTypes   = typesOf(tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64)
	intTypes      = unsignedTypes | signedTypes
	int3264Types  = typesOf(tensor.Int32, tensor.Int64, tensor.Uint32, tensor.Uint64)
	numberTypes   = intTypes | floatTypes
	numberBFTypes = numberTypes | typesOf(tensor.BFloat16)
	boolTypes     = typesOf(tensor.Bool)
	float8Types   = typesOf(tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ)
)

// versionTypes maps each since-version of an operator to the element types
// it allows for its input T.
type versionTypes map[int]typeSet

// check refuses a type version v does not allow.
func (vt versionTypes) check(op opRef, what string, dt tensor.DataType) error {
	if !vt[op.version].has(dt) {
		return op.errorf("type", "%s of type %v is not allowed in version %d", what, dt, op.version)
	}
	return nil
}

// Element type groups the engine's kernels are generic over.
type (
	integer interface {
		~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
	}
	signedInteger interface {
		~int8 | ~int16 | ~int32 | ~int64
	}
	floating     interface{ ~float32 | ~float64 }
	number       interface{ integer | floating }
	signedNumber interface{ signedInteger | floating }
)

// elems views a tensor's storage as []E (E must be its element's Go type,
// or one of the same size for movement).
func elems[E any](t *tensor.Tensor) []E {
	var zero E
	if _, ok := any(zero).(string); ok {
		return any(t.Strings()).([]E)
	}
	return asElems[E](t.Bytes())
}

// broadcastWalk visits an output in spans. outer are the merged outer
// dims of the output and strides[i] the strides (in elements, 0 where
// broadcast) of input i over them; every span is span elements long, over
// which input i advances step[i] (0 or 1) per element.
type broadcastWalk struct {
	n       int
	outer   []int
	strides [][]int
	span    int
	step    []int
}

// newBroadcastWalk plans the walk of an output of shape out whose inputs,
// of shapes ins, broadcast to it (checked by the caller).
func newBroadcastWalk(out []int, ins ...[]int) *broadcastWalk {
	w := &broadcastWalk{n: 1, span: 1, step: make([]int, len(ins)), strides: make([][]int, len(ins))}
	for _, d := range out {
		w.n *= d
	}
	// present[k][i]: input i advances along merged axis k.
	var dims []int
	var present [][]bool
	for ax, d := range out {
		if d == 1 {
			continue // an axis of one element does not move any input
		}
		p := make([]bool, len(ins))
		for i, s := range ins {
			k := ax - (len(out) - len(s))
			p[i] = k >= 0 && s[k] != 1
		}
		if len(dims) > 0 && equalBools(present[len(present)-1], p) {
			dims[len(dims)-1] *= d
			continue
		}
		dims = append(dims, d)
		present = append(present, p)
	}
	if len(dims) == 0 {
		for i := range w.step {
			w.step[i] = 1
		}
		return w
	}
	last := len(dims) - 1
	w.span = dims[last]
	w.outer = dims[:last]
	for i := range ins {
		if present[last][i] {
			w.step[i] = 1
		}
		st := make([]int, last)
		stride := 1
		if present[last][i] {
			stride = w.span
		}
		for k := last - 1; k >= 0; k-- {
			if present[k][i] {
				st[k] = stride
				stride *= dims[k]
			}
		}
		w.strides[i] = st
	}
	return w
}

func equalBools(a, b []bool) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// maxPiece is the longest run of a span handed to f at once: a span of a
// whole tensor (inputs of one shape) is cut so that the cores share it.
const maxPiece = 1 << 16

// run calls f over every span, or piece of a long span, with its output
// offset, each input's offset and its length, splitting the work across
// the run's cores when the output is large; elemBytes is the output's
// element size, to weigh the work. It returns the run's cancellation,
// polled between pieces, and then the output is incomplete.
func (w *broadcastWalk) run(opt *Options, elemBytes int, f func(out int, in []int, n int)) error {
	opt = opt.orDefault()
	if err := opt.cancelled(); err != nil || w.n == 0 {
		return err
	}
	spans := w.n / w.span
	work := w.n / 4 * max(elemBytes, 1) // 32-bit ints: no overflow below the 2 GiB cap
	if pieces := (w.span + maxPiece - 1) / maxPiece; pieces > 1 {
		return parallelRange(opt, spans*pieces, work, func(lo, hi int) error {
			offs := make([]int, len(w.strides))
			at := make([]int, len(w.strides))
			for u := lo; u < hi; u++ {
				if err := opt.cancelled(); err != nil {
					return err
				}
				s, q := u/pieces, u%pieces
				if u == lo || q == 0 {
					w.spanOffsets(s, offs)
				}
				start := q * maxPiece
				for i := range at {
					at[i] = offs[i] + start*w.step[i]
				}
				f(s*w.span+start, at, min(maxPiece, w.span-start))
			}
			return nil
		})
	}
	return parallelRange(opt, spans, work, func(lo, hi int) error {
		idx := make([]int, len(w.outer))
		offs := make([]int, len(w.strides))
		// Start at span lo.
		rest := lo
		for k := len(w.outer) - 1; k >= 0; k-- {
			idx[k] = rest % w.outer[k]
			rest /= w.outer[k]
		}
		for i, st := range w.strides {
			for k, x := range idx {
				offs[i] += x * st[k]
			}
		}
		for s := lo; s < hi; s++ {
			if (s-lo)*w.span%maxPiece < w.span {
				if err := opt.cancelled(); err != nil {
					return err
				}
			}
			f(s*w.span, offs, w.span)
			// Advance the odometer by one span.
			for k := len(w.outer) - 1; k >= 0; k-- {
				idx[k]++
				for i, st := range w.strides {
					offs[i] += st[k]
				}
				if idx[k] < w.outer[k] {
					break
				}
				for i, st := range w.strides {
					offs[i] -= st[k] * w.outer[k]
				}
				idx[k] = 0
			}
		}
		return nil
	})
}

// spanOffsets sets offs to each input's offset at the start of span s.
func (w *broadcastWalk) spanOffsets(s int, offs []int) {
	clear(offs)
	for k := len(w.outer) - 1; k >= 0; k-- {
		x := s % w.outer[k]
		s /= w.outer[k]
		for i, st := range w.strides {
			offs[i] += x * st[k]
		}
	}
}

// binarySpans are a binary operator's three loops for one combination of
// input types A, B and output type O.
type binarySpans[A, B, O any] struct {
	both  func(o []O, a []A, b []B)
	left  func(o []O, a A, b []B) // a is a broadcast scalar
	right func(o []O, a []A, b B) // b is a broadcast scalar
	// streamed, if set, are the same loops with streaming stores
	// (stream.go), for outputs too large for the cache.
	streamed *binarySpans[A, B, O]
}

// binaryKernel runs a binary operator for one input type.
type binaryKernel interface {
	run(opt *Options, w *broadcastWalk, out, a, b *tensor.Tensor) error
}

func (s binarySpans[A, B, O]) run(opt *Options, w *broadcastWalk, out, a, b *tensor.Tensor) error {
	o, x, y := elems[O](out), elems[A](a), elems[B](b)
	if s.streamed != nil && opt.orDefault().streams(out.ByteLen(), a.ByteLen()+b.ByteLen()) {
		// Each part fences its streaming stores before it is handed back.
		t := *s.streamed
		return w.run(opt, out.DataType().Size(), func(oo int, in []int, n int) {
			t.spans(o[oo:oo+n], x, in[0], w.step[0], y, in[1], w.step[1])
			movement.StoreFence()
		})
	}
	return w.run(opt, out.DataType().Size(), func(oo int, in []int, n int) {
		s.spans(o[oo:oo+n], x, in[0], w.step[0], y, in[1], w.step[1])
	})
}

// spans runs the loop that fits the inputs' steps over one span.
func (s binarySpans[A, B, O]) spans(o []O, x []A, ia, sa int, y []B, ib, sb int) {
	n := len(o)
	switch {
	case sa == 1 && sb == 1:
		s.both(o, x[ia:ia+n], y[ib:ib+n])
	case sb == 1:
		s.left(o, x[ia], y[ib:ib+n])
	default:
		s.right(o, x[ia:ia+max(n*sa, 1)], y[ib])
	}
}

// elementwise returns the three loops of the element function f: for the
// operators whose work per element (a call of math's functions) outweighs
// the call.
func elementwise[A, B, O any](f func(a A, b B) O) binarySpans[A, B, O] {
	return binarySpans[A, B, O]{
		both: func(o []O, a []A, b []B) {
			for i := range o {
				o[i] = f(a[i], b[i])
			}
		},
		left: func(o []O, a A, b []B) {
			for i := range o {
				o[i] = f(a, b[i])
			}
		},
		right: func(o []O, a []A, b B) {
			for i := range o {
				o[i] = f(a[i], b)
			}
		},
	}
}

// halfChunk is how many elements of a 16-bit float span are widened at once.
const halfChunk = 256

// halfBinary runs float32 loops for float16 or bfloat16 inputs: O is
// float32 for an operator whose output is the input's type (rounded back
// once) and bool for a comparison.
type halfBinary[O any] struct {
	bf16 bool
	f32  binarySpans[float32, float32, O]
}

func (h halfBinary[O]) run(opt *Options, w *broadcastWalk, out, a, b *tensor.Tensor) error {
	x, y := elems[uint16](a), elems[uint16](b)
	return w.run(opt, out.DataType().Size(), func(oo int, in []int, n int) {
		var xa, ya [halfChunk]float32
		var oa [halfChunk]O
		for c := 0; c < n; c += halfChunk {
			m := min(halfChunk, n-c)
			sa, sb := w.step[0], w.step[1]
			h.widen(xa[:max(m*sa, 1)], x[in[0]+c*sa:])
			h.widen(ya[:max(m*sb, 1)], y[in[1]+c*sb:])
			h.f32.spans(oa[:m], xa[:], 0, sa, ya[:], 0, sb)
			h.store(out, oo+c, oa[:m])
		}
	})
}

func (h halfBinary[O]) widen(dst []float32, src []uint16) {
	widenHalf(h.bf16, dst, src)
}

func (h halfBinary[O]) store(out *tensor.Tensor, at int, v []O) {
	storeHalfOrBool(h.bf16, out, at, v)
}

// widenHalf converts len(dst) 16-bit floats to float32.
func widenHalf(bf16 bool, dst []float32, src []uint16) {
	src = src[:len(dst)]
	if bf16 {
		for i, v := range src {
			dst[i] = tensor.BF16(v).Float32()
		}
		return
	}
	for i, v := range src {
		dst[i] = float16.Frombits(v).Float32()
	}
}

// narrowHalf rounds float32s to 16-bit floats, to nearest even.
func narrowHalf(bf16 bool, dst []uint16, src []float32) {
	dst = dst[:len(src)]
	if bf16 {
		for i, v := range src {
			dst[i] = uint16(tensor.BF16FromFloat32(v))
		}
		return
	}
	for i, v := range src {
		dst[i] = float16.Fromfloat32(v).Bits()
	}
}

// storeHalfOrBool writes v at element at of out: float32 values rounded to
// out's 16-bit float type, anything else (bool) as it is.
func storeHalfOrBool[O any](bf16 bool, out *tensor.Tensor, at int, v []O) {
	switch v := any(v).(type) {
	case []float32:
		narrowHalf(bf16, elems[uint16](out)[at:], v)
	default:
		copy(elems[O](out)[at:], any(v).([]O))
	}
}

// unaryKernel runs a unary operator for one input type.
type unaryKernel interface {
	run(opt *Options, out, x *tensor.Tensor) error
}

// unarySpan is a unary operator's loop for input type A and output type O.
type unarySpan[A, O any] func(o []O, a []A)

// unaryChunk is the grain the unary loops are split at across cores.
const unaryChunk = 1 << 14

func (f unarySpan[A, O]) run(opt *Options, out, x *tensor.Tensor) error {
	o, a := elems[O](out), elems[A](x)
	n := len(o)
	chunks := (n + unaryChunk - 1) / unaryChunk
	opt = opt.orDefault()
	return parallelRange(opt, chunks, n/4*max(out.DataType().Size(), 1), func(lo, hi int) error {
		for c := lo; c < hi; c += maxPiece / unaryChunk {
			if err := opt.cancelled(); err != nil {
				return err
			}
			end := min(c+maxPiece/unaryChunk, hi)
			f(o[c*unaryChunk:min(end*unaryChunk, n)], a[c*unaryChunk:min(end*unaryChunk, n)])
		}
		return nil
	})
}

// mapping returns the loop of the element function f.
func mapping[A, O any](f func(A) O) unarySpan[A, O] {
	return func(o []O, a []A) {
		for i := range o {
			o[i] = f(a[i])
		}
	}
}

// halfUnary runs a float32 loop for float16 or bfloat16 input.
type halfUnary[O any] struct {
	bf16 bool
	f32  unarySpan[float32, O]
}

func (h halfUnary[O]) run(opt *Options, out, x *tensor.Tensor) error {
	a := elems[uint16](x)
	n := x.Len()
	chunks := (n + unaryChunk - 1) / unaryChunk
	opt = opt.orDefault()
	return parallelRange(opt, chunks, n, func(lo, hi int) error {
		var xa [halfChunk]float32
		var oa [halfChunk]O
		for c := lo * unaryChunk; c < min(hi*unaryChunk, n); c += halfChunk {
			if c%maxPiece == 0 {
				if err := opt.cancelled(); err != nil {
					return err
				}
			}
			m := min(halfChunk, n-c, hi*unaryChunk-c)
			widenHalf(h.bf16, xa[:m], a[c:])
			h.f32(oa[:m], xa[:m])
			storeHalfOrBool(h.bf16, out, c, oa[:m])
		}
		return nil
	})
}

// halfKernels adds the float16 and bfloat16 kernels of a float32 unary loop.
func halfUnaries[O any](f32 unarySpan[float32, O]) map[tensor.DataType]unaryKernel {
	return map[tensor.DataType]unaryKernel{
		tensor.Float16:  halfUnary[O]{false, f32},
		tensor.BFloat16: halfUnary[O]{true, f32},
	}
}

// halfBinaries returns the float16 and bfloat16 kernels of float32 loops.
func halfBinaries[O any](f32 binarySpans[float32, float32, O]) map[tensor.DataType]binaryKernel {
	return map[tensor.DataType]binaryKernel{
		tensor.Float16:  halfBinary[O]{false, f32},
		tensor.BFloat16: halfBinary[O]{true, f32},
	}
}

// hasZero reports whether an integer tensor holds a zero (a divisor SONNX
// leaves undefined).
func hasZero(t *tensor.Tensor) bool {
	b := t.Bytes()
	size := t.DataType().Size()
	for i := 0; i+size <= len(b); i += size {
		zero := true
		for _, c := range b[i : i+size] {
			if c != 0 {
				zero = false
				break
			}
		}
		if zero {
			return true
		}
	}
	return false
}

// numberBinaries builds an operator's table over the integer types (ints
// in the order uint8, uint16, uint32, uint64, int8, int16, int32, int64;
// nil where the operator has none) and the float types, float16 and
// bfloat16 through the float32 loops.
func numberBinaries[O any](ints [8]binaryKernel, f32 binarySpans[float32, float32, O], f64 binaryKernel) map[tensor.DataType]binaryKernel {
	t := halfBinaries(f32)
	t[tensor.Float] = f32
	t[tensor.Double] = f64
	for i, dt := range intOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}

// intOrder is the order of the integer kernels numberBinaries and
// numberUnaries take.
var intOrder = [8]tensor.DataType{tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64}

// numberUnaries is numberBinaries for a unary operator.
func numberUnaries[O any](ints [8]unaryKernel, f32 unarySpan[float32, O], f64 unaryKernel) map[tensor.DataType]unaryKernel {
	t := halfUnaries(f32)
	t[tensor.Float] = f32
	t[tensor.Double] = f64
	for i, dt := range intOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}

// floatFunction is the table of a unary operator over the float types
// defined by its float64 function f: float32 is computed in float64 and
// rounded once, float16 and bfloat16 through float32.
func floatFunction(f func(float64) float64) map[tensor.DataType]unaryKernel {
	return numberUnaries([8]unaryKernel{}, mapping(func(x float32) float32 { return float32(f(float64(x))) }), mapping(f))
}

// numberFunction is floatFunction that also serves the integer types: the
// float64 result converted to the integer type as C converts (toward zero,
// saturated at the type's range, NaN as 0).
func numberFunction(f func(float64) float64) map[tensor.DataType]unaryKernel {
	return numberUnaries([8]unaryKernel{
		mapping(func(x uint8) uint8 { return convertFloat[uint8](f(float64(x))) }),
		mapping(func(x uint16) uint16 { return convertFloat[uint16](f(float64(x))) }),
		mapping(func(x uint32) uint32 { return convertFloat[uint32](f(float64(x))) }),
		mapping(func(x uint64) uint64 { return convertFloat[uint64](f(float64(x))) }),
		mapping(func(x int8) int8 { return convertFloat[int8](f(float64(x))) }),
		mapping(func(x int16) int16 { return convertFloat[int16](f(float64(x))) }),
		mapping(func(x int32) int32 { return convertFloat[int32](f(float64(x))) }),
		mapping(func(x int64) int64 { return convertFloat[int64](f(float64(x))) }),
	}, mapping(func(x float32) float32 { return float32(f(float64(x))) }), mapping(f))
}

// convertFloat converts x to the integer type I toward zero, saturating
// out-of-range values and turning NaN into 0: Go leaves the conversion of
// an out-of-range float undefined, C too; onnxruntime's x86 build gives the
// type's minimum, which a saturation states more usefully.
func convertFloat[I integer](x float64) I {
	x = math.Trunc(x)
	lo, hi := integerRange[I]()
	switch {
	case x != x:
		return 0
	case x <= lo:
		return I(lo)
	case x >= hi:
		return maxOf[I]()
	}
	return I(x)
}

// integerRange returns the least value of I and 2^bits (signed: 2^(bits-1)),
// the first float above its range.
func integerRange[I integer]() (lo, hi float64) {
	var zero I
	size := float64(unsafe.Sizeof(zero) * 8)
	if ^zero < 0 {
		return -math.Exp2(size - 1), math.Exp2(size - 1)
	}
	return 0, math.Exp2(size)
}

// maxOf returns the greatest value of I.
func maxOf[I integer]() I {
	var zero I
	if ^zero < 0 {
		return ^I(0) ^ (I(1) << (unsafe.Sizeof(zero)*8 - 1))
	}
	return ^zero
}

// arithmeticTypes are the types of Add, Sub, Mul and Div by version.
var arithmeticTypes = versionTypes{
	1: floatTypes, 6: floatTypes | int3264Types, 7: floatTypes | int3264Types,
	13: floatBFTypes | int3264Types, 14: numberBFTypes,
}

// halfToFloat32 widens one float16 (or bfloat16) to float32.
func halfToFloat32(bf16 bool, v uint16) float32 {
	if bf16 {
		return tensor.BF16(v).Float32()
	}
	return float16.Frombits(v).Float32()
}

// halfFromFloat32 rounds a float32 to float16 (or bfloat16), to nearest even.
func halfFromFloat32(bf16 bool, f float32) uint16 {
	if bf16 {
		return uint16(tensor.BF16FromFloat32(f))
	}
	return float16.Fromfloat32(f).Bits()
}

// integerBinaries is the table of an operator over the integer types only
// (in intOrder; nil where it has none).
func integerBinaries(ints [8]binaryKernel) map[tensor.DataType]binaryKernel {
	t := map[tensor.DataType]binaryKernel{}
	for i, dt := range intOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}

// integerUnaries is integerBinaries for a unary operator.
func integerUnaries(ints [8]unaryKernel) map[tensor.DataType]unaryKernel {
	t := map[tensor.DataType]unaryKernel{}
	for i, dt := range intOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}
