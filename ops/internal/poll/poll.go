// Package poll is the countdown between a kernel's looks at its run's
// context: a loop counts the work it has done and, every Work elements or
// so, asks whether the context is done, so that a cancelled run stops
// within a few milliseconds while a look costs nothing measurable.
//
// Every engine under ops/internal that loops over large tensors (movement,
// conversion, pooling, resampling) and the operators of package ops that
// loop themselves (MaxPool, MaxUnpool, ...) keep one Canceller per
// goroutine. It never allocates and never touches tensors.
package poll

import "context"

// Work is the work, in elements moved or compared, between two looks at
// the run's context: about 0.1 to 1 ms, so a cancelled kernel stops within
// a few milliseconds while a look costs nothing measurable.
const Work = 1 << 18

// Canceller counts a loop's work down to its next look at the context. Each
// goroutine keeps its own; the zero value (no context) never stops.
type Canceller struct {
	done   <-chan struct{}
	ctx    context.Context
	budget int
	Err    error // the context's error once the loop has seen it
}

// New returns the countdown of one loop of a run under ctx (nil: never
// stops).
func New(ctx context.Context) Canceller {
	if ctx == nil {
		return Canceller{}
	}
	return Canceller{done: ctx.Done(), ctx: ctx, budget: Work}
}

// Stop counts work done and reports whether the loop must stop: the
// context is done (its error is then in c.Err).
func (c *Canceller) Stop(work int) bool {
	if c == nil || c.done == nil {
		return false
	}
	if c.Err != nil {
		return true
	}
	if c.budget -= work; c.budget > 0 {
		return false
	}
	c.budget = Work
	select {
	case <-c.done:
		c.Err = c.ctx.Err()
		return true
	default:
		return false
	}
}
