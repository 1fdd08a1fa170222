package gemm

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// finishAfter is what a finish must equal: the product, then y += b per
// row, then y += c per column, then the clamp (package clamp's rule).
func finishAfter(c []float32, ldc, m, n int, bias, colBias []float32, clamp *[2]float32) {
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		for j := range row {
			x := row[j]
			if bias != nil {
				x += bias[i]
			}
			if colBias != nil {
				x += colBias[j]
			}
			if clamp != nil {
				if x < clamp[0] {
					x = clamp[0]
				}
				if x > clamp[1] {
					x = clamp[1]
				}
			}
			row[j] = x
		}
	}
}

// sameFloats reports the first index where got and want differ in their
// bits (NaN against NaN of any payload is the same), or -1.
func sameFloats(got, want []float32) int {
	for i := range got {
		g, w := got[i], want[i]
		if g != g && w != w {
			continue
		}
		if math.Float32bits(g) != math.Float32bits(w) {
			return i
		}
	}
	return -1
}

// randFinish draws a finish: no bias or one with some zeros, NaN and
// infinities; no clamp, ReLU, ReLU6, or random bounds (lo > hi included).
func randFinish(r *rand.Rand, m int) ([]float32, *[2]float32) {
	bias := randBias(r, m)
	var clamp *[2]float32
	switch r.IntN(4) {
	case 1:
		clamp = &[2]float32{0, float32(math.Inf(1))}
	case 2:
		clamp = &[2]float32{0, 6}
	case 3:
		clamp = &[2]float32{float32(r.NormFloat64()), float32(r.NormFloat64())}
	}
	return bias, clamp
}

// randBias is nil a quarter of the time, else m biases with some zeros,
// NaN and infinities.
func randBias(r *rand.Rand, m int) []float32 {
	var bias []float32
	if r.IntN(4) != 0 {
		bias = randSlice[float32](r, m)
		for i := range bias {
			switch r.IntN(40) {
			case 0:
				bias[i] = float32(math.NaN())
			case 1:
				bias[i] = float32(math.Inf(1 - 2*r.IntN(2)))
			case 2:
				bias[i] = float32(math.Copysign(0, float64(r.IntN(2)*2-1)))
			}
		}
	}
	return bias
}

// TestFinishIsTheProductThenBiasThenClamp checks Float32Finish and
// Float32Implicit against Float32 followed by the bias and the clamp, bit
// for bit, on every kernel set: one or more blocks of k, tails of rows
// and columns, an empty k, one row.
func TestFinishIsTheProductThenBiasThenClamp(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 22))
		n := 150
		if testing.Short() {
			n = 40
		}
		for i := range n {
			s := randShape(r)
			s.transA, s.transB = false, false
			switch i % 7 {
			case 0:
				s.k = 0
			case 1:
				s.m = 1
			}
			a, lda, b, ldb, c, ldc := operands[float32](r, s)
			bias, clamp := randFinish(r, s.m)
			colBias := randBias(r, s.n)
			fin := Finish{Bias: bias, ColBias: colBias, Clamp: clamp}
			want := append([]float32(nil), c...)
			if err := Float32(Config{}, false, false, s.m, s.n, s.k, 1, a, lda, b, ldb, 0, want, ldc); err != nil {
				t.Fatal(err)
			}
			finishAfter(want, ldc, s.m, s.n, bias, colBias, clamp)
			got := append([]float32(nil), c...)
			cfg := Config{Threads: 1 + r.IntN(2)}
			if err := Float32Finish(cfg, s.m, s.n, s.k, a, lda, b, ldb, got, ldc, fin); err != nil {
				t.Fatalf("%v: %v", s, err)
			}
			if j := sameFloats(got, want); j >= 0 {
				t.Fatalf("%v bias=%v clamp=%v: Float32Finish element %d = %v, the product then the finish %v", s, bias != nil, clamp, j, got[j], want[j])
			}
			got = append(got[:0], c...)
			if err := Float32Implicit(cfg, s.m, s.n, s.k, a, lda, storedFiller(b, ldb), got, ldc, fin); err != nil {
				t.Fatalf("%v: %v", s, err)
			}
			// The implicit product sums as Float32 does (same kernels and blocks).
			if j := sameFloats(got, want); j >= 0 {
				t.Fatalf("%v bias=%v clamp=%v: Float32Implicit element %d = %v, the product then the finish %v", s, bias != nil, clamp, j, got[j], want[j])
			}
			pb, err := PackB32(Config{}, false, s.k, s.n, b, ldb)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got[:0], c...)
			if err := Float32PackedFinish(cfg, false, s.m, s.n, s.k, a, lda, pb, got, ldc, fin); err != nil {
				t.Fatalf("%v: %v", s, err)
			}
			// Packed or not, B's panels are the same.
			if j := sameFloats(got, want); j >= 0 {
				t.Fatalf("%v bias=%v colBias=%v clamp=%v: Float32PackedFinish element %d = %v, the product then the finish %v", s, bias != nil, colBias != nil, clamp, j, got[j], want[j])
			}
		}
	})
}

