// Package elementwise is the broadcasting elementwise engine: what every
// elementwise operator of package ops (arithmetic: Add, Sub, Mul, Div, Pow,
// Mod, PRelu; comparison and logic: Equal, Less, Greater, And, Or, Xor,
// Not, BitShift and the bitwise operators; Sum, Mean, Max, Min; the math
// functions and activations: Abs, Neg, Exp, Log, Tanh, Sigmoid, Erf, Relu,
// Gelu, Softplus, ...; Where) runs its loops through.
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
//
// The engine never writes into an input: only into the output tensor it
// is handed (which is an input only where the operator owns both, as Mean
// dividing its own sum in place). It allocates nothing that grows with
// the input (the output is allocated and charged by the operator), and
// checks the run's context between pieces of at most 64K elements. It
// does not check shapes or types: the operators in package ops do, and
// hand it outputs of the broadcast shape. It must not import ops.
package elementwise

import (
	"context"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/tensor"
)

// Config is what the engine needs of a run: its context (nil for none),
// its number of cores (at least 1) and the output size in bytes from which
// stores bypass the cache (movement.Env.StreamFrom; 0 for the default).
type Config struct {
	Ctx        context.Context
	Threads    int
	StreamFrom int
}

func (c Config) cancelled() error {
	if c.Ctx == nil {
		return nil
	}
	return c.Ctx.Err()
}

func (c Config) streams(written, source int) bool {
	return movement.Env{StreamFrom: c.StreamFrom}.Streams(written, source)
}

// Elems views a tensor's storage as []E (E must be its element's Go type,
// or one of the same size for movement).
func Elems[E any](t *tensor.Tensor) []E {
	var zero E
	if _, ok := any(zero).(string); ok {
		return any(t.Strings()).([]E)
	}
	return movement.AsElems[E](t.Bytes())
}

// Walk visits an output in spans. outer are the merged outer
// dims of the output and strides[i] the strides (in elements, 0 where
// broadcast) of input i over them; every span is span elements long, over
// which input i advances Step[i] (0 or 1) per element.
type Walk struct {
	n       int
	outer   []int
	strides [][]int
	span    int
	Step    []int
}

// NewWalk plans the walk of an output of shape out whose inputs,
// of shapes ins, broadcast to it (checked by the caller). It allocates the
// Walk and one slice for its steps, strides and outer dims: the plan of a
// small tensor is most of its cost.
func NewWalk(out []int, ins ...[]int) *Walk {
	// present[k] bit i: input i advances along merged axis k (ins holds at
	// most 64 shapes: the operators pass two or three).
	var dimsBuf [8]int
	var presentBuf [8]uint64
	dims, present := dimsBuf[:0], presentBuf[:0]
	n := 1
	for ax, d := range out {
		n *= d
		if d == 1 {
			continue // an axis of one element does not move any input
		}
		var p uint64
		for i, s := range ins {
			k := ax - (len(out) - len(s))
			if k >= 0 && s[k] != 1 {
				p |= 1 << i
			}
		}
		if len(dims) > 0 && present[len(present)-1] == p {
			dims[len(dims)-1] *= d
			continue
		}
		dims = append(dims, d)
		present = append(present, p)
	}
	last := max(len(dims)-1, 0)
	// One slice: Step, then each input's strides over the outer dims, then
	// the outer dims.
	buf := make([]int, len(ins)+len(ins)*last+last)
	w := &Walk{n: n, span: 1, Step: buf[:len(ins):len(ins)], strides: make([][]int, len(ins))}
	if len(dims) == 0 {
		for i := range w.Step {
			w.Step[i] = 1
		}
		return w
	}
	w.span = dims[last]
	w.outer = buf[len(buf)-last:]
	copy(w.outer, dims[:last])
	for i := range ins {
		on := func(k int) bool { return present[k]&(1<<i) != 0 }
		if on(last) {
			w.Step[i] = 1
		}
		st := buf[len(ins)+i*last : len(ins)+(i+1)*last : len(ins)+(i+1)*last]
		stride := 1
		if on(last) {
			stride = w.span
		}
		for k := last - 1; k >= 0; k-- {
			if on(k) {
				st[k] = stride
				stride *= dims[k]
			}
		}
		w.strides[i] = st
	}
	return w
}

// sequential reports whether Run would run the walk on one core (as
// parallel.Range decides), so that a caller may walk it itself.
func (w *Walk) sequential(cfg Config, elemBytes int) bool {
	return cfg.Threads <= 1 || w.n/4*max(elemBytes, 1) < parallel.Work
}

