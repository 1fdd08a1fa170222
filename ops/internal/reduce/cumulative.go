package reduce

import (
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/ops/internal/movement"
)

// RunCumSum writes to y the running sums of x along N of the layout l (not
// General): y at i is the sum of the elements before i (exclusive) or up to
// i, counted from the end with reverse. Sums run in index order from the
// first element summed, in A (integers wrap).
func RunCumSum[A Number](l Layout, x, y []A, exclusive, reverse bool, par Parallel) error {
	return runCumulative(l, x, y, exclusive, reverse, false, par)
}

// RunCumProd is RunCumSum for running products (CumProd): the exclusive
// product before the first element is 1.
func RunCumProd[A Number](l Layout, x, y []A, exclusive, reverse bool, par Parallel) error {
	return runCumulative(l, x, y, exclusive, reverse, true, par)
}

// runCumulative is the walk CumSum and CumProd share: row i of the output
// is row i-1 combined (added, or multiplied with product) with the input
// row that enters it, so each row is one vector loop over Inner.
func runCumulative[A Number](l Layout, x, y []A, exclusive, reverse, product bool, par Parallel) error {
	n, inner := l.N, l.Inner
	if n == 0 || inner == 0 {
		return nil
	}
	if inner == 1 {
		return par(l.Outer, l.Outer*n, func(lo, hi int) error {
			o := lo
			// Rows four abreast: a row's running value is one chain of
			// dependent additions (4 cycles each for float32), and four
			// independent chains fill the time one leaves idle.
			if rowsAbreast(l.Outer, n, int(unsafe.Sizeof(A(0)))) {
				for ; o+4 <= hi; o += 4 {
					cumulativeRows4(x[o*n:(o+4)*n], y[o*n:(o+4)*n], n, exclusive, reverse, product)
				}
			}
			for ; o < hi; o++ {
				cumulativeRow(x[o*n:(o+1)*n], y[o*n:(o+1)*n], exclusive, reverse, product)
			}
			return nil
		})
	}
	combine, streamed := vectorRows[A](product)
	if streamed != nil && l.Outer*n*inner*int(unsafe.Sizeof(A(0))) >= streamBytes {
		return cumulativeStreamed(l, x, y, exclusive, reverse, product, combine, streamed, par)
	}
	return par(l.Outer, l.Outer*n*inner, func(lo, hi int) error {
		for o := lo; o < hi; o++ {
			in, out := x[o*n*inner:(o+1)*n*inner], y[o*n*inner:(o+1)*n*inner]
			row := func(z []A, i int) []A {
				if reverse {
					i = n - 1 - i
				}
				return z[i*inner : (i+1)*inner]
			}
			prev := row(out, 0)
			switch {
			case !exclusive:
				copy(prev, row(in, 0))
			case product:
				for j := range prev {
					prev[j] = 1
				}
			default:
				clear(prev)
			}
			for i := 1; i < n; i++ {
				cur, next := row(out, i), row(in, i)
				if exclusive {
					next = row(in, i-1)
				}
				next = next[:len(cur)]
				prev = prev[:len(cur)]
				if combine != nil {
					combine(cur, prev, next)
				} else if product {
					for j := range cur {
						cur[j] = prev[j] * next[j]
					}
				} else {
					for j := range cur {
						cur[j] = prev[j] + next[j]
					}
				}
				prev = cur
			}
		}
		return nil
	})
}

// cumulativeRow is runCumulative's walk over one contiguous row (Inner 1)
// with the same operations in the same order: the first output is the
// first input (or the identity, exclusive), each next one the one before
// combined with the input that enters it.
func cumulativeRow[A Number](in, out []A, exclusive, reverse, product bool) {
	n := len(in)
	out = out[:n]
	first, step := 0, 1
	if reverse {
		first, step = n-1, -1
	}
	var acc A
	switch {
	case !exclusive:
		acc = in[first]
	case product:
		acc = 1
	}
	out[first] = acc
	i := first
	for range n - 1 {
		enter := i + step // the input that enters the next output
		if exclusive {
			enter = i
		}
		i += step
		if product {
			acc *= in[enter]
		} else {
			acc += in[enter]
		}
		out[i] = acc
	}
}

// rowsAbreast reports whether runCumulative takes outer rows of n
// elements of size bytes four at a time (Inner 1): when the rows are short
// (four of them one run of memory), or all of them fit in L2. Four longer
// rows out of memory are four short streams the prefetchers do not learn:
// 112-element float32 rows of 25 MB took 1.5x as long four abreast as one
// by one, 2.2x less time when in cache (branch ops, session 22).
func rowsAbreast(outer, n, size int) bool {
	return n*size <= 128 || outer*n*size <= 1<<20
}

