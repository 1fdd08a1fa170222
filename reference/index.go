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
