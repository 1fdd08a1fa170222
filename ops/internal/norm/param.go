package norm

// ExpandParam returns v, a parameter of shape p that broadcasts
// unidirectionally to nshape (its axes aligned at the end, each 1 or
// nshape's), expanded to one value per element of nshape in row-major
// order (LayerNormalization, RMSNormalization); the caller charges it.
func ExpandParam(v []float64, p, nshape []int) []float64 {
	n := 1
	for _, d := range nshape {
		n *= d
	}
	off := len(nshape) - len(p)
	out := make([]float64, n)
	idx := make([]int, len(nshape))
	for j := range out {
		k := 0
		for i, d := range p {
			if d != 1 {
				k = k*d + idx[off+i]
			} else {
				k = k * d
			}
		}
		out[j] = v[k]
		for a := len(idx) - 1; a >= 0; a-- {
			idx[a]++
			if idx[a] < nshape[a] {
				break
			}
			idx[a] = 0
		}
	}
	return out
}
