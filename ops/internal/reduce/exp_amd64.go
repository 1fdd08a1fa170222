//go:build amd64 && !purego

package reduce

import (
	"math"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// haveExpAVX2 reports a processor that runs divideBy8 and max8;
// haveExp32AVX512 and haveExp32AVX2 pick expShifted's kernel (tests turn
// them off to reach the others).
var (
	haveExpAVX2     = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	haveExp32AVX512 = cpu.X86.HasAVX512F
	haveExp32AVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
)

// exp32Consts are exp32's constants as the kernels read them, eight copies
// each: the lower clamp, log2(e), the rounding number, ln 2 in two parts,
// the eight Horner coefficients, the exponent bias (an int32), and -inf
// (the largest element's start).
var exp32Consts = func() (c [15][8]uint32) {
	f := math.Float32bits
	v := []uint32{f(exp32Min), f(exp32Log2e), f(exp32Round), f(exp32Ln2Hi), f(exp32Ln2Lo)}
	for _, p := range exp32Poly {
		v = append(v, f(p))
	}
	v = append(v, exp32Bias, f(float32(math.Inf(-1))))
	for k, x := range v {
		c[k] = [8]uint32{x, x, x, x, x, x, x, x}
	}
	return c
}()

//go:noescape
func expShiftedAVX512(dst, src, m *float32, perElement, n int, consts *[15][8]uint32) float32

//go:noescape
func expShiftedAVX2(dst, src, m *float32, perElement, n int, consts *[15][8]uint32, masks *[32]int32) float32

//go:noescape
func softmaxRowsAVX512(x, y *float32, n, rows int, consts *[15][8]uint32, scratch *float32) int

//go:noescape
func expSumRowsAVX512(x *float32, n, rows int, consts *[15][8]uint32, m, s *float32) int

//go:noescape
func logShiftRowsAVX512(x, y *float32, n, rows int, m, ls *float32)

//go:noescape
func logSoftmaxRowsAVX512(x, y *float32, n, rows int, consts *[15][8]uint32, stream bool) int

//go:noescape
func max8(x *float32, n int) (m float32, nan bool)

//go:noescape
func divideBy8(y *float32, n int, s float32)

//go:noescape
func logShiftBy8(x, y *float32, n int, m, ls float32)

// expShifted is expShiftedGo by the vector kernels, for m at least src
// element by element (then every src[i] - m[i] is at most 0, or NaN only
// where m[i] is not finite); m holds lanes copies of one value when
// perElement is false. Where an m is NaN or infinite, the kernels' clamp
// and NaN steps would be needed: exp32 takes those one at a time.
func expShifted(dst, src, m []float32, perElement bool) float32 {
	n := len(src)
	if n == 0 || !(haveExp32AVX512 || haveExp32AVX2) {
		return expShiftedGo(dst, src, m, perElement)
	}
	dst = dst[:n]
	if perElement {
		m = m[:n]
	} else {
		m = m[:lanes]
	}
	for _, v := range m {
		if math.IsInf(float64(v), 0) || v != v {
			return expShiftedGo(dst, src, m, perElement)
		}
		if !perElement {
			break
		}
	}
	step := 0
	if perElement {
		step = 1
	}
	if haveExp32AVX512 {
		return expShiftedAVX512(&dst[0], &src[0], &m[0], step, n, &exp32Consts)
	}
	return expShiftedAVX2(&dst[0], &src[0], &m[0], step, n, &exp32Consts, &tailMasks)
}

// expShiftedEachFinite is expShiftedEach for m whose every element the
// caller has seen finite: the vector kernels without expShifted's check
// of every m (as many checks as exponentials).
func expShiftedEachFinite(dst, src, m []float32) {
	n := len(src)
	if n == 0 || !(haveExp32AVX512 || haveExp32AVX2) {
		expShiftedGo(dst, src, m, true)
		return
	}
	dst, m = dst[:n], m[:n]
	if haveExp32AVX512 {
		expShiftedAVX512(&dst[0], &src[0], &m[0], 1, n, &exp32Consts)
		return
	}
	expShiftedAVX2(&dst[0], &src[0], &m[0], 1, n, &exp32Consts, &tailMasks)
}

// rowMax is reduceRow's Max of a non-empty float32 row, eight at a time
// where the processor has AVX2: the largest element, the first NaN if
// there is one, and of equal elements (+0 and -0) the first.
func rowMax(x []float32) float32 {
	n8 := len(x) &^ 7
	if !haveExpAVX2 || n8 == 0 {
		return reduceRow(Op{Kind: Max}, x)
	}
	m, nan := max8(&x[0], n8)
	if nan {
		return reduceRow(Op{Kind: Max}, x)
	}
	for _, v := range x[n8:] {
		if v > m || v != v {
			return reduceRow(Op{Kind: Max}, x)
		}
	}
	if m == 0 { // the scalar loop keeps the first of +0 and -0
		for _, v := range x {
			if v == 0 {
				return v
			}
		}
	}
	return m
}

// divideRow sets y[i] to y[i] / s, eight at a time where the processor has
// AVX2 (each quotient rounds as a scalar division does).
func divideRow(y []float32, s float32) {
	i := 0
	if haveExpAVX2 {
		if i = len(y) &^ 7; i > 0 {
			divideBy8(&y[0], i, s)
		}
	}
	for ; i < len(y); i++ {
		y[i] /= s
	}
}

// softmaxRowsF32 writes the Softmax of the rows of n float32 of x (n > 0)
// to y, outside SONNX: with AVX-512 by softmaxRowsAVX512, one row after
// the other in one call (rows whose largest element is not finite go
// through softmaxRow), else each by softmaxRowF32. The same bits as
// softmaxRow.
//
// With stream, where the rows are a multiple of 16 long, at most
// softmaxScratchRow, and y is 64-byte aligned, the exponentials go to two
// rows of scratch on the stack and y gets the quotients only, with
// streaming stores: no read for ownership of y's lines, one write each.
func softmaxRowsF32(x, y []float32, n int, stream bool) {
	rows := len(x) / n
	var scratch *[2 * softmaxScratchRow]float32
	if stream && n%16 == 0 && n <= softmaxScratchRow && uintptr(unsafe.Pointer(&y[0]))%64 == 0 {
		scratch = new([2 * softmaxScratchRow]float32) // on the stack: it does not escape
	}
	for r := 0; r < rows; {
		if haveExp32AVX512 {
			var s *float32
			if scratch != nil {
				s = &scratch[0]
			}
			r += softmaxRowsAVX512(&x[r*n], &y[r*n], n, rows-r, &exp32Consts, s)
			if r == rows {
				return
			}
			softmaxRow(Softmax, x[r*n:(r+1)*n], y[r*n:(r+1)*n], false)
		} else {
			softmaxRowF32(Softmax, x[r*n:(r+1)*n], y[r*n:(r+1)*n])
		}
		r++
	}
}

// softmaxScratchRow is the longest row softmaxRowsF32 streams (8 KB of
// scratch on the stack for its two rows).
const softmaxScratchRow = 1024

// logShiftRow sets y[i] to (x[i] - m) - ls, eight at a time where the
// processor has AVX2 (each subtraction rounds as a scalar one does).
func logShiftRow(x, y []float32, m, ls float32) {
	i := 0
	if haveExpAVX2 {
		if i = len(x) &^ 7; i > 0 {
			_ = y[i-1]
			logShiftBy8(&x[0], &y[0], i, m, ls)
		}
	}
	y = y[:len(x)]
	for ; i < len(x); i++ {
		y[i] = (x[i] - m) - ls
	}
}

// logSoftmaxRowsF32 writes the LogSoftmax of the rows of n float32 of x
// (n > 0) to y, outside SONNX, with AVX-512 in one of two ways (rows whose
// largest element is not finite go through softmaxRow), else each row by
// softmaxRowF32; the same bits as softmaxRow.
//
// Rows likely beyond the cache (lsmCached) go one after the other
// through logSoftmaxRowsAVX512, each row's maximum, sum of exponentials,
// logarithm and last step while it is in the first-level cache: x read
// once from memory and y written once, in one stream. Rows in the cache
// go 64 at a time: their maxima and sums of exponentials in one call
// (expSumRowsAVX512), the logarithms in Go, then every row's (x - m) -
// log(s) in another (logShiftRowsAVX512). There each row's chain of
// dependent operations (the sum, then math.Log's) is what costs, and the
// chains of a block of rows overlap; one row at a time they do less.
func logSoftmaxRowsF32(x, y []float32, n int, stream bool) {
	rows := len(x) / n
	if !haveExp32AVX512 {
		for r := range rows {
			softmaxRowF32(LogSoftmax, x[r*n:(r+1)*n], y[r*n:(r+1)*n])
		}
		return
	}
	if len(x) > lsmCached || stream {
		// Streaming stores need every block of y on a line of its own.
		stream = stream && n%16 == 0 && uintptr(unsafe.Pointer(&y[0]))%64 == 0
		for r := 0; r < rows; r++ {
			r += logSoftmaxRowsAVX512(&x[r*n], &y[r*n], n, rows-r, &exp32Consts, stream)
			if r < rows {
				softmaxRow(LogSoftmax, x[r*n:(r+1)*n], y[r*n:(r+1)*n], false)
			}
		}
		return
	}
	const batch = 64
	var m, ls [batch]float32
	for r := 0; r < rows; {
		b := min(batch, rows-r)
		done := expSumRowsAVX512(&x[r*n], n, b, &exp32Consts, &m[0], &ls[0])
		for i := range done {
			ls[i] = float32(math.Log(float64(ls[i])))
		}
		if done > 0 {
			logShiftRowsAVX512(&x[r*n], &y[r*n], n, done, &m[0], &ls[0])
		}
		r += done
		if done < b {
			softmaxRow(LogSoftmax, x[r*n:(r+1)*n], y[r*n:(r+1)*n], false)
			r++
		}
	}
}

// lsmCached is the most float32 logSoftmaxRowsF32 takes as in the cache
// (256 KiB of x). The operator calls it on pieces of at most poll.Work
// (1 << 18) elements, so a large input, streamed from memory, comes in
// pieces above this and goes one row at a time (measured faster at 25 MB
// on this machine), and a small one, likely in the cache, in blocks of
// rows (measured faster at 64 rows of 16).
var lsmCached = 1 << 16
