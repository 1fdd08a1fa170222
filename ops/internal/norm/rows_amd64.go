//go:build amd64 && !purego

package norm

import "golang.org/x/sys/cpu"

//go:noescape
func lanesF32AVX512(x *float32, n int, m float64, mode int, p *[16]float64)

//go:noescape
func rowsF32AVX512(x, y *float32, rows, n int, eps float64, sc, b *float64, flags int, st *[3]*float64)

//go:noescape
func lpRowsF32AVX512(x, y *float32, rows, n, p int)

//go:noescape
func writeF32AVX512(x, y *float32, n int, mean, f float64, sc, b *float64, flags int)

// haveRowsAVX512 picks the vector loops of rowsF32 (tests turn it off).
var haveRowsAVX512 = cpu.X86.HasAVX512F

// lanesF32 adds float64(x[k]) (termSquare: the rounded d*d of d =
// float64(x[k]) - m; termAbs: |float64(x[k])|) to p[k%16] for the whole
// sixteens of x, eight float64 lanes at a time, and returns how many
// elements it took.
func lanesF32(x []float32, m float64, term int, p *[16]float64) int {
	n := len(x) &^ 15
	if !haveRowsAVX512 || n == 0 {
		return 0
	}
	lanesF32AVX512(&x[0], n, m, term, p)
	return n
}

// writeF32 writes the whole eights of y (writeRow's or writeUniform's
// expression, flags as writeF32AVX512's) and returns how many it wrote.
func writeF32(x, y []float32, mean, f float64, sc, b []float64, flags int) int {
	n := len(x) &^ 7
	if !haveRowsAVX512 || n == 0 {
		return 0
	}
	_ = y[n-1]
	var scp, bp *float64
	if flags&1 != 0 {
		scp = &sc[0]
		if flags&4 != 0 {
			_ = sc[n-1]
		}
	}
	if flags&2 != 0 {
		bp = &b[0]
		if flags&4 != 0 {
			_ = b[n-1]
		}
	}
	writeF32AVX512(&x[0], &y[0], n, mean, f, scp, bp, flags)
	return n
}

// rowsF32 normalizes rows contiguous rows of n elements of x into y in one
// call (rowsF32AVX512), sc and b nil or n values, and stores each row's
// mean, variance and factor where st's pointers are not nil; it reports
// false, doing nothing, without AVX-512.
func rowsF32(stat Stat, eps float64, x, y []float32, rows, n int, sc, b []float64, st *[3]*float64) bool {
	if !haveRowsAVX512 || rows <= 0 || n <= 0 {
		return false
	}
	_, _ = x[rows*n-1], y[rows*n-1]
	flags := 0
	var scp, bp *float64
	if sc != nil {
		_ = sc[n-1]
		flags, scp = flags|1, &sc[0]
	}
	if b != nil {
		_ = b[n-1]
		flags, bp = flags|2, &b[0]
	}
	if stat == RMS {
		flags |= 16
	}
	rowsF32AVX512(&x[0], &y[0], rows, n, eps, scp, bp, flags, st)
	return true
}

// lpRowsF32 is lpNormalizeRowF32 of rows contiguous rows of n elements in
// one call (lpRowsF32AVX512); it reports false, doing nothing, without
// AVX-512.
func lpRowsF32(p int, x, y []float32, rows, n int) bool {
	if !haveRowsAVX512 || rows <= 0 || n <= 0 {
		return false
	}
	_, _ = x[rows*n-1], y[rows*n-1]
	lpRowsF32AVX512(&x[0], &y[0], rows, n, p)
	return true
}
