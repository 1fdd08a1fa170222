package reduce

import "slices"

// RunTopK writes to values and indices ([Outer, k, Inner]) the k largest
// (or, without largest, smallest) elements of each slice along N of x,
// laid out as l (not General), in order, equal elements by lower index
// first. A NaN counts as larger than every number (NaNs among themselves by
// index), as numpy's sort orders it.
//
// It selects rather than sorts: while k is small against N (k <= N/8) a
// bounded heap of the k best seen so far takes each element in one
// comparison with its worst, and only the k winners are sorted at the end;
// otherwise the slice is sorted whole. Either way the order is total
// (value, then index), so the result does not depend on the method. Each
// part of the work holds one slice's entries (16 bytes an element), which
// the caller charges.
func RunTopK[A Number](l Layout, x []A, k int, largest bool, values []A, indices []int64, par Parallel) error {
	n, inner := l.N, l.Inner
	if k == 0 || inner == 0 {
		return nil
	}
	order := func(a, b topKEntry[A]) int {
		if topKBefore(a, b, largest) {
			return -1
		}
		return 1 // entries differ by index: never equal
	}
	heap := k <= n/8
	return par(l.Outer*inner, l.Outer*inner*n, func(lo, hi int) error {
		var buf []topKEntry[A]
		if heap {
			buf = make([]topKEntry[A], 0, k)
		} else {
			buf = make([]topKEntry[A], n)
		}
		for t := lo; t < hi; t++ {
			o, j := t/inner, t%inner
			row := x[o*n*inner+j:]
			if heap {
				buf = selectTopK(buf[:0], row, n, inner, k, largest)
			} else {
				for i := range n {
					buf[i] = topKEntry[A]{row[i*inner], i}
				}
			}
			slices.SortFunc(buf, order)
			for r := range k {
				values[(o*k+r)*inner+j] = buf[r].v
				indices[(o*k+r)*inner+j] = int64(buf[r].i)
			}
		}
		return nil
	})
}

// topKBefore reports whether a comes before b in TopK's output: the
// larger (smaller, for !largest) value first, NaN after every number
// (compareNaNLast, reversed for largest), and the lower index first among
// equals. A plain function rather than a closure, so that the heap's
// loops inline it.
func topKBefore[A Number](a, b topKEntry[A], largest bool) bool {
	c := compareNaNLast(a.v, b.v)
	if largest {
		c = -c
	}
	return c < 0 || c == 0 && a.i < b.i
}

// topKEntry is one element of a slice: its value and index along the axis.
type topKEntry[A Number] struct {
	v A
	i int
}

// selectTopK returns in h (empty, of capacity k) the k entries of row
// (n elements, stride inner) that come first by topKBefore, in heap order: a
// heap whose root is the worst of them, which each later element has to
// beat to get in. Elements come in index order, so an element equal to the
// root never beats it (the lower index wins a tie).
func selectTopK[A Number](h []topKEntry[A], row []A, n, inner, k int, largest bool) []topKEntry[A] {
	for i := range k {
		h = append(h, topKEntry[A]{row[i*inner], i})
		// Sift up: the worst entry rises to the root.
		for c := i; c > 0; {
			p := (c - 1) / 2
			if !topKBefore(h[p], h[c], largest) {
				break
			}
			h[p], h[c] = h[c], h[p]
			c = p
		}
	}
	// Most elements lose to the root at a plain comparison with its value
	// (a NaN on either side fails it and goes to the full order).
	worst := h[0].v
	// A contiguous float32 row skips the elements that lose to the root
	// sixteen at a time (beyondF32), the same test as the loop's.
	var f32 []float32
	if inner == 1 {
		f32, _ = any(row).([]float32)
		if f32 != nil {
			f32 = f32[:n]
		}
	}
	for i := k; i < n; i++ {
		if f32 != nil {
			if i = beyondF32(f32, i, float32(worst), !largest); i >= n {
				break
			}
		}
		v := row[i*inner]
		if largest && v <= worst || !largest && v >= worst {
			continue
		}
		e := topKEntry[A]{v, i}
		if !topKBefore(e, h[0], largest) {
			continue
		}
		// Replace the root and sift it down.
		h[0] = e
		for p := 0; ; {
			c := 2*p + 1
			if c >= k {
				break
			}
			if c+1 < k && topKBefore(h[c], h[c+1], largest) {
				c++
			}
			if !topKBefore(h[p], h[c], largest) {
				break
			}
			h[p], h[c] = h[c], h[p]
			p = c
		}
		worst = h[0].v
	}
	return h
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
