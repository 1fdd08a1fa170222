package reduce

import "math"

// SoftmaxKind is one of the softmax family.
type SoftmaxKind int

// The softmax family, over the N axis of an [Outer, N, Inner] layout, with
// m the largest element of each slice and s the sum of exp(x-m):
const (
	Softmax    SoftmaxKind = iota // exp(x-m) / s
	LogSoftmax                    // (x-m) - log(s)
	Hardmax                       // 1 at the first largest element (a NaN wins), 0 elsewhere
)

// RunSoftmax writes the softmax kind of x, laid out as l (not General), to y
// of the same length. The exponential of float32 is exp32 (exp.go), that of
// float64 math.Exp; under sonnx (Softmax under the SONNX profile, whose
// exponential "refers to ONNX operator exp") it is math.Exp rounded to A
// for both. The sum is accumulated in A in the lane order (lanes.go). A
// Softmax slice of -inf only gives NaN (0/0), or under sonnx 0 ("0 if X[i]
// = -inf"). stream asks for streaming stores where the kernels have them
// (a large Softmax or LogSoftmax over the last axis, whose output is
// beyond the cache); they change no bit.
func RunSoftmax[A Number](kind SoftmaxKind, l Layout, x, y []A, sonnx, stream bool, par Parallel) error {
	if l.N == 0 || l.Outer*l.Inner == 0 {
		return nil
	}
	n, inner := l.N, l.Inner
	if inner == 1 {
		return par(l.Outer, l.Outer*n, func(lo, hi int) error {
			if kind == Hardmax {
				hardmaxRows(x[lo*n:hi*n], y[lo*n:hi*n], n)
				return nil
			}
			o := lo
			if xf, ok := any(x).([]float32); ok && kind != Hardmax && !sonnx {
				yf := any(y).([]float32)
				if kind == Softmax {
					softmaxRowsF32(xf[o*n:hi*n], yf[o*n:hi*n], n, stream)
				} else {
					logSoftmaxRowsF32(xf[o*n:hi*n], yf[o*n:hi*n], n, stream)
				}
				return nil
			}
			for ; o < hi; o++ {
				softmaxRow(kind, x[o*n:(o+1)*n], y[o*n:(o+1)*n], sonnx)
			}
			return nil
		})
	}
	const block = 512
	blocks := (inner + block - 1) / block
	return par(l.Outer*blocks, l.Outer*n*inner, func(lo, hi int) error {
		m, s := make([]A, block), make([]A, (lanes+1)*block)
		idx := make([]int, block)
		for t := lo; t < hi; t++ {
			o, b := t/blocks, t%blocks
			c0, c1 := b*block, min((b+1)*block, inner)
			in, out := x[o*n*inner:(o+1)*n*inner], y[o*n*inner:(o+1)*n*inner]
			softmaxColumns(kind, in, out, n, inner, c0, m[:c1-c0], s[:(lanes+1)*(c1-c0)], idx[:c1-c0], sonnx)
		}
		return nil
	})
}

// softmaxExp is the exponential of the softmax family (RunSoftmax):
// exp32 for float32 unless expOperator, else math.Exp rounded to A.
func softmaxExp[A Number](x A, expOperator bool) A {
	if f, ok := any(x).(float32); ok && !expOperator {
		return A(exp32(f))
	}
	return A(math.Exp(float64(x)))
}

// softmaxRow is the softmax kind of one contiguous slice, by the plain
// loop; float32 rows other than Hardmax, outside SONNX, take
// softmaxRowF32, which TestSoftmaxRowsF32 checks against this.
func softmaxRow[A Number](kind SoftmaxKind, x, y []A, sonnx bool) {
	if kind == Hardmax {
		at := argBest(x, true, false)
		for i := range y {
			y[i] = 0
		}
		y[at] = 1
		return
	}
	m := reduceRow(Op{Kind: Max}, x)
	if sonnx && kind == Softmax && math.IsInf(float64(m), -1) {
		clear(y)
		return
	}
	y = y[:len(x)]
	for i, v := range x {
		y[i] = softmaxExp(v-m, sonnx)
	}
	s := sumRow(y)
	if kind == Softmax {
		for i := range y {
			y[i] /= s
		}
		return
	}
	ls := A(math.Log(float64(s)))
	for i, v := range x {
		y[i] = (v - m) - ls
	}
}

