package infer

// Integer helpers of the shape rules.

func abs(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

// floorDiv is x / y rounded toward negative infinity, as ONNX's Slice
// counts its steps.
func floorDiv(x, y int64) int64 {
	q := x / y
	if (x%y != 0) && ((x < 0) != (y < 0)) {
		q--
	}
	return q
}
