package parallel

import (
	"context"
	"sync/atomic"
)

// Shared runs f over [0, n) in pieces of grain items (the last may be
// shorter) that the cores take one after another from a shared counter,
// instead of Range's fixed contiguous parts: the caller starts on the
// first piece at once and a worker joins when it wakes, so neither a
// late wake-up (a parked worker on a VM: tens to hundreds of
// microseconds) nor a core slowed by another process leaves the other
// idle at the end, as a fixed half does. It is for loops whose pieces
// are independent and need no state per part (elementwise and row
// loops over a tensor too large for one core's cache); a kernel that
// keeps scratch per part uses RangeW, whose parts are the same at every
// call.
//
// It runs on one core when Range would (work too small, or one piece),
// and returns the first error f returns; once a piece fails, no new
// piece starts. The context is checked as Range checks it; f polls it
// for a cancellation during the call.
func Shared(ctx context.Context, threads, n, grain, work int, f func(lo, hi int) error) error {
	if err := Err(ctx); err != nil {
		return err
	}
	grain = max(grain, 1)
	pieces := (n + grain - 1) / grain
	if Alone(threads, pieces, work) {
		return f(0, n)
	}
	var next atomic.Int64
	var failed atomic.Bool
	return Range(ctx, threads, min(max(threads, 1), pieces), work, func(_, _ int) error {
		for !failed.Load() {
			p := int(next.Add(1) - 1)
			if p >= pieces {
				return nil
			}
			if err := f(p*grain, min((p+1)*grain, n)); err != nil {
				failed.Store(true)
				return err
			}
		}
		return nil
	})
}