func TestFinishRefusesAShortBias(t *testing.T) {
	a, b, c := make([]float32, 6), make([]float32, 6), make([]float32, 4)
	if err := Float32Finish(Config{}, 2, 2, 3, a, 3, b, 2, c, 2, Finish{Bias: []float32{1}}); !errors.Is(err, ErrShape) {
		t.Fatalf("one bias for two rows: %v", err)
	}
	if err := Float32Implicit(Config{}, 2, 2, 3, a, 3, storedFiller(b, 2), c, 2, Finish{Bias: []float32{1}}); !errors.Is(err, ErrShape) {
		t.Fatalf("implicit, one bias for two rows: %v", err)
	}
	if err := Float32Finish(Config{}, 2, 2, 3, a, 3, b, 2, c, 2, Finish{ColBias: []float32{1}}); !errors.Is(err, ErrShape) {
		t.Fatalf("one bias for two columns: %v", err)
	}
}

// TestBiasIsCFilledThenBetaOne checks Float32Bias, B in place and packed,
// against Float32 over C filled with the bias and beta 1, bit for bit, on
// every kernel set: biases by row and by column (zeros of both signs, NaN,
// infinities), transposes, one or more blocks of k, an empty k, one row
// (the row kernels), alpha 1 and not.
func TestBiasIsCFilledThenBetaOne(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(23, 24))
		n := 150
		if testing.Short() {
			n = 40
		}
		for i := range n {
			s := randShape(r)
			switch i % 7 {
			case 0:
				s.k = 0
			case 1:
				s.m, s.transA = 1, false
				s.n = 100 + r.IntN(300)
			}
			alpha := []float32{1, 1, -0.5}[r.IntN(3)]
			a, lda, b, ldb, c, ldc := operands[float32](r, s)
			var rowBias, colBias []float32
			for rowBias == nil && colBias == nil {
				if i%2 == 0 {
					rowBias = randBias(r, s.m)
				} else {
					colBias = randBias(r, s.n)
				}
			}
			want := append([]float32(nil), c...)
			for i := range s.m {
				for j := range s.n {
					if rowBias != nil {
						want[i*ldc+j] = rowBias[i]
					} else {
						want[i*ldc+j] = colBias[j]
					}
				}
			}
			if err := Float32(Config{}, s.transA, s.transB, s.m, s.n, s.k, alpha, a, lda, b, ldb, 1, want, ldc); err != nil {
				t.Fatal(err)
			}
			cfg := Config{Threads: 1 + r.IntN(2)}
			got := append([]float32(nil), c...)
			if err := Float32Bias(cfg, s.transA, s.transB, s.m, s.n, s.k, alpha, a, lda, b, ldb, nil, rowBias, colBias, got, ldc); err != nil {
				t.Fatalf("%v: %v", s, err)
			}
			if j := sameFloats(got, want); j >= 0 {
				t.Fatalf("%v alpha=%v row=%v: Float32Bias element %d = %v, C filled then beta 1 %v", s, alpha, rowBias != nil, j, got[j], want[j])
			}
			pb, err := PackB32(Config{}, s.transB, s.k, s.n, b, ldb)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got[:0], c...)
			if err := Float32Bias(cfg, s.transA, false, s.m, s.n, s.k, alpha, a, lda, nil, 0, pb, rowBias, colBias, got, ldc); err != nil {
				t.Fatalf("%v: %v", s, err)
			}
			if j := sameFloats(got, want); j >= 0 {
				t.Fatalf("%v alpha=%v row=%v: Float32Bias packed element %d = %v, C filled then beta 1 %v", s, alpha, rowBias != nil, j, got[j], want[j])
			}
		}
		var c [4]float32
		if err := Float32Bias(Config{}, false, false, 2, 2, 1, 1, c[:], 1, c[:], 2, nil, nil, nil, c[:], 2); err == nil {
			t.Error("Float32Bias without a bias: no error")
		}
		if err := Float32Bias(Config{}, false, false, 2, 2, 1, 1, c[:], 1, c[:], 2, nil, c[:1], nil, c[:], 2); err == nil {
			t.Error("Float32Bias with a short bias: no error")
		}
	})
}
