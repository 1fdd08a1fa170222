package gemm

// KBlock32 is the steps of k that Float32Implicit (and the blocked
// products) sum in one block for a product over k: a caller that runs the
// same micro-kernel over its own B (package conv's in-place windows) cuts
// k the same way, so that each element of C gets the same sums in the
// same order, and the same bits.
func KBlock32(k int) int { return kcFor(k) }
