//go:build amd64 && !purego

package ops

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The AVX loops of arith_amd64.s for float32 and float64 Add, Sub, Mul and
// Div: Go does not vectorize, and a scalar loop ran at a quarter of the
// speed of a copy of the same bytes; four YMM registers per iteration run
// at the speed of memory.

// haveAVX reports a processor (and an operating system) with AVX.
var haveAVX = cpu.X86.HasAVX

//go:noescape
func f32AddVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f32AddVS(o, a unsafe.Pointer, s float32, n int)

//go:noescape
func f32AddSV(o, b unsafe.Pointer, s float32, n int)

//go:noescape
func f32SubVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f32SubVS(o, a unsafe.Pointer, s float32, n int)

//go:noescape
func f32SubSV(o, b unsafe.Pointer, s float32, n int)

//go:noescape
func f32MulVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f32MulVS(o, a unsafe.Pointer, s float32, n int)

//go:noescape
func f32MulSV(o, b unsafe.Pointer, s float32, n int)

//go:noescape
func f32DivVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f32DivVS(o, a unsafe.Pointer, s float32, n int)

//go:noescape
func f32DivSV(o, b unsafe.Pointer, s float32, n int)

//go:noescape
func f64AddVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f64AddVS(o, a unsafe.Pointer, s float64, n int)

//go:noescape
func f64AddSV(o, b unsafe.Pointer, s float64, n int)

//go:noescape
func f64SubVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f64SubVS(o, a unsafe.Pointer, s float64, n int)

//go:noescape
func f64SubSV(o, b unsafe.Pointer, s float64, n int)

//go:noescape
func f64MulVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f64MulVS(o, a unsafe.Pointer, s float64, n int)

//go:noescape
func f64MulSV(o, b unsafe.Pointer, s float64, n int)

//go:noescape
func f64DivVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f64DivVS(o, a unsafe.Pointer, s float64, n int)

//go:noescape
func f64DivSV(o, b unsafe.Pointer, s float64, n int)

//go:noescape
func f32NTAddVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f32NTAddVS(o, a unsafe.Pointer, s float32, n int)

//go:noescape
func f32NTAddSV(o, b unsafe.Pointer, s float32, n int)

//go:noescape
func f32NTSubVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f32NTSubVS(o, a unsafe.Pointer, s float32, n int)

//go:noescape
func f32NTSubSV(o, b unsafe.Pointer, s float32, n int)

//go:noescape
func f32NTMulVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f32NTMulVS(o, a unsafe.Pointer, s float32, n int)

//go:noescape
func f32NTMulSV(o, b unsafe.Pointer, s float32, n int)

//go:noescape
func f32NTDivVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f32NTDivVS(o, a unsafe.Pointer, s float32, n int)

//go:noescape
func f32NTDivSV(o, b unsafe.Pointer, s float32, n int)

//go:noescape
func f64NTAddVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f64NTAddVS(o, a unsafe.Pointer, s float64, n int)

//go:noescape
func f64NTAddSV(o, b unsafe.Pointer, s float64, n int)

//go:noescape
func f64NTSubVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f64NTSubVS(o, a unsafe.Pointer, s float64, n int)

//go:noescape
func f64NTSubSV(o, b unsafe.Pointer, s float64, n int)

//go:noescape
func f64NTMulVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f64NTMulVS(o, a unsafe.Pointer, s float64, n int)

//go:noescape
func f64NTMulSV(o, b unsafe.Pointer, s float64, n int)

//go:noescape
func f64NTDivVV(o, a, b unsafe.Pointer, n int)

//go:noescape
func f64NTDivVS(o, a unsafe.Pointer, s float64, n int)

//go:noescape
func f64NTDivSV(o, b unsafe.Pointer, s float64, n int)

// arithKernels are the AVX loops of one operator and type.
type arithKernels[T float32 | float64] struct {
	vv     func(o, a, b unsafe.Pointer, n int)
	vs, sv func(o, x unsafe.Pointer, s T, n int)
}

