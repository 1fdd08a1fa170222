package gemm

// One row of A times B. A product of one row (a matrix-vector product, as
// every step of a recurrent cell at batch 1 is) gives the micro-kernel a
// tile of one row: two sums per panel of B, each waiting on the last
// multiply-add before the next, so that the kernel runs at the latency of
// the multiply-add, not at its rate, and B's panels are read one after
// another. vecRow computes the same sums over eight (then four) panels
// at once, sixteen independent sums that the core overlaps, B read
// once. Every element of C is still one sum over k in order from 0,
// then plus beta*C in one multiply-add, block of k after block of k as
// blocked cuts them: the same bits as the tile kernel.

// vecRowOn turns vecRow on where its kernels are (tests turn it off to
// compare).
var vecRowOn = vecRowKernels

// vecRow is C[0, :n] = A[0, :k] * B + beta*C (alpha 1, A not transposed,
// B read in place (b, ldb) or packed (pb)) through the row kernels when
// kn has them; false when it does not, and nothing was written.
func vecRow[T float32 | float64](kn *kernels[T], k, n int, a []T, b []T, ldb int, pb *packed[T], beta T, c []T, kcb int) bool {
	if !vecRowOn || kn.name != "avx512" || kn.nr != 32 || n < 4*32 {
		return false
	}
	a32, ok := any(a).([]float32)
	if !ok {
		return false
	}
	c32 := any(c).([]float32)
	b32, _ := any(b).([]float32)
	var p32 *packed[float32]
	if pb != nil {
		p32 = any(pb).(*packed[float32])
	}
	kn32 := any(kn).(*kernels[float32])
	const nr = 32
	full := n / nr
	for pc := 0; pc < k; pc += kcb {
		kc := min(kcb, k-pc)
		bet := float32(any(beta).(float32))
		if pc > 0 {
			bet = 1
		}
		// panel returns the start of the panel of columns [j, j+nr),
		// its row stride and the stride from one panel to the next.
		panel := func(j int) ([]float32, int, int) {
			if p32 != nil {
				return p32.panel(pc, kc, j), nr, kc * nr
			}
			return b32[pc*ldb+j:], ldb, nr
		}
		j := 0
		for ; j+8 <= full; j += 8 {
			bs, ld, ps := panel(j * nr)
			vecPanels32(8, kc, &a32[pc], &bs[0], ld, ps, &c32[j*nr], bet)
		}
		for ; j+4 <= full; j += 4 {
			bs, ld, ps := panel(j * nr)
			vecPanels32(4, kc, &a32[pc], &bs[0], ld, ps, &c32[j*nr], bet)
		}
		for ; j*nr < n; j++ {
			bs, ld, _ := panel(j * nr)
			cols := min(nr, n-j*nr)
			kn32.tile(1, kc, a32[pc:], k, bs, ld, c32[j*nr:], n, cols, 1, bet)
		}
	}
	return true
}