// softmaxRowF32 is softmaxRow (Softmax or LogSoftmax, outside SONNX) of a
// float32 row, with the same steps and bits, faster: rowMax eight elements
// at a time, then the exponentials and their sum in one pass sixteen at a
// time (expShiftedRow), then the quotients eight at a time (divideRow).
func softmaxRowF32(kind SoftmaxKind, x, y []float32) {
	m := rowMax(x)
	s := expShiftedRow(y, x, m)
	if kind == Softmax {
		divideRow(y, s)
		return
	}
	logShiftRow(x, y, m, float32(math.Log(float64(s))))
}

// softmaxColumns is the softmax kind of the columns c0 to c0+len(m) of an
// [n, inner] block; m and idx are scratch of that many elements, s of
// lanes+1 times that many (the sums and their partials).
func softmaxColumns[A Number](kind SoftmaxKind, x, y []A, n, inner, c0 int, m, s []A, idx []int, sonnx bool) {
	w := len(m)
	row := func(z []A, i int) []A { return z[i*inner+c0 : i*inner+c0+w] }
	if kind == Hardmax {
		copy(m, row(x, 0))
		for j := range idx {
			idx[j] = 0
		}
		for i := 1; i < n; i++ {
			for j, v := range row(x, i) {
				if better(v, m[j], true, false) {
					m[j], idx[j] = v, i
				}
			}
		}
		for i := range n {
			r := row(y, i)
			for j := range r {
				r[j] = 0
				if idx[j] == i {
					r[j] = 1
				}
			}
		}
		return
	}
	for j := range m {
		m[j] = lowest[A]()
	}
	for i := range n {
		for j, v := range row(x, i) {
			if a := m[j]; (v > a || v != v) && a == a {
				m[j] = v
			}
		}
	}
	for i := range n {
		r := row(y, i)
		if xf, ok := any(row(x, i)).([]float32); ok && !sonnx {
			// expShiftedEach: the same bits, sixteen at a time.
			expShiftedEach(any(r).([]float32), xf, any(m).([]float32))
			continue
		}
		for j, v := range row(x, i) {
			r[j] = softmaxExp(v-m[j], sonnx)
		}
	}
	sumColumnsOf(y, n, inner, c0, s[:w], s[w:], nil)
	s = s[:w]
	if kind == Softmax {
		for i := range n {
			r := row(y, i)
			for j := range r {
				r[j] /= s[j]
			}
		}
		if sonnx {
			for j, v := range m {
				if math.IsInf(float64(v), -1) {
					for i := range n {
						row(y, i)[j] = 0
					}
				}
			}
		}
		return
	}
	for j := range s {
		s[j] = A(math.Log(float64(s[j])))
	}
	for i := range n {
		r := row(y, i)
		for j, v := range row(x, i) {
			r[j] = (v - m[j]) - s[j]
		}
	}
}

// hardmaxRows writes Hardmax of the rows of n elements of x to y: the
// index of each row's first largest element by argRows (a block of rows
// at a time), then the row cleared and 1 there.
func hardmaxRows[A Number](x, y []A, n int) {
	const block = 256
	var idx [block]int64
	for o := 0; o < len(x)/n; o += block {
		rows := min(block, len(x)/n-o)
		argRows(x[o*n:(o+rows)*n], n, idx[:rows], true, false)
		out := y[o*n : (o+rows)*n]
		clear(out)
		for r, i := range idx[:rows] {
			out[r*n+int(i)] = 1
		}
	}
}