// walkBinary is Run for a binary operator's spans on one core: the same
// spans in the same order, without the closures and offset slices Run
// allocates, which cost more than a small tensor's loops.
func walkBinary[A, B, O any](cfg Config, w *Walk, s BinarySpans[A, B, O], o []O, x []A, y []B) error {
	if err := cfg.cancelled(); err != nil || w.n == 0 {
		return err
	}
	sa, sb := w.Step[0], w.Step[1]
	if len(w.outer) == 0 {
		for start := 0; start < w.span; start += maxPiece {
			if start > 0 {
				if err := cfg.cancelled(); err != nil {
					return err
				}
			}
			n := min(maxPiece, w.span-start)
			s.Spans(o[start:start+n], x, start*sa, sa, y, start*sb, sb)
		}
		return nil
	}
	var idxBuf [8]int
	var idx []int
	if len(w.outer) <= len(idxBuf) {
		idx = idxBuf[:len(w.outer)]
	} else {
		idx = make([]int, len(w.outer))
	}
	stA, stB := w.strides[0], w.strides[1]
	ia, ib := 0, 0
	spans := w.n / w.span
	for sp := range spans {
		if sp*w.span%maxPiece < w.span && sp > 0 {
			if err := cfg.cancelled(); err != nil {
				return err
			}
		}
		s.Spans(o[sp*w.span:(sp+1)*w.span], x, ia, sa, y, ib, sb)
		for k := len(w.outer) - 1; k >= 0; k-- {
			idx[k]++
			ia += stA[k]
			ib += stB[k]
			if idx[k] < w.outer[k] {
				break
			}
			ia -= stA[k] * w.outer[k]
			ib -= stB[k] * w.outer[k]
			idx[k] = 0
		}
	}
	return nil
}

// maxPiece is the longest run of a span handed to f at once: a span of a
// whole tensor (inputs of one shape) is cut so that the cores share it.
const maxPiece = 1 << 16

// sharedGrain is about how many elements a core takes at once when the
// cores share a large output (four pieces: an allocation or two per
// grain is nothing beside its loop).
const sharedGrain = 4 * maxPiece

