package reduce

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
			for o := lo; o < hi; o++ {
				cumulativeRow(x[o*n:(o+1)*n], y[o*n:(o+1)*n], exclusive, reverse, product)
			}
			return nil
		})
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
				if product {
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
