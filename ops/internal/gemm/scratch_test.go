package gemm

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// TestScratchChargedOnce: a thousand products under one Scratch charge the
// budget what one of them needs, not a thousand times that, whether they
// run one after the other or several at once; without the account each
// charges its own.
func TestScratchChargedOnce(t *testing.T) {
	const m, n, k = 64, 200, 300 // packed B (not direct), a padded last panel
	a := make([]float32, m*k)
	b := make([]float32, k*n)
	for i := range a {
		a[i] = float32(i%7) - 3
	}
	for i := range b {
		b[i] = float32(i%5) - 2
	}
	c := make([]float32, m*n)
	ai := make([]byte, m*k)
	bi := make([]byte, k*n)
	ci := make([]int32, m*n)

	var one atomic.Int64
	Float32(Config{Charge: func(n int64) error { one.Add(n); return nil }}, false, true, m, n, k, 1, a, k, b, k, 0, c, n)
	if one.Load() == 0 {
		t.Fatal("the product charged no scratch")
	}
	var oneI atomic.Int64
	Integer(Config{Charge: func(n int64) error { oneI.Add(n); return nil }}, m, n, k, ai, true, k, nil, bi, false, n, nil, ci, n)

	var total atomic.Int64
	s := new(Scratch)
	cfg := Config{Scratch: s, Charge: func(n int64) error { total.Add(n); return nil }}
	for range 1000 {
		if err := Float32(cfg, false, true, m, n, k, 1, a, k, b, k, 0, c, n); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := total.Load(), one.Load(); got != want || s.Charged() != want {
		t.Errorf("1000 products charged %d bytes (account %d), one product %d", got, s.Charged(), want)
	}
	for range 1000 {
		if err := Integer(cfg, m, n, k, ai, true, k, nil, bi, false, n, nil, ci, n); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := total.Load(), max(one.Load(), oneI.Load()); got != want {
		t.Errorf("after 1000 integer products: %d bytes charged, want %d", got, want)
	}

	// Four goroutines at once hold at most four products' scratch.
	total.Store(0)
	s = new(Scratch)
	cfg.Scratch = s
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cc := make([]float32, m*n)
			lda := k
			if g%2 == 0 {
				lda = m // A transposed: its packing scratch too
			}
			for range 100 {
				if err := Float32(cfg, g%2 == 0, true, m, n, k, 1, a, lda, b, k, 0, cc, n); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got := total.Load(); got > 4*2*one.Load() || got != s.Charged() {
		t.Errorf("4 goroutines charged %d bytes (account %d), one product %d", got, s.Charged(), one.Load())
	}

	// A refusal is the product's error, and takes nothing from the account.
	refuse := errors.New("over")
	s = new(Scratch)
	if err := Float32(Config{Scratch: s, Charge: func(int64) error { return refuse }}, false, true, m, n, k, 1, a, k, b, k, 0, c, n); !errors.Is(err, refuse) {
		t.Fatalf("refused charge: %v", err)
	}
	if s.Charged() != 0 || s.inUse != 0 {
		t.Errorf("after a refusal the account holds %d charged, %d in use", s.Charged(), s.inUse)
	}
}

// Each slot is an account of its own: what one worker holds is charged
// once to it, whatever the other slots hold, and the account's Charged
// sums them. Slot 0 is the account itself; a nil account's slots are nil.
func TestScratchSlots(t *testing.T) {
	var charged int64
	cfg := Config{Charge: func(b int64) error { charged += b; return nil }}
	s := new(Scratch)
	if s.Slot(0) != s || (*Scratch)(nil).Slot(3) != nil {
		t.Fatal("slot 0 is not the account, or a nil account's slot is not nil")
	}
	if s.Slot(2) != s.Slot(2) || s.Slot(1) == s.Slot(2) {
		t.Fatal("a slot is not kept, or two slots share an account")
	}
	for range 3 {
		for w := range 3 {
			sl := s.Slot(w)
			if err := sl.take(cfg, 100*int64(w+1)); err != nil {
				t.Fatal(err)
			}
			sl.give(100 * int64(w+1))
		}
	}
	if charged != 600 || s.Charged() != 600 {
		t.Errorf("three slots taking 100, 200 and 300 bytes three times charged %d (account %d), want 600", charged, s.Charged())
	}
}