// run calls f over every span, or piece of a long span, with its output
// offset, each input's offset and its length, splitting the work across
// the run's cores when the output is large; elemBytes is the output's
// element size, to weigh the work. It returns the run's cancellation,
// polled between pieces, and then the output is incomplete.
func (w *Walk) Run(cfg Config, elemBytes int, f func(out int, in []int, n int)) error {
	if err := cfg.cancelled(); err != nil || w.n == 0 {
		return err
	}
	spans := w.n / w.span
	work := w.n / 4 * max(elemBytes, 1) // 32-bit ints: no overflow below the 2 GiB cap
	// The cores take grains of about sharedGrain elements in turn
	// (parallel.Shared), so that one that starts late or runs slow does
	// not leave the other idle at the end of a fixed half.
	if pieces := (w.span + maxPiece - 1) / maxPiece; pieces > 1 {
		return parallel.Shared(cfg.Ctx, cfg.Threads, spans*pieces, sharedGrain/maxPiece, work, func(lo, hi int) error {
			offs := make([]int, len(w.strides))
			at := make([]int, len(w.strides))
			for u := lo; u < hi; u++ {
				if err := cfg.cancelled(); err != nil {
					return err
				}
				s, q := u/pieces, u%pieces
				if u == lo || q == 0 {
					w.spanOffsets(s, offs)
				}
				start := q * maxPiece
				for i := range at {
					at[i] = offs[i] + start*w.Step[i]
				}
				f(s*w.span+start, at, min(maxPiece, w.span-start))
			}
			return nil
		})
	}
	return parallel.Shared(cfg.Ctx, cfg.Threads, spans, max(1, sharedGrain/w.span), work, func(lo, hi int) error {
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
				if err := cfg.cancelled(); err != nil {
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
func (w *Walk) spanOffsets(s int, offs []int) {
	clear(offs)
	for k := len(w.outer) - 1; k >= 0; k-- {
		x := s % w.outer[k]
		s /= w.outer[k]
		for i, st := range w.strides {
			offs[i] += x * st[k]
		}
	}
}

// BinarySpans are a binary operator's three loops for one combination of
// input types A, B and output type O.
type BinarySpans[A, B, O any] struct {
	Both  func(o []O, a []A, b []B)
	Left  func(o []O, a A, b []B) // a is a broadcast scalar
	Right func(o []O, a []A, b B) // b is a broadcast scalar
	// streamed, if set, are the same loops with streaming stores
	// (movement's streaming stores), for outputs too large for the cache.
	Streamed *BinarySpans[A, B, O]
}

// BinaryKernel runs a binary operator for one input type.
type BinaryKernel interface {
	Run(cfg Config, w *Walk, out, a, b *tensor.Tensor) error
}

func (s BinarySpans[A, B, O]) Run(cfg Config, w *Walk, out, a, b *tensor.Tensor) error {
	o, x, y := Elems[O](out), Elems[A](a), Elems[B](b)
	streams := s.Streamed != nil && cfg.streams(out.ByteLen(), a.ByteLen()+b.ByteLen())
	if !streams && w.sequential(cfg, out.DataType().Size()) {
		return walkBinary(cfg, w, s, o, x, y)
	}
	if streams {
		// Each part fences its streaming stores before it is handed back.
		t := *s.Streamed
		return w.Run(cfg, out.DataType().Size(), func(oo int, in []int, n int) {
			t.Spans(o[oo:oo+n], x, in[0], w.Step[0], y, in[1], w.Step[1])
			movement.StoreFence()
		})
	}
	return w.Run(cfg, out.DataType().Size(), func(oo int, in []int, n int) {
		s.Spans(o[oo:oo+n], x, in[0], w.Step[0], y, in[1], w.Step[1])
	})
}

// spans runs the loop that fits the inputs' steps over one span.
func (s BinarySpans[A, B, O]) Spans(o []O, x []A, ia, sa int, y []B, ib, sb int) {
	n := len(o)
	switch {
	case sa == 1 && sb == 1:
		s.Both(o, x[ia:ia+n], y[ib:ib+n])
	case sb == 1:
		s.Left(o, x[ia], y[ib:ib+n])
	default:
		s.Right(o, x[ia:ia+max(n*sa, 1)], y[ib])
	}
}

// Binary returns the three loops of the element function f: for the
// operators whose work per element (a call of math's functions) outweighs
// the call.
func Binary[A, B, O any](f func(a A, b B) O) BinarySpans[A, B, O] {
	return BinarySpans[A, B, O]{
		Both: func(o []O, a []A, b []B) {
			for i := range o {
				o[i] = f(a[i], b[i])
			}
		},
		Left: func(o []O, a A, b []B) {
			for i := range o {
				o[i] = f(a, b[i])
			}
		},
		Right: func(o []O, a []A, b B) {
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
	f32  BinarySpans[float32, float32, O]
}

func (h halfBinary[O]) Run(cfg Config, w *Walk, out, a, b *tensor.Tensor) error {
	x, y := Elems[uint16](a), Elems[uint16](b)
	return w.Run(cfg, out.DataType().Size(), func(oo int, in []int, n int) {
		var xa, ya [halfChunk]float32
		var oa [halfChunk]O
		for c := 0; c < n; c += halfChunk {
			m := min(halfChunk, n-c)
			sa, sb := w.Step[0], w.Step[1]
			h.widen(xa[:max(m*sa, 1)], x[in[0]+c*sa:])
			h.widen(ya[:max(m*sb, 1)], y[in[1]+c*sb:])
			h.f32.Spans(oa[:m], xa[:], 0, sa, ya[:], 0, sb)
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
	convert.Float16sToFloat32s(dst, src)
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
	convert.Float32sToFloat16s(dst, src)
}

// storeHalfOrBool writes v at element at of out: float32 values rounded to
// out's 16-bit float type, anything else (bool) as it is.
func storeHalfOrBool[O any](bf16 bool, out *tensor.Tensor, at int, v []O) {
	switch v := any(v).(type) {
	case []float32:
		narrowHalf(bf16, Elems[uint16](out)[at:], v)
	default:
		copy(Elems[O](out)[at:], any(v).([]O))
	}
}

// UnaryKernel runs a unary operator for one input type.
type UnaryKernel interface {
	Run(cfg Config, out, x *tensor.Tensor) error
}

// UnarySpan is a unary operator's loop for input type A and output type O.
type UnarySpan[A, O any] func(o []O, a []A)

// unaryChunk is the grain the unary loops are split at across cores.
const unaryChunk = 1 << 14

func (f UnarySpan[A, O]) Run(cfg Config, out, x *tensor.Tensor) error {
	o, a := Elems[O](out), Elems[A](x)
	n := len(o)
	chunks := (n + unaryChunk - 1) / unaryChunk
	work := n / 4 * max(out.DataType().Size(), 1)
	if parallel.Alone(cfg.Threads, chunks, work) {
		// Without the closure Range takes, which would cost an allocation.
		if err := parallel.Err(cfg.Ctx); err != nil {
			return err
		}
		return f.chunks(cfg, o, a, 0, chunks)
	}
	// Grains taken in turn, as Walk.Run's.
	return parallel.Shared(cfg.Ctx, cfg.Threads, chunks, sharedGrain/unaryChunk, work, func(lo, hi int) error {
		return f.chunks(cfg, o, a, lo, hi)
	})
}

// chunks runs f over the chunks [lo, hi) of unaryChunk elements.
func (f UnarySpan[A, O]) chunks(cfg Config, o []O, a []A, lo, hi int) error {
	n := len(o)
	for c := lo; c < hi; c += maxPiece / unaryChunk {
		if err := cfg.cancelled(); err != nil {
			return err
		}
		end := min(c+maxPiece/unaryChunk, hi)
		f(o[c*unaryChunk:min(end*unaryChunk, n)], a[c*unaryChunk:min(end*unaryChunk, n)])
	}
	return nil
}

// Unary returns the loop of the element function f.
func Unary[A, O any](f func(A) O) UnarySpan[A, O] {
	return func(o []O, a []A) {
		for i := range o {
			o[i] = f(a[i])
		}
	}
}

// HalfUnary runs a float32 loop for float16 or bfloat16 input.
type HalfUnary[O any] struct {
	BF16 bool
	F32  UnarySpan[float32, O]
}

func (h HalfUnary[O]) Run(cfg Config, out, x *tensor.Tensor) error {
	a := Elems[uint16](x)
	n := x.Len()
	chunks := (n + unaryChunk - 1) / unaryChunk
	return parallel.Shared(cfg.Ctx, cfg.Threads, chunks, sharedGrain/unaryChunk, n, func(lo, hi int) error {
		var xa [halfChunk]float32
		var oa [halfChunk]O
		for c := lo * unaryChunk; c < min(hi*unaryChunk, n); c += halfChunk {
			if c%maxPiece == 0 {
				if err := cfg.cancelled(); err != nil {
					return err
				}
			}
			m := min(halfChunk, n-c, hi*unaryChunk-c)
			widenHalf(h.BF16, xa[:m], a[c:])
			h.F32(oa[:m], xa[:m])
			storeHalfOrBool(h.BF16, out, c, oa[:m])
		}
		return nil
	})
}

// HalfUnaries returns the float16 and bfloat16 kernels of a float32 unary loop.
func HalfUnaries[O any](f32 UnarySpan[float32, O]) map[tensor.DataType]UnaryKernel {
	return map[tensor.DataType]UnaryKernel{
		tensor.Float16:  HalfUnary[O]{false, f32},
		tensor.BFloat16: HalfUnary[O]{true, f32},
	}
}

// HalfBinaries returns the float16 and bfloat16 kernels of float32 loops.
func HalfBinaries[O any](f32 BinarySpans[float32, float32, O]) map[tensor.DataType]BinaryKernel {
	return map[tensor.DataType]BinaryKernel{
		tensor.Float16:  halfBinary[O]{false, f32},
		tensor.BFloat16: halfBinary[O]{true, f32},
	}
}

// Relu is Relu's loop, max(0, x), keeping NaN and -0 as they are.
func Relu[T ~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64](o, a []T) {
	for i, x := range a[:len(o)] {
		if x < 0 {
			x = 0
		}
		o[i] = x
	}
}

// SelectWords is Where's loop over a span where all three inputs advance:
// it picks a[i] or b[i] by c[i] without a branch, since a condition read
// from data is unpredictable, and a mispredicted branch per element costs
// more than the memory traffic.
func SelectWords[T uint8 | uint16 | uint32 | uint64](o []T, c []uint8, a, b []T) {
	c, a, b = c[:len(o)], a[:len(o)], b[:len(o)]
	for i := range o {
		nonzero := (c[i] | -c[i]) >> 7 // 1 for any nonzero byte
		mask := -T(nonzero)
		o[i] = b[i] ^ (a[i]^b[i])&mask
	}
}

// SelectSteps is Where's loop over a span where the condition advances and
// a or b may be a broadcast scalar (step 0) or advance (step 1): the same
// branch-free pick as SelectWords.
func SelectSteps[T uint8 | uint16 | uint32 | uint64](o []T, c []uint8, a []T, sa int, b []T, sb int) {
	c = c[:len(o)]
	if len(o) == 0 {
		return
	}
	_, _ = a[(len(o)-1)*sa], b[(len(o)-1)*sb]
	for i := range o {
		nonzero := (c[i] | -c[i]) >> 7
		mask := -T(nonzero)
		x, y := a[i*sa], b[i*sb]
		o[i] = y ^ (x^y)&mask
	}
}
