package gemm

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

// storedFiller8 writes B (k×n, row stride ldb) as a Filler8, leaving
// garbage where the layout allows it (the last quad's rows past kc, the
// last panel's columns past nc) so the engine is seen to ignore it.
func storedFiller8(b []byte, ldb int) Filler8 {
	return func(dst []byte, pc, kc, j0, nc int) {
		nr := NR8()
		k4 := (kc + 3) / 4
		for i := range dst[:(nc+nr-1)/nr*k4*nr*4] {
			dst[i] = 0x5a
		}
		for p := range kc {
			for j := range nc {
				dst[(j/nr)*k4*nr*4+(p/4)*nr*4+(j%nr)*4+p%4] = b[(pc+p)*ldb+j0+j]
			}
		}
	}
}

// TestIntegerImplicitRandom: A packed once, B filled a block at a time,
// every signedness and zero-point form, against the plain product; exact.
func TestIntegerImplicitRandom(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 12))
		n := 200
		if testing.Short() {
			n = 50
		}
		for it := range n {
			s := randShape(r)
			if it%10 == 0 {
				s.k = 1000 + r.IntN(1200)
			}
			lda, ldb, ldc := s.k+s.pad, s.n+s.pad, s.n+s.pad
			a := make([]byte, max(0, (s.m-1)*lda+s.k))
			b := make([]byte, max(0, (s.k-1)*ldb+s.n))
			for i := range a {
				a[i] = byte(r.IntN(256))
			}
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			if r.IntN(4) == 0 {
				for i := range a {
					a[i] = []byte{0, 0x7f, 0x80, 0xff}[r.IntN(4)]
				}
				for i := range b {
					b[i] = []byte{0, 0x7f, 0x80, 0xff}[r.IntN(4)]
				}
			}
			aSigned, bSigned := r.IntN(2) == 0, r.IntN(2) == 0
			zero := func(n int) []int32 {
				switch r.IntN(4) {
				case 0:
					return nil
				case 1:
					return []int32{int32(r.IntN(256)) - 128}
				case 2: // the zero that makes a shifted zero point 0
					return []int32{[]int32{0, -128, 128}[r.IntN(3)]}
				}
				z := make([]int32, n)
				for i := range z {
					z[i] = int32(r.IntN(256)) - 128
				}
				return z
			}
			aZero, bZero := zero(s.m), zero(s.n)
			want := make([]int32, max(0, (s.m-1)*ldc+s.n))
			c := make([]int32, len(want))
			for i := range c {
				c[i] = int32(r.Uint32())
				want[i] = c[i]
			}
			cfg := Config{Threads: 1 + r.IntN(3)}
			if err := integerPlain(cfg, s.m, s.n, s.k, a, aSigned, lda, aZero, b, bSigned, ldb, bZero, want, ldc); err != nil {
				t.Fatal(err)
			}
			pa, err := PackA8(cfg, s.m, s.k, a, aSigned, lda)
			if err != nil {
				t.Fatal(err)
			}
			if err := IntegerImplicit(cfg, s.m, s.n, s.k, pa, aZero, storedFiller8(b, ldb), bSigned, bZero, c, ldc); err != nil {
				t.Fatal(err)
			}
			for i := range c {
				if c[i] != want[i] {
					t.Fatalf("%v signed %v/%v zeros %v/%v: C[%d] = %d, want %d", s, aSigned, bSigned, aZero, len(bZero), i, c[i], want[i])
				}
			}
			for i := range c {
				if i%ldc < s.n {
					c[i] = int32(r.Uint32())
				}
			}
			if err := IntegerPackedA(cfg, s.m, s.n, s.k, pa, aZero, b, bSigned, ldb, bZero, c, ldc); err != nil {
				t.Fatal(err)
			}
			for i := range c {
				if c[i] != want[i] {
					t.Fatalf("stored %v signed %v/%v zeros %v/%v: C[%d] = %d, want %d", s, aSigned, bSigned, aZero, len(bZero), i, c[i], want[i])
				}
			}
		}
	})
}

// TestIntegerImplicitBounds: the packing is charged before it is made,
// the scratch before any work, and a cancelled context stops the product.
func TestIntegerImplicitBounds(t *testing.T) {
	refuse := errors.New("over the cap")
	a := make([]byte, 64*100)
	if _, err := PackA8(Config{Charge: func(int64) error { return refuse }}, 64, 100, a, true, 100); !errors.Is(err, refuse) {
		t.Fatalf("PackA8 under a refusing cap: %v", err)
	}
	pa, err := PackA8(Config{}, 64, 100, a, true, 100)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pa.Bytes(), int64(100*72+4*64); got != want {
		t.Fatalf("Bytes = %d, want %d", got, want)
	}
	b := make([]byte, 100*300)
	c := make([]int32, 64*300)
	filled := false
	fill := func(dst []byte, pc, kc, j0, nc int) { filled = true }
	if err := IntegerImplicit(Config{Charge: func(int64) error { return refuse }}, 64, 300, 100, pa, nil, fill, true, nil, c, 300); !errors.Is(err, refuse) || filled {
		t.Fatalf("under a refusing cap: %v (filled %v)", err, filled)
	}
	var charged int64
	if err := IntegerImplicit(Config{Charge: func(n int64) error { charged += n; return nil }}, 64, 300, 100, pa, nil, storedFiller8(b, 300), true, nil, c, 300); err != nil || charged != ImplicitScratch8(300, 100, 1) {
		t.Fatalf("charged %d, want %d (%v)", charged, ImplicitScratch8(300, 100, 1), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := IntegerImplicit(Config{Ctx: ctx}, 64, 300, 100, pa, nil, fill, true, nil, c, 300); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if err := IntegerImplicit(Config{}, 64, 300, 99, pa, nil, fill, true, nil, c, 300); !errors.Is(err, ErrShape) {
		t.Fatalf("wrong k: %v", err)
	}
}
