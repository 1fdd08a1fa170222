package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Float32ImplicitPacked gives Float32Implicit's bits, Float32FinishPacked
// Float32Finish's, on random shapes
// (several blocks of k and of rows, short last panels), rows starting at
// a panel of a bigger packed A, every finish, special values, every kernel
// set (the packing then made with that set), 1-3 threads.
func TestImplicitPackedBits(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 22))
		cases := 120
		if testing.Short() {
			cases = 40
		}
		specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(nan()), 1e-40}
		for range cases {
			s := randShape(r)
			s.transA, s.transB = false, false
			if r.IntN(3) == 0 {
				s.k = 250 + r.IntN(900)
			}
			if r.IntN(3) == 0 {
				s.m = 100 + r.IntN(300)
			}
			a, lda, b, ldb, c, ldc := operands[float32](r, s)
			for range r.IntN(4) {
				if len(a) == 0 || len(b) == 0 {
					break
				}
				a[r.IntN(len(a))] = specials[r.IntN(len(specials))]
				b[r.IntN(len(b))] = specials[r.IntN(len(specials))]
			}
			var fin Finish
			if r.IntN(2) == 0 {
				fin.Bias = randSlice[float32](r, s.m)
			}
			if r.IntN(3) == 0 {
				fin.Clamp = &[2]float32{0, float32(math.Inf(1))}
			}
			// The product's rows are a part of the packed A starting at a panel.
			r0 := 0
			if mr := k32.mr; s.m > 2*mr && r.IntN(2) == 0 {
				r0 = mr * (1 + r.IntN(s.m/mr-1))
			}
			m := s.m - r0
			if r0 > 0 && r.IntN(2) == 0 {
				m = max(1, m-r.IntN(m))
			}
			pa, err := PackA32(Config{}, s.m, s.k, a, lda)
			if err != nil {
				t.Fatal(err)
			}
			if k32.tilePA != nil && pa == nil && s.m > 0 && s.k > 0 {
				t.Fatalf("%v: not packed", s)
			}
			if k32.tilePA == nil && pa != nil {
				t.Fatalf("%v: packed for kernels that read it without the prefetch", s)
			}
			threads := 1 + r.IntN(3)
			fm := fin
			if fm.Bias != nil {
				fm.Bias = fin.Bias[r0 : r0+m]
			}
			want := append([]float32(nil), c...)
			got := append([]float32(nil), c...)
			if err := Float32Implicit(Config{Threads: threads}, m, s.n, s.k, a[r0*lda:], lda, storedFiller(b, ldb), want, ldc, fm); err != nil {
				t.Fatal(err)
			}
			if err := Float32ImplicitPacked(Config{Threads: threads}, m, s.n, s.k, a[r0*lda:], lda, pa, r0, storedFiller(b, ldb), got, ldc, fm); err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
					t.Fatalf("%v rows [%d, %d): element %d: %v, want %v", s, r0, r0+m, i, got[i], want[i])
				}
			}
			// The blocked product on the same packed A.
			want = append(want[:0], c...)
			got = append(got[:0], c...)
			if err := Float32Finish(Config{Threads: threads}, m, s.n, s.k, a[r0*lda:], lda, b, ldb, want, ldc, fm); err != nil {
				t.Fatal(err)
			}
			if err := Float32FinishPacked(Config{Threads: threads}, m, s.n, s.k, a[r0*lda:], lda, pa, r0, b, ldb, got, ldc, fm); err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
					t.Fatalf("blocked %v rows [%d, %d): element %d: %v, want %v", s, r0, r0+m, i, got[i], want[i])
				}
			}
		}
	})
}

// A packed A that does not fit the product (other k, rows off a panel) is
// not read: the product reads A in place.
func TestImplicitPackedMismatch(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	s := shape{m: 40, n: 50, k: 300}
	a, lda, b, ldb, c, ldc := operands[float32](r, s)
	pa, err := PackA32(Config{}, s.m, s.k, a, lda)
	if err != nil || pa == nil {
		t.Skip("no kernel reads A packed")
	}
	spoiled := *pa
	spoiled.data = make([]float32, len(pa.data))
	for i := range spoiled.data {
		spoiled.data[i] = float32(nan())
	}
	want := append([]float32(nil), c...)
	if err := Float32Implicit(Config{}, s.m-1, s.n, s.k, a[lda:], lda, storedFiller(b, ldb), want, ldc, Finish{}); err != nil {
		t.Fatal(err)
	}
	got := append([]float32(nil), c...)
	if err := Float32ImplicitPacked(Config{}, s.m-1, s.n, s.k, a[lda:], lda, &spoiled, 1, storedFiller(b, ldb), got, ldc, Finish{}); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
			t.Fatalf("element %d: %v, want %v", i, got[i], want[i])
		}
	}
	var charged int64
	if _, err := PackA32(Config{Charge: func(n int64) error { charged += n; return nil }}, s.m, s.k, a, lda); err != nil || charged != pa.Bytes() {
		t.Fatalf("charged %d for %d bytes (%v)", charged, pa.Bytes(), err)
	}
}
