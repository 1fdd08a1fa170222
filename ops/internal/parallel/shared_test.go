package parallel

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// TestShared checks that Shared covers every index exactly once, in
// pieces of the grain or (alone) whole, nested in Range, and that
// a piece's error and a cancelled context come back.
func TestShared(t *testing.T) {
	for _, threads := range []int{1, 2, 4} {
		for _, n := range []int{0, 1, 7, 100, 1000} {
			for _, grain := range []int{0, 1, 3, 64, 5000} {
				seen := make([]atomic.Int32, n)
				err := Range(context.Background(), threads, 3, Work, func(lo3, hi3 int) error {
					for range hi3 - lo3 {
						err := Shared(context.Background(), threads, n, grain, Work, func(lo, hi int) error {
							g, whole := max(grain, 1), lo == 0 && hi == n
							if !whole && (lo%g != 0 || hi-lo > g || (hi-lo < g && hi != n)) {
								t.Errorf("threads %d n %d grain %d: piece [%d, %d)", threads, n, grain, lo, hi)
							}
							for i := lo; i < hi; i++ {
								seen[i].Add(1)
							}
							return nil
						})
						if err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				for i := range seen {
					if c := seen[i].Load(); c != 3 {
						t.Fatalf("threads %d n %d grain %d: index %d covered %d times, want 3", threads, n, grain, i, c)
					}
				}
			}
		}
	}
	bad := errors.New("piece failed")
	err := Shared(context.Background(), 2, 1000, 1, Work, func(lo, hi int) error {
		if lo == 10 {
			return bad
		}
		return nil
	})
	if !errors.Is(err, bad) {
		t.Errorf("error %v, want %v", err, bad)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Shared(ctx, 2, 1000, 1, Work, func(lo, hi int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want %v", err, context.Canceled)
	}
}