var (
	f32Arith = map[string][2]arithKernels[float32]{
		"Add": {{f32AddVV, f32AddVS, f32AddSV}, {f32NTAddVV, f32NTAddVS, f32NTAddSV}},
		"Sub": {{f32SubVV, f32SubVS, f32SubSV}, {f32NTSubVV, f32NTSubVS, f32NTSubSV}},
		"Mul": {{f32MulVV, f32MulVS, f32MulSV}, {f32NTMulVV, f32NTMulVS, f32NTMulSV}},
		"Div": {{f32DivVV, f32DivVS, f32DivSV}, {f32NTDivVV, f32NTDivVS, f32NTDivSV}},
	}
	f64Arith = map[string][2]arithKernels[float64]{
		"Add": {{f64AddVV, f64AddVS, f64AddSV}, {f64NTAddVV, f64NTAddVS, f64NTAddSV}},
		"Sub": {{f64SubVV, f64SubVS, f64SubSV}, {f64NTSubVV, f64NTSubVS, f64NTSubSV}},
		"Mul": {{f64MulVV, f64MulVS, f64MulSV}, {f64NTMulVV, f64NTMulVS, f64NTMulSV}},
		"Div": {{f64DivVV, f64DivVS, f64DivSV}, {f64NTDivVV, f64NTDivVS, f64NTDivSV}},
	}
)

// vectorized returns the spans of operator op (Add, Sub, Mul or Div) with
// their bulk run by the AVX loops, and streamed spans whose stores bypass
// the cache (stream.go); the rest of a span, and every span on a processor
// without AVX, runs s's Go loops.
func vectorized[T float32 | float64](op string, s binarySpans[T, T, T]) binarySpans[T, T, T] {
	if !haveAVX {
		return s
	}
	var k [2]arithKernels[T]
	switch any(T(0)).(type) {
	case float32:
		k = any(f32Arith[op]).([2]arithKernels[T])
	case float64:
		k = any(f64Arith[op]).([2]arithKernels[T])
	}
	v := avxSpans(s, k[0], false)
	if haveStreamStores {
		streamed := avxSpans(s, k[1], true)
		v.streamed = &streamed
	}
	return v
}

// avxSpans runs k over the largest middle part of each span it can: from
// the first element whose address is a multiple of 32 when aligned (the
// streaming stores need it), a multiple of the loop's 128 bytes long.
func avxSpans[T float32 | float64](s binarySpans[T, T, T], k arithKernels[T], aligned bool) binarySpans[T, T, T] {
	size := int(unsafe.Sizeof(T(0)))
	block := 128 / size
	bounds := func(o []T) (h, m int) {
		if len(o) == 0 {
			return 0, 0
		}
		if aligned {
			h = min(len(o), (32-int(uintptr(unsafe.Pointer(&o[0]))%32))%32/size)
		}
		return h, h + (len(o)-h)&^(block-1)
	}
	return binarySpans[T, T, T]{
		both: func(o, a, b []T) {
			h, m := bounds(o)
			s.both(o[:h], a[:h], b[:h])
			if m > h {
				k.vv(unsafe.Pointer(&o[h]), unsafe.Pointer(&a[h]), unsafe.Pointer(&b[h]), m-h)
			}
			s.both(o[m:], a[m:len(o)], b[m:len(o)])
		},
		left: func(o []T, a T, b []T) {
			h, m := bounds(o)
			s.left(o[:h], a, b[:h])
			if m > h {
				k.sv(unsafe.Pointer(&o[h]), unsafe.Pointer(&b[h]), a, m-h)
			}
			s.left(o[m:], a, b[m:len(o)])
		},
		right: func(o, a []T, b T) {
			h, m := bounds(o)
			s.right(o[:h], a[:h], b)
			if m > h {
				k.vs(unsafe.Pointer(&o[h]), unsafe.Pointer(&a[h]), b, m-h)
			}
			s.right(o[m:], a[m:len(o)], b)
		},
	}
}

//go:noescape
func f32Relu(o, a unsafe.Pointer, n int)

// reluF32 is Relu's float32 loop: the AVX loop for the bulk.
func reluF32(o, a []float32) {
	m := 0
	if haveAVX {
		m = len(o) &^ 31
		if m > 0 {
			f32Relu(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), m)
		}
	}
	reluSpan(o[m:], a[m:len(o)])
}
