package reduce

import "math"

// Products of float32 rows without denormal arithmetic. A product of
// factors below one in magnitude (the random inputs of a benchmark, the
// probabilities of a model) falls below the least normal float32, 2^-126,
// within a hundred steps, and every multiplication that reads or writes a
// denormal costs an x86 processor a microcode assist of a hundred cycles
// or more: a row of 112 such factors took ten times as long as its
// normal steps. These loops give the bits of reduceRow's
// one-after-the-other float32 product from 1, but once the product is
// small they go on in float64, where the product of two float32 values is
// exact and both are normal, and round each step to float32 themselves:
// by conversion at or above 2^-126, to a multiple of 2^-149 (the denormal
// spacing, ties to even, as the multiplication rounds) below it.

// tinyProd is the magnitude below which a row's product goes on in
// float64: far enough above 2^-126 that one more factor of magnitude at
// least 2^-26 cannot make the float32 multiplication denormal.
const tinyProd = 0x1p-100

// rowProdsF32 sets y[i] to the product of row i of x (n elements each).
// Each product is a chain of dependent multiplications, so four rows go
// side by side while their products stay above tinyProd; each then goes
// on alone from where the first of the four fell below.
func rowProdsF32(x []float32, n int, y []float32) {
	i := 0
	for ; i+4 <= len(y); i += 4 {
		r0, r1, r2, r3 := x[i*n:(i+1)*n], x[(i+1)*n:(i+2)*n], x[(i+2)*n:(i+3)*n], x[(i+3)*n:(i+4)*n]
		a0, a1, a2, a3 := float32(1), float32(1), float32(1), float32(1)
		j := 0
		// Checked every four steps: a factor small enough to take a
		// product from tinyProd to a denormal in fewer costs an assist,
		// not a wrong bit.
		for ; j+4 <= n && !isTinyProd(a0) && !isTinyProd(a1) && !isTinyProd(a2) && !isTinyProd(a3); j += 4 {
			a0 = a0 * r0[j] * r0[j+1] * r0[j+2] * r0[j+3]
			a1 = a1 * r1[j] * r1[j+1] * r1[j+2] * r1[j+3]
			a2 = a2 * r2[j] * r2[j+1] * r2[j+2] * r2[j+3]
			a3 = a3 * r3[j] * r3[j+1] * r3[j+2] * r3[j+3]
		}
		y[i] = prodRowF32(a0, r0[j:])
		y[i+1] = prodRowF32(a1, r1[j:])
		y[i+2] = prodRowF32(a2, r2[j:])
		y[i+3] = prodRowF32(a3, r3[j:])
		// Which of two NaNs a multiplication keeps is the compiler's
		// choice of operand order (a race build orders the chained
		// products above otherwise): a NaN row is redone in the plain
		// loop's form, as reduceRow and the reference engine write it.
		for k, r := range [4][]float32{r0, r1, r2, r3} {
			if y[i+k] != y[i+k] {
				y[i+k] = prodRowF32(1, r)
			}
		}
	}
	for ; i < len(y); i++ {
		y[i] = prodRowF32(1, x[i*n:(i+1)*n])
	}
}

// isTinyProd reports whether a product has fallen below tinyProd in
// magnitude (a NaN has not).
func isTinyProd(a float32) bool { return a > -tinyProd && a < tinyProd }

// prodRowF32 is acc times the elements of row one after the other, bit
// for bit as the float32 loop.
func prodRowF32(acc float32, row []float32) float32 {
	for len(row) > 0 {
		j := 0
		for ; j < len(row) && !isTinyProd(acc); j++ {
			acc *= row[j]
		}
		if row = row[j:]; len(row) > 0 {
			acc, row = prodTinyF32(acc, row)
		}
	}
	return acc
}

// prodTinyF32 multiplies acc, of magnitude below tinyProd, by the elements
// of row until the product is back above tinyProd (or NaN); it returns the
// product and the elements left.
func prodTinyF32(acc float32, row []float32) (float32, []float32) {
	a := float64(acc)
	for j, v := range row {
		p := a * float64(v) // exact: 48 significant bits at most, far from float64's limits
		if math.Abs(p) < 0x1p-126 {
			a = math.RoundToEven(p*0x1p149) * 0x1p-149 // the sign of a zero kept
			continue
		}
		a = float64(float32(p))               // one rounding; an infinity or NaN as the float32 product's
		if !(a > -tinyProd && a < tinyProd) { // as isTinyProd, in float64
			return float32(a), row[j+1:]
		}
	}
	return denormalF32(a), nil
}

// denormalF32 is a, a float32 value held in a float64, as a float32,
// built from its bits when it is denormal (whose conversion would cost an
// assist too).
func denormalF32(a float64) float32 {
	if !(math.Abs(a) < 0x1p-126) {
		return float32(a)
	}
	bits := uint32(math.Abs(a) * 0x1p149) // exact: a multiple of 2^-149 below 2^-126
	if math.Signbit(a) {
		bits |= 1 << 31
	}
	return math.Float32frombits(bits)
}
