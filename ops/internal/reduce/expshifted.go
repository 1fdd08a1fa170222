package reduce

// ExpShifted sets dst[i] to exp32(src[i] - m) for every i of src (dst at
// least as long) and returns their sum in the lane order, with the vector
// kernels where the processor has them: the softmax family's exponential,
// for the attention engine's online softmax (ops/internal/attention). m
// must be at least every element of src; an element of -inf gives 0.
func ExpShifted(dst, src []float32, m float32) float32 {
	return expShiftedRow(dst, src, m)
}

// Exp32 is exp32, the float32 exponential of ExpShifted, for one value.
func Exp32(x float32) float32 { return exp32(x) }

// RowMax32 is the largest element of a non-empty float32 row (the first
// NaN if it holds one), eight at a time where the processor has AVX2: the
// attention engine's row maxima of a tile of scores.
func RowMax32(x []float32) float32 { return rowMax(x) }
