package mathf

// Rotate writes the pairs (a[i], b[i]) rotated by (cos[i], sin[i]) into
// y1[i] and y2[i]: cos·a − sin·b and sin·a + cos·b, each computed in
// float64 from the float32 operands (the products exact) and rounded once
// to float32, RotaryEmbedding's rotation. The spans have one length (y1's);
// y1 and y2 may not overlap a, b, cos or sin. A vector loop (rotate_amd64.s)
// does the same operations in the same order, four pairs at a time.
func Rotate(y1, y2, a, b, cos, sin []float32) {
	n := len(y1)
	y2, a, b, cos, sin = y2[:n], a[:n], b[:n], cos[:n], sin[:n]
	m := rotateVec(y1, y2, a, b, cos, sin)
	rotateGo(y1[m:], y2[m:], a[m:], b[m:], cos[m:], sin[m:])
}

func rotateGo(y1, y2, a, b, cos, sin []float32) {
	y2, a, b, sin = y2[:len(cos)], a[:len(cos)], b[:len(cos)], sin[:len(cos)]
	for i, c32 := range cos {
		c, s := float64(c32), float64(sin[i])
		x1, x2 := float64(a[i]), float64(b[i])
		y1[i] = float32(c*x1 - s*x2)
		y2[i] = float32(s*x1 + c*x2)
	}
}

// RotateRows is Rotate over rows of head floats, each rotated whole
// (head = 2*half): row r of y is Rotate of row r of x's halves by
// cos[r*half:] and sin[r*half:], for the rows rows. One vector loop over
// all the rows where the processor has AVX-512 and half is a multiple of
// 8, Rotate row by row otherwise.
func RotateRows(y, x, cos, sin []float32, rows, head, half int) {
	if rotateRowsVec(y, x, cos, sin, rows, head, half) {
		return
	}
	for r := range rows {
		yr, xr := y[r*head:(r+1)*head], x[r*head:(r+1)*head]
		Rotate(yr[:half], yr[half:2*half], xr[:half], xr[half:2*half], cos[r*half:(r+1)*half], sin[r*half:(r+1)*half])
		copy(yr[2*half:], xr[2*half:])
	}
}
