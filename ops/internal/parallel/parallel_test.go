package parallel

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// TestRangeNestedAndConcurrent runs Range from many
// goroutines at once, each part calling it again, and checks that every
// index is covered exactly once and that a part's error comes back: no
// call waits on a part nobody runs.
func TestRangeNestedAndConcurrent(t *testing.T) {
	const threads = 4
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 50 {
				n := 1 + (g*7+round*13)%40
				seen := make([]atomic.Int32, n*n)
				err := Range(context.Background(), threads, n, Work, func(lo, hi int) error {
					for i := lo; i < hi; i++ {
						if err := Range(context.Background(), threads, n, Work, func(lo2, hi2 int) error {
							for j := lo2; j < hi2; j++ {
								seen[i*n+j].Add(1)
							}
							return nil
						}); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				for k := range seen {
					if c := seen[k].Load(); c != 1 {
						t.Errorf("goroutine %d round %d: index %d covered %d times", g, round, k, c)
						return
					}
				}
			}
		}()
	}
	wg.Wait()

	bad := errors.New("part failed")
	for fail := range 4 {
		err := Range(context.Background(), threads, 4, Work, func(lo, hi int) error {
			if lo <= fail && fail < hi {
				return fmt.Errorf("part [%d, %d): %w", lo, hi, bad)
			}
			return nil
		})
		if !errors.Is(err, bad) {
			t.Fatalf("failing index %d: got %v", fail, err)
		}
	}
}

// RangeW's part w covers [n*w/workers, n*(w+1)/workers): the same items at
// every call, each part index once.
func TestRangeWParts(t *testing.T) {
	for _, c := range []struct{ threads, n, work, workers int }{{4, 10, Work, 4}, {3, 2, Work, 2}, {4, 10, 1, 1}, {1, 5, Work, 1}} {
		for range 20 {
			var mu sync.Mutex
			seen := map[int][2]int{}
			err := RangeW(context.Background(), c.threads, c.n, c.work, func(w, lo, hi int) error {
				mu.Lock()
				defer mu.Unlock()
				if _, dup := seen[w]; dup {
					return fmt.Errorf("part %d twice", w)
				}
				seen[w] = [2]int{lo, hi}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(seen) != c.workers {
				t.Fatalf("%+v: %d parts, want %d", c, len(seen), c.workers)
			}
			for w, r := range seen {
				if r != [2]int{c.n * w / c.workers, c.n * (w + 1) / c.workers} {
					t.Fatalf("%+v: part %d covers %v", c, w, r)
				}
			}
		}
	}
}