// cumulativeRows4 is cumulativeRow over the four rows of n in in and out,
// the four running values carried side by side: each row gets the same
// operations in the same order as cumulativeRow gives it.
func cumulativeRows4[A Number](in, out []A, n int, exclusive, reverse, product bool) {
	in0, in1, in2, in3 := in[:n], in[n:2*n], in[2*n:3*n], in[3*n:4*n]
	out0, out1, out2, out3 := out[:n], out[n:2*n], out[2*n:3*n], out[3*n:4*n]
	first, step := 0, 1
	if reverse {
		first, step = n-1, -1
	}
	var a0, a1, a2, a3 A
	switch {
	case !exclusive:
		a0, a1, a2, a3 = in0[first], in1[first], in2[first], in3[first]
	case product:
		a0, a1, a2, a3 = 1, 1, 1, 1
	}
	out0[first], out1[first], out2[first], out3[first] = a0, a1, a2, a3
	// Output i takes input i (inclusive) or the one before it in the
	// walk's order (exclusive): enter runs off from i by lag.
	lag := 0
	if exclusive {
		lag = -step
	}
	i := first
	if product {
		for range n - 1 {
			i += step
			e := i + lag
			a0 *= in0[e]
			a1 *= in1[e]
			a2 *= in2[e]
			a3 *= in3[e]
			out0[i], out1[i], out2[i], out3[i] = a0, a1, a2, a3
		}
		return
	}
	for range n - 1 {
		i += step
		e := i + lag
		a0 += in0[e]
		a1 += in1[e]
		a2 += in2[e]
		a3 += in3[e]
		out0[i], out1[i], out2[i], out3[i] = a0, a1, a2, a3
	}
}

// Vector rows: the float32 and float64 rows of runCumulative, element by
// element the same one addition or multiplication as its Go loops, and the
// same loops with streaming stores (nil without them).
var (
	addRowsF32 = elementwise.Vectorized("Add", elementwise.Binary(func(a, b float32) float32 { return a + b }))
	mulRowsF32 = elementwise.Vectorized("Mul", elementwise.Binary(func(a, b float32) float32 { return a * b }))
	addRowsF64 = elementwise.Vectorized("Add", elementwise.Binary(func(a, b float64) float64 { return a + b }))
	mulRowsF64 = elementwise.Vectorized("Mul", elementwise.Binary(func(a, b float64) float64 { return a * b }))
)

// vectorRows returns the vector loop that sets out[j] = prev[j] op next[j]
// for A, and its streaming form; nil when A has none (integers: the Go
// loops).
func vectorRows[A Number](product bool) (rows, streamed func(out, prev, next []A)) {
	var f, g any
	pick := func(add, mul *elementwise.BinarySpans[A, A, A]) {
		s := add
		if product {
			s = mul
		}
		f = s.Both
		if s.Streamed != nil {
			g = s.Streamed.Both
		}
	}
	switch any(A(0)).(type) {
	case float32:
		pick(any(&addRowsF32).(*elementwise.BinarySpans[A, A, A]), any(&mulRowsF32).(*elementwise.BinarySpans[A, A, A]))
	case float64:
		pick(any(&addRowsF64).(*elementwise.BinarySpans[A, A, A]), any(&mulRowsF64).(*elementwise.BinarySpans[A, A, A]))
	}
	rows, _ = f.(func(out, prev, next []A))
	streamed, _ = g.(func(out, prev, next []A))
	return rows, streamed
}

// streamBytes is the output from which runCumulative writes with streaming
// stores: beyond the caches, where reading each output line before writing
// it would cost a third more memory traffic.
const streamBytes = 4 << 20

// cumulativeBlock is the run of columns cumulativeStreamed carries in its
// accumulator (4 KB of float32, in L1).
const cumulativeBlock = 1024

// cumulativeStreamed is runCumulative's walk for a large output, a block
// of columns at a time: the running value stays in a small accumulator
// (acc = acc op x, the same operation in the same order) and each output
// row is written once, with streaming stores, as acc op x again, never
// read back.
func cumulativeStreamed[A Number](l Layout, x, y []A, exclusive, reverse, product bool, combine, streamed func(out, prev, next []A), par Parallel) error {
	n, inner := l.N, l.Inner
	blocks := (inner + cumulativeBlock - 1) / cumulativeBlock
	return par(l.Outer*blocks, l.Outer*n*inner, func(lo, hi int) error {
		var accBuf [cumulativeBlock]A
		for t := lo; t < hi; t++ {
			o, b := t/blocks, t%blocks
			j0 := b * cumulativeBlock
			w := min(cumulativeBlock, inner-j0)
			at := func(i int) int {
				if reverse {
					i = n - 1 - i
				}
				return o*n*inner + i*inner + j0
			}
			acc := accBuf[:w]
			switch {
			case !exclusive:
				copy(acc, x[at(0):at(0)+w])
			case product:
				for j := range acc {
					acc[j] = 1
				}
			default:
				clear(acc)
			}
			copy(y[at(0):at(0)+w], acc)
			for i := 1; i < n; i++ {
				enter := at(i)
				if exclusive {
					enter = at(i - 1)
				}
				next := x[enter : enter+w]
				streamed(y[at(i):at(i)+w], acc, next)
				combine(acc, acc, next)
			}
		}
		movement.StoreFence()
		return nil
	})
}
