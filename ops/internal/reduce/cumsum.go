package reduce

// RunCumSum writes to y the running sums of x along N of the layout l (not
// General): y at i is the sum of the elements before i (exclusive) or up to
// i, counted from the end with reverse. Sums run in index order from the
// first element summed, in A (integers wrap).
func RunCumSum[A Number](l Layout, x, y []A, exclusive, reverse bool, par Parallel) error {
	n, inner := l.N, l.Inner
	if n == 0 || inner == 0 {
		return nil
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
			if exclusive {
				clear(prev)
			} else {
				copy(prev, row(in, 0))
			}
			for i := 1; i < n; i++ {
				cur, add := row(out, i), row(in, i)
				if exclusive {
					add = row(in, i-1)
				}
				add = add[:len(cur)]
				prev = prev[:len(cur)]
				for j := range cur {
					cur[j] = prev[j] + add[j]
				}
				prev = cur
			}
		}
		return nil
	})
}
