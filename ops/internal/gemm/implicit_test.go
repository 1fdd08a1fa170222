package gemm

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

// storedFiller fills panels from a stored k×n matrix b (row stride ldb),
// the definition a convolution's filler must meet.
func storedFiller(b []float32, ldb int) Filler32 {
	return func(dst []float32, nr, pc, kc, j0, nc int) {
		for q := 0; q*nr < nc; q++ {
			cols := min(nr, nc-q*nr)
			for p := range kc {
				row := dst[q*kc*nr+p*nr : q*kc*nr+p*nr+nr]
				src := b[(pc+p)*ldb+j0+q*nr:]
				copy(row, src[:cols])
				for j := cols; j < nr; j++ {
					row[j] = 0
				}
			}
		}
	}
}

// Float32Implicit against the plain kernel on random sizes (every tile
// edge, several blocks of k and of n), every kernel set, 1-3 threads,
// within the bound of agree.
func TestFloat32ImplicitRandom(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 12))
		n := 200
		if testing.Short() {
			n = 50
		}
		for range n {
			s := randShape(r)
			s.transA, s.transB = false, false
			if r.IntN(6) == 0 {
				s.n = 500 + r.IntN(900) // more than one block of columns
			}
			a, lda, b, ldb, c, ldc := operands[float32](r, s)
			want := append([]float32(nil), c...)
			got := append([]float32(nil), c...)
			if err := plain(Config{}, false, false, s.m, s.n, s.k, 1, a, lda, b, ldb, 0, want, ldc); err != nil {
				t.Fatal(err)
			}
			// NaN in C must not propagate (C is not read).
			for i := range s.m {
				for j := range s.n {
					got[i*ldc+j] = float32(nan())
				}
			}
			if err := Float32Implicit(Config{Threads: 1 + r.IntN(3)}, s.m, s.n, s.k, a, lda, storedFiller(b, ldb), got, ldc, Finish{}); err != nil {
				t.Fatalf("%v: %v", s, err)
			}
			agree(t, s, 1, 0, a, lda, b, ldb, c, ldc, got, want)
		}
	})
}

func nan() float64 { var z float64; return z / z }

func TestFloat32ImplicitChargesAndCancels(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	s := shape{m: 70, n: 900, k: 600}
	a, lda, b, ldb, c, ldc := operands[float32](r, s)
	fill := storedFiller(b, ldb)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Float32Implicit(Config{Ctx: ctx}, s.m, s.n, s.k, a, lda, fill, c, ldc, Finish{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	refuse := errors.New("over budget")
	var asked int64
	if err := Float32Implicit(Config{Charge: func(n int64) error { asked += n; return refuse }}, s.m, s.n, s.k, a, lda, fill, c, ldc, Finish{}); !errors.Is(err, refuse) {
		t.Fatalf("refused charge: %v", err)
	}
	if want := ImplicitScratch32(s.n, s.k, 1); asked != want || want < int64(kcFor(s.k))*4*32 {
		t.Fatalf("charged %d, ImplicitScratch32 says %d", asked, want)
	}
	if err := Float32Implicit(Config{}, s.m, s.n, s.k, a, lda-1, fill, c, ldc, Finish{}); !errors.Is(err, ErrShape) {
		t.Fatalf("short A: %v", err)
	}
	if err := Float32Implicit(Config{}, s.m, s.n, s.k, a, lda, nil, c, ldc, Finish{}); !errors.Is(err, ErrShape) {
		t.Fatalf("no filler: %v", err)
	}
}
