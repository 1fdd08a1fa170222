package reduce

// lanes is the number of partial sums of every sum of the engine, in the
// order the reference engine defines (reference/sumlanes.go): term k of an
// output (its elements in row-major order) is added, in order, to partial
// k mod 16, each partial starting at 0; then the partials are added by
// halves, p[j] += p[j+8] for j < 8, then +4, +2 and +1, and p[0] is the
// sum. A row of float32 is then one sixteen-lane vector accumulator, and a
// column block sixteen rows of accumulators, with no transposes and every
// addition in flight independent of the last fifteen. Products, maxima and
// minima go one element after the other from the first.
const lanes = 16

// sumRow is the sum of row in the lane order.
func sumRow[A Number](row []A) A {
	var p [lanes]A
	for len(row) >= lanes {
		r := row[:lanes]
		p[0] += r[0]
		p[1] += r[1]
		p[2] += r[2]
		p[3] += r[3]
		p[4] += r[4]
		p[5] += r[5]
		p[6] += r[6]
		p[7] += r[7]
		p[8] += r[8]
		p[9] += r[9]
		p[10] += r[10]
		p[11] += r[11]
		p[12] += r[12]
		p[13] += r[13]
		p[14] += r[14]
		p[15] += r[15]
		row = row[lanes:]
	}
	for k, v := range row {
		p[k] += v
	}
	return combineLanes(&p)
}

// sumRowOf is the sum of term(v) over row in the lane order; each term is
// rounded to A before it is added.
func sumRowOf[A Number](row []A, term func(A) A) A {
	var p [lanes]A
	for k, v := range row {
		p[k%lanes] += term(v)
	}
	return combineLanes(&p)
}

// sumRowTerm is sumRowOf with termOf's L1 term |v| (SumSquare's v*v with
// square), without a call per element.
func sumRowTerm[A Number](row []A, square bool) A {
	var p [lanes]A
	for len(row) >= lanes {
		r := row[:lanes]
		for k := range lanes {
			v := r[k]
			if square {
				p[k] += A(v * v)
			} else {
				p[k] += abs(v)
			}
		}
		row = row[lanes:]
	}
	for k, v := range row {
		if square {
			p[k] += A(v * v)
		} else {
			p[k] += abs(v)
		}
	}
	return combineLanes(&p)
}

// combineLanes adds the partials by halves and returns the sum.
func combineLanes[A Number](p *[lanes]A) A {
	for half := lanes / 2; half >= 1; half /= 2 {
		for j := range half {
			p[j] += p[j+half]
		}
	}
	return p[0]
}

// sumColumnsOf sets out[j] to the sum, in the lane order, of term(j, x)
// (x itself when term is nil) for x of column c0+j of the n rows of an
// [n, inner] block; parts is scratch of min(n, lanes)*len(out) elements, the
// sixteen rows of partials.
func sumColumnsOf[A Number](in []A, n, inner, c0 int, out, parts []A, term func(int, A) A) {
	w := len(out)
	parts = parts[:min(n, lanes)*w]
	clear(parts[:min(n, lanes)*w])
	for i := range n {
		p := parts[(i%lanes)*w : (i%lanes+1)*w]
		row := in[i*inner+c0 : i*inner+c0+w]
		if term == nil {
			addRow(p, row)
			continue
		}
		for j, v := range row {
			p[j] += term(j, v)
		}
	}
	foldParts(parts, w, n, out)
}

// sumColumnsTerm is sumColumnsOf with the term |x| (x*x with square).
func sumColumnsTerm[A Number](in []A, n, inner, c0 int, out, parts []A, square bool) {
	w := len(out)
	parts = parts[:min(n, lanes)*w]
	clear(parts[:min(n, lanes)*w])
	for i := range n {
		addTermRow(parts[(i%lanes)*w:(i%lanes+1)*w], in[i*inner+c0:i*inner+c0+w], square)
	}
	foldParts(parts, w, n, out)
}

// foldParts adds the sixteen rows of w partials of a column block of n
// rows by halves (row l += row l+half) and writes row 0 to out. Rows that
// no element reached (n < 16) hold +0 and are skipped: a partial that
// started at +0 is never -0, so adding +0 to it changes no bit.
func foldParts[A Number](parts []A, w, n int, out []A) {
	live := min(n, lanes)
	for half := lanes / 2; half >= 1; half /= 2 {
		for l := 0; l < half && l+half < live; l++ {
			addRow(parts[l*w:(l+1)*w], parts[(l+half)*w:(l+half+1)*w])
		}
		live = min(live, half)
	}
	if n == 0 {
		clear(out)
		return
	}
	copy(out, parts[:w])
}

// meanOf is s / float32(n) when mean is set (Mean's finish), else s.
func meanOf(s float32, n int, mean bool) float32 {
	if mean {
		return s / float32(n)
	}
	return s
}
