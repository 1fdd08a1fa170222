package reference

// The index arithmetic every kernel of this package uses: row-major
// strides, and the conversion between a flat element number and its
// multi-index.

// stridesOf returns the row-major strides, in elements, of shape.
func stridesOf(shape []int) []int {
	s := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = n
		n *= shape[i]
	}
	return s
}

// unravel returns the multi-index of element flat of a tensor of shape.
func unravel(flat int, shape []int) []int {
	idx := make([]int, len(shape))
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] > 0 {
			idx[i] = flat % shape[i]
			flat /= shape[i]
		}
	}
	return idx
}

// ravel returns the flat element number of multi-index idx under strides.
func ravel(idx, strides []int) int {
	flat := 0
	for i, k := range idx {
		flat += k * strides[i]
	}
	return flat
}

// numElements is the product of the dimensions (1 for a scalar).
func numElements(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// nextIndex advances multi-index idx to the next one of shape in row-major
// order, and reports false after the last.
func nextIndex(idx, shape []int) bool {
	for i := len(shape) - 1; i >= 0; i-- {
		idx[i]++
		if idx[i] < shape[i] {
			return true
		}
		idx[i] = 0
	}
	return false
}

// forEachIndex calls f with every multi-index of shape in row-major order,
// together with its flat element number; the slice is reused between calls.
func forEachIndex(shape []int, f func(flat int, idx []int)) {
	if numElements(shape) == 0 {
		return
	}
	idx := make([]int, len(shape))
	for flat := 0; ; flat++ {
		f(flat, idx)
		if !nextIndex(idx, shape) {
			return
		}
	}
}

// forEachIndexWhile is forEachIndex stopping as soon as f returns false: a
// kernel's loop that has seen its run cancelled.
func forEachIndexWhile(shape []int, f func(flat int, idx []int) bool) {
	if numElements(shape) == 0 {
		return
	}
	idx := make([]int, len(shape))
	for flat := 0; f(flat, idx) && nextIndex(idx, shape); flat++ {
	}
}
