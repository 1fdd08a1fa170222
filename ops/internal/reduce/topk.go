package reduce

import "slices"

// RunTopK writes to values and indices ([Outer, k, Inner]) the k largest
// (or, without largest, smallest) elements of each slice along N of x,
// laid out as l (not General), in order, equal elements by lower index
// first. A NaN counts as larger than every number (NaNs among themselves by
// index), as numpy's sort orders it.
func RunTopK[A Number](l Layout, x []A, k int, largest bool, values []A, indices []int64, par Parallel) error {
	n, inner := l.N, l.Inner
	if k == 0 || inner == 0 {
		return nil
	}
	return par(l.Outer*inner, l.Outer*inner*n, func(lo, hi int) error {
		order := make([]int, n)
		for t := lo; t < hi; t++ {
			o, j := t/inner, t%inner
			at := func(i int) A { return x[(o*n+i)*inner+j] }
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int {
				va, vb := at(a), at(b)
				c := compareNaNLast(va, vb)
				if largest {
					c = -c
				}
				return c
			})
			for r := range k {
				values[(o*k+r)*inner+j] = at(order[r])
				indices[(o*k+r)*inner+j] = int64(order[r])
			}
		}
		return nil
	})
}

// compareNaNLast orders numbers as < does and every NaN after them, NaNs
// equal among themselves.
func compareNaNLast[A Number](a, b A) int {
	switch an, bn := a != a, b != b; {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
