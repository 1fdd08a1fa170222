package reduce

// better reports whether v replaces best as the largest (max) or smallest
// element found so far, walking in index order: a NaN beats every number,
// and with last an equal element (or a later NaN) replaces it.
func better[A Number](v, best A, max, last bool) bool {
	if best != best { // a NaN is kept, unless a later NaN is wanted
		return last && v != v
	}
	if v != v {
		return true
	}
	if max {
		return v > best || (last && v == best)
	}
	return v < best || (last && v == best)
}

// argBest returns the index of the largest (max) or smallest element of a
// non-empty row, the first or (last) the last of equal ones.
func argBest[A Number](row []A, max, last bool) int {
	at, best := 0, row[0]
	for i := 1; i < len(row); i++ {
		if better(row[i], best, max, last) {
			at, best = i, row[i]
		}
	}
	return at
}

// RunArg writes to idx (l.Outputs() elements) the index along N of the
// largest (max) or smallest element of each slice of x, laid out as l (not
// General, N > 0); with last, the last of equal elements.
func RunArg[A Number](l Layout, x []A, idx []int64, max, last bool, par Parallel) error {
	n, inner := l.N, l.Inner
	if inner == 1 {
		return par(l.Outer, l.Outer*n, func(lo, hi int) error {
			argRows(x[lo*n:hi*n], n, idx[lo:hi], max, last)
			return nil
		})
	}
	xf, isF32 := any(x).([]float32)
	return par(l.Outer, l.Outer*n*inner, func(lo, hi int) error {
		best := make([]A, inner)
		var rows []int32
		if isF32 {
			rows = make([]int32, inner)
		}
		for o := lo; o < hi; o++ {
			in, out := x[o*n*inner:(o+1)*n*inner], idx[o*inner:(o+1)*inner]
			// float32 columns eight at a time where the processor can,
			// the rest (or all) one at a time.
			c0 := 0
			if isF32 {
				c0 = argColsF32(xf[o*n*inner:(o+1)*n*inner], n, inner, out, rows, max, last)
			}
			copy(best[c0:], in[c0:inner])
			for j := c0; j < inner; j++ {
				out[j] = 0
			}
			for i := 1; i < n; i++ {
				for j, v := range in[i*inner+c0 : (i+1)*inner] {
					if better(v, best[c0+j], max, last) {
						best[c0+j], out[c0+j] = v, int64(i)
					}
				}
			}
		}
		return nil
	})
}

// argRows sets idx[r] to argBest of row r of the len(idx) rows of n
// elements of x: float32 rows a block at a time through argRowsF32 where
// the processor has its vector loops.
func argRows[A Number](x []A, n int, idx []int64, max, last bool) {
	if xf, ok := any(x).([]float32); ok {
		const block = 256
		var ext [block]float32
		o := 0
		for o < len(idx) {
			hi := min(o+block, len(idx))
			if !argRowsF32(xf[o*n:hi*n], n, idx[o:hi], ext[:], max, last) {
				break
			}
			o = hi
		}
		idx, x = idx[o:], x[o*n:]
	}
	for o := range idx {
		idx[o] = int64(argBest(x[o*n:(o+1)*n], max, last))
	}
}
