package resample

import "math"

// addCounts adds two element counts, saturating at math.MaxInt (as ops'
// accounting does) so that an absurd plan asks for too much rather than
// overflowing into a small number.
func addCounts(a, b int) int {
	if a < 0 || b < 0 || a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// mulCounts is addCounts for a product.
func mulCounts(a, b int) int {
	if a < 0 || b < 0 || (a != 0 && b > math.MaxInt/a) {
		return math.MaxInt
	}
	return a * b
}
