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
	if n == 1 {
		// Every slice is one element, at index 0 (as ArgMax over the
		// batch axis of a batch of one): the column path would make its
		// scratch and run its vector loop over one row.
		return par(len(idx), len(idx), func(lo, hi int) error {
			clear(idx[lo:hi])
			return nil
		})
	}
	if inner == 1 {
		return par(l.Outer, l.Outer*n, func(lo, hi int) error {
			argRows(x[lo*n:hi*n], n, idx[lo:hi], max, last)
			return nil
		})
	}
	// Parts are ranges of (outer, column block) pairs, so that an
	// ArgMax over the first axis (Outer 1) spreads across cores too, and
	// a part's scratch is one block's.
	xf, isF32 := any(x).([]float32)
	blocks := (inner + argColumnBlock - 1) / argColumnBlock
	return par(l.Outer*blocks, l.Outer*n*inner, func(lo, hi int) error {
		best := make([]A, min(argColumnBlock, inner))
		var rows []int32
		if isF32 {
			rows = make([]int32, len(best))
		}
		for t := lo; t < hi; t++ {
			o, b := t/blocks, t%blocks
			c0 := b * argColumnBlock
			w := min(argColumnBlock, inner-c0)
			base := o*n*inner + c0
			in, out := x[base:base+(n-1)*inner+w], idx[o*inner+c0:o*inner+c0+w]
			// float32 columns sixteen or eight at a time where the
			// processor can, the rest (or all) one at a time.
			k := 0
			if isF32 {
				k = argColsF32(xf[base:base+(n-1)*inner+w], n, inner, w, out, rows, max, last)
			}
			copy(best[k:w], in[k:w])
			for j := k; j < w; j++ {
				out[j] = 0
			}
			for i := 1; i < n; i++ {
				for j, v := range in[i*inner+k : i*inner+w] {
					if better(v, best[k+j], max, last) {
						best[k+j], out[k+j] = v, int64(i)
					}
				}
			}
		}
		return nil
	})
}

// argColumnBlock is the most columns RunArg's parts take at a time over
// an inner axis (a multiple of 128, the vector loop's chunk).
const argColumnBlock = 4096

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
