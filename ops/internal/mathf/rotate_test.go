package mathf

import (
	"math"
	"testing"
)

// Rotate's vector loop gives the scalar loop's bits, specials included
// (zeros, infinities, NaNs, subnormals, the largest floats whose products
// overflow float32 but not float64), for every length around a vector.
func TestRotateVectorLoopKeepsTheScalarBits(t *testing.T) {
	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00001), math.Float32frombits(0x7fc0abcd), 1e-40, -1e-40, math.MaxFloat32, -math.MaxFloat32, 0.1, 1.0 / 3}
	value := func(i, salt int) float32 {
		if (i*7+salt)%4 == 0 {
			return special[(i*5+salt)%len(special)]
		}
		return float32((i*7919+salt*104729)%2001-1000) / 333
	}
	for n := range 41 {
		in := make([][]float32, 4)
		for k := range in {
			in[k] = make([]float32, n)
			for i := range n {
				in[k][i] = value(i, n*4+k)
			}
		}
		y1, y2, w1, w2 := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
		Rotate(y1, y2, in[0], in[1], in[2], in[3])
		rotateGo(w1, w2, in[0], in[1], in[2], in[3])
		for i := range n {
			if math.Float32bits(y1[i]) != math.Float32bits(w1[i]) || math.Float32bits(y2[i]) != math.Float32bits(w2[i]) {
				t.Fatalf("n %d, pair %d: (%g, %g) by (%g, %g): %g, %g; the scalar loop %g, %g", n, i, in[0][i], in[1][i], in[2][i], in[3][i], y1[i], y2[i], w1[i], w2[i])
			}
		}
	}
}

// RotateRows gives Rotate's bits row by row, with and without its vector
// loop, for halves that take it (multiples of 8) and halves that do not.
func TestRotateRowsIsRotateByRow(t *testing.T) {
	for _, half := range []int{8, 16, 32, 12, 3} {
		for _, rows := range []int{0, 1, 5} {
			head := 2 * half
			x, cos, sin := make([]float32, rows*head), make([]float32, rows*half), make([]float32, rows*half)
			for i := range x {
				x[i] = float32((i*7919)%2001-1000) / 333
			}
			for i := range cos {
				cos[i], sin[i] = float32((i*104729)%2001-1000)/1000, float32((i*31)%2001-1000)/1000
			}
			y, want := make([]float32, len(x)), make([]float32, len(x))
			RotateRows(y, x, cos, sin, rows, head, half)
			for r := range rows {
				w, a := want[r*head:], x[r*head:]
				rotateGo(w[:half], w[half:head], a[:half], a[half:head], cos[r*half:(r+1)*half], sin[r*half:(r+1)*half])
			}
			for i := range y {
				if math.Float32bits(y[i]) != math.Float32bits(want[i]) {
					t.Fatalf("half %d rows %d: element %d: %g, want %g", half, rows, i, y[i], want[i])
				}
			}
		}
	}
}
