package reduce

// RowMeans writes to y the mean of each row of n elements of x, as Run
// does for a float32 Mean over the last axis (Layout{Outer: len(y), N: n,
// Inner: 1}), bit for bit: each row's sixteen-lane sum over n. It runs on
// the caller's core and, unlike Run, makes no closure for a Parallel: a
// fused chain's LayerNorm (ops.Chain) calls it on a few rows at every node.
func RowMeans(x []float32, n int, y []float32) {
	if n == 0 {
		_ = Run(Op{Kind: Mean}, Layout{Outer: len(y), N: 0, Inner: 1}, x, y, Serial)
		return
	}
	rowSumsF32(x, n, y, true)
}
