package reduce

import (
	"math"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

// Kind is what a reduction computes of its elements.
type Kind int

// The reductions. Each is a sequential accumulation in the computing type
// followed by a final step:
const (
	Sum       Kind = iota // sum
	SumSquare             // sum of x*x
	L1                    // sum of |x|
	L2                    // sqrt of the sum of x*x
	Mean                  // sum / count (integers: truncated; no element: NaN or 0)
	Max                   // largest, NaN wins (no element: -inf or the type's minimum)
	Min                   // smallest, NaN wins (no element: +inf or the type's maximum)
	Prod                  // product
	LogSum                // log of the sum
	LogSumExp             // m + log(sum of exp(x-m)), m the largest element
	Lp                    // (sum of |x|^p)^(1/p)
)

// Op is one reduction: its kind and, for Lp, the exponent.
type Op struct {
	Kind Kind
	P    float64
}

// Run writes the reduction op of x, laid out as l, to y (l.Outputs()
// elements), across the cores par gives it.
func Run[A Number](op Op, l Layout, x, y []A, par Parallel) error {
	if l.N == 0 {
		for i := range y {
			y[i] = finish(op, initial[A](op.Kind), 0, 0)
		}
		return nil
	}
	if yf, ok := any(y).([]float32); ok && op.Kind == LogSum {
		// The sums, then their float32 logarithms sixteen at a time
		// (logsumexp.go).
		if err := Run(Op{Kind: Sum}, l, x, y, par); err != nil {
			return err
		}
		return par(len(yf), len(yf)*8, func(lo, hi int) error {
			mathf.LogsTo(yf[lo:hi], yf[lo:hi])
			return nil
		})
	}
	if xf, ok := any(x).([]float32); ok && op.Kind == LogSumExp && l.N == 1 && !l.General {
		// One element each: m + log(exp32(x - m)) is m + log(1), x + 0.
		yf := any(y).([]float32)
		return par(len(yf), len(yf), func(lo, hi int) error {
			for i, v := range xf[lo:hi] {
				yf[lo+i] = v + 0
			}
			return nil
		})
	}
	if !l.General && l.N == 1 && l.Inner == 1 {
		// One element an output (every reduced axis of length 1, as
		// ReduceProd over the batch axis of a batch of one): the same
		// reduction read as one row of columns, n = 1, which the column
		// kernels do a vector at a time; reduce-last would make a call
		// per element (8 us instead of 0.5 for 1024 products).
		l = Layout{Outer: 1, N: 1, Inner: l.Outer}
	}
	switch {
	case l.General:
		return runGeneral(op, l, x, y, par)
	case l.Inner == 1:
		n := l.N
		return par(l.Outer, l.Outer*n, func(lo, hi int) error {
			o := lo
			if xf, ok := any(x).([]float32); ok && (op.Kind == Sum || op.Kind == Mean) {
				// Each row one sixteen-lane accumulator.
				rowSumsF32(xf[lo*n:hi*n], n, any(y).([]float32)[lo:hi], op.Kind == Mean)
				return nil
			}
			if xf, ok := any(x).([]float32); ok && (op.Kind == Max || op.Kind == Min) {
				// Sixty-four lanes, rows of 0 or NaN rewalked one by one.
				if rowExtremesF32(xf[lo*n:hi*n], n, any(y).([]float32)[lo:hi], op.Kind == Min) {
					return nil
				}
			}
			if xf, ok := any(x).([]float32); ok && op.Kind == Prod {
				// One after the other, small products in float64
				// rather than through denormals (prodrows.go).
				rowProdsF32(xf[lo*n:hi*n], n, any(y).([]float32)[lo:hi])
				return nil
			}
			if xf, ok := any(x).([]float32); ok && op.Kind == LogSumExp {
				// The maxima of a block of rows, then each row's
				// exponentials sixteen at a time (logsumexp.go).
				logSumExpRowsF32(xf[lo*n:hi*n], n, any(y).([]float32)[lo:hi], make([]float32, n))
				return nil
			}
			if xf, ok := any(x).([]float32); ok && (op.Kind == L1 || op.Kind == SumSquare || op.Kind == L2) {
				// Each row one sixteen-lane accumulator of its terms.
				yf := any(y).([]float32)[lo:hi]
				if rowTermSumsF32(xf[lo*n:hi*n], n, yf, op.Kind != L1) {
					if op.Kind == L2 {
						for i, s := range yf {
							yf[i] = finish(op, s, 0, n)
						}
					}
					return nil
				}
			}
			if xf, ok := any(x).([]float32); ok && op.Kind == Lp && op.P == 2 {
				// |x|^2 in float64 is x*x exactly, so its float32 term
				// is x*x rounded, and (s)^(1/2) is math.Sqrt: the
				// SumSquare rows, then the square roots. Only a NaN
				// differs (math.Pow's NaN, not the input's): a row
				// holding one sums to NaN and is redone below.
				yf := any(y).([]float32)[lo:hi]
				if rowTermSumsF32(xf[lo*n:hi*n], n, yf, true) {
					for i, s := range yf {
						if s != s {
							yf[i] = float32(reduceRow(op, x[(lo+i)*n:(lo+i+1)*n]))
							continue
						}
						yf[i] = float32(math.Sqrt(float64(s)))
					}
					return nil
				}
			}
			for ; o < hi; o++ {
				y[o] = reduceRow(op, x[o*n:(o+1)*n])
			}
			return nil
		})
	}
	// [Outer, N, Inner]: the outputs of one outer index accumulate N rows
	// of Inner elements. Parts are ranges of (outer, column block) pairs so
	// that a reduce-first (Outer 1) still spreads across cores. A block is
	// at most 512 columns so that its sixteen rows of partial sums (at most
	// 64 KiB, the same whatever the input) stay in the first caches.
	const block = columnBlock
	blocks := (l.Inner + block - 1) / block
	var m []A
	if op.Kind == LogSumExp {
		m = make([]A, len(y))
	}
	return par(l.Outer*blocks, l.Outer*l.N*l.Inner, func(lo, hi int) error {
		parts := &lazyParts[A]{size: min(l.N, lanes) * min(block, l.Inner)}
		for t := lo; t < hi; t++ {
			o, b := t/blocks, t%blocks
			c0, c1 := b*block, min((b+1)*block, l.Inner)
			in := x[o*l.N*l.Inner : (o+1)*l.N*l.Inner]
			out := y[o*l.Inner+c0 : o*l.Inner+c1]
			var mm []A
			if m != nil {
				mm = m[o*l.Inner+c0 : o*l.Inner+c1]
			}
			reduceColumns(op, in, l.N, l.Inner, c0, out, mm, parts)
		}
		return nil
	})
}

// columnBlock is the most columns Run reduces at once over an inner axis.
const columnBlock = 512

// lazyParts is the scratch of a column block's sixteen rows of partial
// sums, size elements, made on first use: the float32 sums whose columns
// the register kernels do whole (colSumsF32) need none, and a part of Run
// that made it anyway paid an allocation and the clearing of up to 32 KiB
// at every call, an eighth of a ReduceSum over a middle axis.
type lazyParts[A Number] struct {
	s    []A
	size int
}

// get returns the scratch, made the first time.
func (p *lazyParts[A]) get() []A {
	if p.s == nil {
		p.s = make([]A, p.size)
	}
	return p.s
}

// runGeneral gathers each output's elements into a row and reduces it.
func runGeneral[A Number](op Op, l Layout, x, y []A, par Parallel) error {
	red := offsets(l.Reduced)
	base := offsets(l.Kept)
	return par(len(y), len(y)*l.N, func(lo, hi int) error {
		row := make([]A, l.N)
		for o := lo; o < hi; o++ {
			b := base[o]
			for j, off := range red {
				row[j] = x[b+off]
			}
			y[o] = reduceRow(op, row)
		}
		return nil
	})
}

// isFloat reports whether A is a floating-point type.
func isFloat[A Number]() bool {
	var one A = 1
	return one/2 != 0
}

// initial is the accumulator before the first element.
func initial[A Number](k Kind) A {
	switch k {
	case Prod:
		return 1
	case Max, LogSumExp:
		return lowest[A]()
	case Min:
		return highest[A]()
	}
	return 0
}

// lowest is -inf for the float types and the minimum of an integer type.
func lowest[A Number]() A {
	if isFloat[A]() {
		return A(math.Inf(-1))
	}
	var zero A
	if zero-1 > 0 { // unsigned
		return 0
	}
	return A(int64(-1) << (bitsOf[A]() - 1))
}

// highest is +inf for the float types and the maximum of an integer type.
func highest[A Number]() A {
	if isFloat[A]() {
		return A(math.Inf(1))
	}
	var zero A
	if zero-1 > 0 { // unsigned
		return A(^uint64(0) >> (64 - bitsOf[A]()))
	}
	return A(int64(1)<<(bitsOf[A]()-1) - 1)
}

func bitsOf[A Number]() int {
	var zero A
	return int(unsafe.Sizeof(zero)) * 8
}

// fromFloat64 converts f to A: floats round, integers truncate toward zero
// and saturate (NaN gives 0), as onnxruntime's casts of a computed value do.
func fromFloat64[A Number](f float64) A {
	if isFloat[A]() {
		return A(f)
	}
	lo, hi := lowest[A](), highest[A]()
	switch {
	case f != f:
		return 0
	case f <= float64(lo):
		return lo
	case f >= float64(hi):
		return hi
	}
	return A(f)
}

// abs is |x|; -x of the most negative integer wraps to itself, as in C.
func abs[A Number](x A) A {
	if x < 0 {
		return -x
	}
	return x
}

// finish turns the accumulator acc of count elements into the result; m is
// the largest element, for LogSumExp.
func finish[A Number](op Op, acc A, m A, count int) A {
	switch op.Kind {
	case Mean:
		if !isFloat[A]() && count == 0 {
			return 0
		}
		return acc / A(count)
	case L2:
		return fromFloat64[A](math.Sqrt(float64(acc)))
	case LogSum:
		if f, ok := any(acc).(float32); ok {
			return A(mathf.Log(f))
		}
		return fromFloat64[A](math.Log(float64(acc)))
	case LogSumExp:
		mf := float64(m)
		if count == 0 {
			mf = math.Inf(-1)
		}
		if math.IsInf(mf, 0) {
			// All of the elements are -inf (or there is none), or one is
			// +inf: the log of the plain sum of exponentials.
			return fromFloat64[A](mf)
		}
		return fromFloat64[A](mf + math.Log(float64(acc)))
	case Lp:
		return fromFloat64[A](math.Pow(float64(acc), 1/op.P))
	}
	return acc
}

// reduceRow reduces one contiguous row of elements.
func reduceRow[A Number](op Op, row []A) A {
	switch op.Kind {
	case Sum, Mean, LogSum:
		return finish(op, sumRow(row), 0, len(row))
	case SumSquare, L2, L1:
		return finish(op, sumRowTerm(row, op.Kind != L1), 0, len(row))
	case Lp:
		return finish(op, sumRowOf(row, termOf[A](op)), 0, len(row))
	case Max:
		acc := lowest[A]()
		for _, v := range row {
			if v > acc || v != v {
				acc = v
			}
			if acc != acc {
				break
			}
		}
		return acc
	case Min:
		acc := highest[A]()
		for _, v := range row {
			if v < acc || v != v {
				acc = v
			}
			if acc != acc {
				break
			}
		}
		return acc
	case Prod:
		var acc A = 1
		for _, v := range row {
			acc *= v
		}
		return acc
	case LogSumExp:
		m := reduceRow(Op{Kind: Max}, row)
		var acc A
		if !math.IsInf(float64(m), 0) {
			acc = sumRowOf(row, expTerm(m))
		}
		return finish(op, acc, m, len(row))
	}
	return 0
}

// termOf is what a sum of kind op.Kind adds for each element, rounded to
// A (the explicit conversion keeps x*x from fusing with the addition);
// nil for a plain sum.
func termOf[A Number](op Op) func(A) A {
	switch op.Kind {
	case SumSquare, L2:
		return func(v A) A { return A(v * v) }
	case L1:
		return abs[A]
	case Lp:
		return func(v A) A { return fromFloat64[A](math.Pow(float64(abs(v)), op.P)) }
	}
	return nil
}

// expTerm is LogSumExp's term of the reference engine's logSumExpTerm:
// exp32(x - m) for float32, math.Exp of the float64 difference rounded
// (float64) or truncated (integers) to A otherwise.
func expTerm[A Number](m A) func(A) A {
	if mf, ok := any(m).(float32); ok {
		return func(v A) A { return A(exp32(float32(v) - mf)) }
	}
	return func(v A) A { return fromFloat64[A](math.Exp(float64(v) - float64(m))) }
}

// reduceColumns reduces the columns c0 to c0+len(out) of an [n, inner]
// block: out[j] is the reduction of in[i*inner+c0+j] over i. m is scratch
// of len(out) elements for LogSumExp, parts min(n, lanes)*len(out) for the
// sums (unused by Max, Min and Prod, which may pass nil).
func reduceColumns[A Number](op Op, in []A, n, inner, c0 int, out, m []A, parts *lazyParts[A]) {
	w := len(out)
	rows := func(yield func(row []A)) {
		for i := range n {
			yield(in[i*inner+c0 : i*inner+c0+w])
		}
	}
	switch op.Kind {
	case SumSquare, L2, L1:
		k := 0
		if xf, ok := any(in).([]float32); ok {
			k = colTermSumsF32(xf[c0:], n, inner, any(out).([]float32), op.Kind != L1)
		}
		if k < w {
			sumColumnsTerm(in, n, inner, c0+k, out[k:], parts.get(), op.Kind != L1)
		}
	case Sum, Mean, LogSum, Lp:
		if xf, ok := any(in).([]float32); ok && op.Kind != Lp {
			// Whole chunks of thirty-two columns in registers
			// (colSumsF32), the rest through parts.
			of := any(out).([]float32)
			k := colSumsF32(xf[c0:], n, inner, of)
			if k < w {
				sumColumnsOf(in, n, inner, c0+k, out[k:], parts.get(), nil)
			}
			break
		}
		var term func(int, A) A
		if t := termOf[A](op); t != nil {
			term = func(_ int, v A) A { return t(v) }
		}
		sumColumnsOf(in, n, inner, c0, out, parts.get(), term)
	case Max, LogSumExp:
		acc := out
		if op.Kind == LogSumExp {
			acc = m
		}
		k := 0
		if xf, ok := any(in).([]float32); ok && op.Kind == Max {
			// Chunks of 128 columns in registers (colExtremesF32).
			k = colExtremesF32(xf[c0:], n, inner, any(out).([]float32), false)
		}
		if k > 0 {
			acc, c0 = acc[k:], c0+k
			w -= k
		}
		for j := range acc {
			acc[j] = lowest[A]()
		}
		rows(func(row []A) { extremeRow(acc, row, false) })
	case Min:
		rest := out
		if xf, ok := any(in).([]float32); ok {
			k := colExtremesF32(xf[c0:], n, inner, any(out).([]float32), true)
			rest, c0 = out[k:], c0+k
			w -= k
		}
		for j := range rest {
			rest[j] = highest[A]()
		}
		rows(func(row []A) { extremeRow(rest, row, true) })
	case Prod:
		rest := out
		if xf, ok := any(in).([]float32); ok {
			k := colProdsF32(xf[c0:], n, inner, any(out).([]float32))
			rest, c0 = out[k:], c0+k
			w -= k
		}
		for j := range rest {
			rest[j] = 1
		}
		rows(func(row []A) {
			row = row[:len(rest)]
			for j, v := range row {
				rest[j] *= v
			}
		})
	}
	if op.Kind == LogSumExp {
		if inf, ok := any(in).([]float32); ok {
			logSumExpColumnsF32(inf, n, inner, c0, any(out).([]float32), any(m).([]float32), any(parts.get()).([]float32))
			return
		}
		sumColumnsOf(in, n, inner, c0, out, parts.get(), func(j int, v A) A {
			if math.IsInf(float64(m[j]), 0) {
				return 0
			}
			return expTerm(m[j])(v)
		})
	}
	if of, ok := any(out).([]float32); ok && (op.Kind == L2 || op.Kind == Mean) {
		// finish's float32 steps without its call per element.
		if op.Kind == Mean {
			divideRow(of, float32(n))
			return
		}
		for j, s := range of {
			of[j] = float32(math.Sqrt(float64(s)))
		}
		return
	}
	switch op.Kind {
	case Mean, L2, LogSum, LogSumExp, Lp:
		for j := range out {
			out[j] = finish(op, out[j], mOf(m, j), n)
		}
	}
}

func mOf[A Number](m []A, j int) A {
	if m == nil {
		return 0
	}
	return m[j]
}

// addRow adds row into acc, element by element.
func addRow[A Number](acc, row []A) {
	if a, ok := any(acc).([]float32); ok {
		addRowF32(a, any(row).([]float32))
		return
	}
	row = row[:len(acc)]
	for j, v := range row {
		acc[j] += v
	}
}

// extremeRow is the Max (Min with min) step of a column block: acc[j]
// takes row[j] when it is larger (smaller) or a NaN, unless acc[j] is a
// NaN already.
func extremeRow[A Number](acc, row []A, min bool) {
	if a, ok := any(acc).([]float32); ok {
		extremeRowF32(a, any(row).([]float32), min)
		return
	}
	extremeRowTail(acc, row, min)
}

// addTermRow adds |row[j]| (row[j]*row[j], rounded, with square) into
// acc[j].
func addTermRow[A Number](acc, row []A, square bool) {
	if a, ok := any(acc).([]float32); ok {
		addTermRowF32(a, any(row).([]float32), square)
		return
	}
	addTermRowTail(acc, row, square)
}
