package ops

import "sync"

// parallelWork is the work below which parallelRange stays on one core:
// waking another core costs more than a few tens of microseconds of work.
const parallelWork = 1 << 16

// parallelRange runs f over [0, n) split into at most the run's number of
// cores contiguous parts, on one core when work (a rough count of the
// elements touched) is too small to gain from more. It returns the first
// error f returns.
//
// Every part runs on a goroutine of its own while the caller waits: Go's
// scheduler runs the goroutine started last on the caller's core as soon as
// the caller blocks, and another core takes the others from the queue at
// once. A caller that worked on a part itself would leave the goroutine it
// started in the slot only its own core takes without delay (measured: no
// faster, more variable).
func parallelRange(opt *Options, n, work int, f func(lo, hi int) error) error {
	workers := opt.orDefault().threads()
	if work < parallelWork {
		workers = 1
	}
	workers = min(workers, n)
	if workers <= 1 {
		return f(0, n)
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = f(n*w/workers, n*(w+1)/workers)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
