package reduce

import (
	"math"
	"slices"
	"sync"
)

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
// the caller charges; a warm call allocates nothing (topKBufs).
func RunTopK[A Number](l Layout, x []A, k int, largest bool, values []A, indices []int64, par Parallel) error {
	n, inner := l.N, l.Inner
	if k == 0 || inner == 0 {
		return nil
	}
	rows := l.Outer * inner
	if rows*n <= topKSerialWork {
		// Too little work to share or to look at the context in between:
		// on the caller's core, without the closure par would need.
		topKRows(l, x, k, largest, values, indices, 0, rows)
		return nil
	}
	return par(rows, rows*n, func(lo, hi int) error {
		topKRows(l, x, k, largest, values, indices, lo, hi)
		return nil
	})
}

// topKSerialWork is the most work (elements compared) RunTopK does on the
// caller's core without handing it to par.
const topKSerialWork = 1 << 14

// topKStack is the largest k whose heap lives on the stack; a larger heap,
// and the whole-slice sort's buffer, come from topKBufs.
const topKStack = 32

// topKBufs keeps the entry buffers of larger selections between calls (a
// *[]topKEntry[A] of whichever A last used one), so that a warm run
// allocates none; the caller charges the space as scratch either way.
var topKBufs sync.Pool

// topKRows selects the rows [lo, hi) of RunTopK's [Outer*Inner] slices.
func topKRows[A Number](l Layout, x []A, k int, largest bool, values []A, indices []int64, lo, hi int) {
	n, inner := l.N, l.Inner
	if xf, ok := any(x).([]float32); ok && uint64(n) <= math.MaxUint32 {
		topKRowsF32(l, xf, k, largest, any(values).([]float32), indices, lo, hi)
		return
	}
	heap := k <= n/8
	var stack [topKStack]topKEntry[A]
	var buf []topKEntry[A]
	switch {
	case heap && k <= topKStack:
		buf = stack[:0:k]
	default:
		size := n
		if heap {
			size = k
		}
		p, ok := topKBufs.Get().(*[]topKEntry[A])
		if !ok || cap(*p) < size {
			b := make([]topKEntry[A], size)
			p = &b
		}
		defer topKBufs.Put(p)
		buf = (*p)[:size]
	}
	cmp := topKCompareSmallest[A]
	if largest {
		cmp = topKCompareLargest[A]
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
		slices.SortFunc(buf, cmp)
		for r := range k {
			values[(o*k+r)*inner+j] = buf[r].v
			indices[(o*k+r)*inner+j] = int64(buf[r].i)
		}
	}
}

// topKRowsF32 is topKRows for float32, on keys: each element becomes one
// uint64 (topKKey) whose integer order is TopK's order, value then lower
// index, so that the heap and the final sort compare integers; the values
// written are read back from x by index (a -0 stays -0, a NaN keeps its
// bits).
func topKRowsF32(l Layout, x []float32, k int, largest bool, values []float32, indices []int64, lo, hi int) {
	n, inner := l.N, l.Inner
	heap := k <= n/8
	var stack [topKStack]uint64
	var buf []uint64
	switch {
	case heap && k <= topKStack:
		buf = stack[:k]
	default:
		size := n
		if heap {
			size = k
		}
		p, ok := topKBufs.Get().(*[]uint64)
		if !ok || cap(*p) < size {
			b := make([]uint64, size)
			p = &b
		}
		defer topKBufs.Put(p)
		buf = (*p)[:size]
	}
	for t := lo; t < hi; t++ {
		o, j := t/inner, t%inner
		row := x[o*n*inner+j:]
		if heap {
			selectTopKF32(buf, row, n, inner, largest)
		} else {
			for i := range n {
				buf[i] = topKKey(row[i*inner], i, largest)
			}
		}
		slices.Sort(buf)
		for r := range k {
			i := int(^uint32(buf[len(buf)-1-r]))
			values[(o*k+r)*inner+j] = row[i*inner]
			indices[(o*k+r)*inner+j] = int64(i)
		}
	}
}

// topKKey is the key of x[i] whose uint64 order is TopK's (the larger key
// first): in the high half the float's order as an integer (zeros made
// one, every NaN above +Inf; all bits flipped for !largest, so that the
// smaller comes first and a NaN last), in the low half the index flipped
// (the lower index first among equals).
func topKKey(v float32, i int, largest bool) uint64 {
	b := math.Float32bits(v)
	switch {
	case v != v:
		b = math.MaxUint32
	case v == 0:
		b = 1 << 31
	case b>>31 == 1:
		b = ^b
	default:
		b |= 1 << 31
	}
	if !largest {
		b = ^b
	}
	return uint64(b)<<32 | uint64(^uint32(i))
}

// selectTopKF32 fills h (of length k) with the k largest keys of row (n
// elements, stride inner) as a heap whose root is the smallest of them,
// which each later element has to beat to get in.
func selectTopKF32(h []uint64, row []float32, n, inner int, largest bool) {
	k := len(h)
	for i := range k {
		h[i] = topKKey(row[i*inner], i, largest)
		for c := i; c > 0; { // sift up: the smallest key rises to the root
			p := (c - 1) / 2
			if h[p] <= h[c] {
				break
			}
			h[p], h[c] = h[c], h[p]
			c = p
		}
	}
	var f32 []float32
	if inner == 1 {
		f32 = row[:n]
	}
	worst := row[int(^uint32(h[0]))*inner]
	for i := k; i < n; i++ {
		// Most elements lose to the root at a plain comparison with its
		// value (a NaN on either side fails it and goes to the keys), a
		// contiguous row sixteen at a time (beyondF32).
		if f32 != nil {
			if i = beyondF32(f32, i, worst, !largest); i >= n {
				break
			}
		}
		v := row[i*inner]
		if largest && v <= worst || !largest && v >= worst {
			continue
		}
		e := topKKey(v, i, largest)
		if e <= h[0] {
			continue
		}
		h[0] = e
		for p := 0; ; { // sift the new root down
			c := 2*p + 1
			if c >= k {
				break
			}
			if c+1 < k && h[c+1] < h[c] {
				c++
			}
			if h[p] <= h[c] {
				break
			}
			h[p], h[c] = h[c], h[p]
			p = c
		}
		worst = row[int(^uint32(h[0]))*inner]
	}
}

// topKCompareLargest and topKCompareSmallest are topKBefore as the
// comparison functions of slices.SortFunc (entries differ by index: never
// equal).
func topKCompareLargest[A Number](a, b topKEntry[A]) int {
	if topKBefore(a, b, true) {
		return -1
	}
	return 1
}

func topKCompareSmallest[A Number](a, b topKEntry[A]) int {
	if topKBefore(a, b, false) {
		return -1
	}
	return 1
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
