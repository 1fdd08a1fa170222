// Package movement is the data-movement engine: every copy an operator of
// package ops makes from one tensor into another without computing on the
// elements. A Plan moves elements along strides (Transpose's tiled
// transpose, Slice, Concat, Split, Pad's interior, Tile, Expand,
// DepthToSpace, SpaceToDepth); a Table picks source indices axis by axis
// (nearest-neighbour Resize and Upsample); a stitch lays the rows of parts
// side by side (Concat and Split); GatherCopy and ScatterCopy follow flat
// index lists (Gather, GatherElements, ScatterElements, MaxPool's indices,
// MaxUnpool). Its assembly (amd64, off with the purego tag) holds the
// transpose block kernels, REP MOVSB and the streaming stores that a copy
// larger than the cache uses.
//
// It is untyped: it dispatches once on the element's byte size, and moves
// strings as strings. It never writes into a source tensor, never
// allocates storage that grows with the input (the operator allocates and
// charges its output first), and never checks an operator's rules: an index
// or plan out of range is the caller's bug and panics like a slice access.
// It splits large copies across cores through ops/internal/parallel and
// looks at the run's context through ops/internal/poll.
package movement

import (
	"context"
	"runtime"

	"github.com/onnxshape/onnxshape/tensor"
)

// Env is what a copy needs of its run: the context it polls, the cores it
// may use, and the traffic from which it streams its stores.
type Env struct {
	Ctx        context.Context // nil: the copy is never cancelled
	Threads    int             // the run's cap on cores (0: every core, as ops.Options.Threads)
	StreamFrom int             // when positive, replaces StreamMin (tests stream small copies)
	// Record, when not nil, is handed each plan Run executes, simplified,
	// with its two tensors (ops' prepared-node recorder replays them).
	Record func(dst, src *tensor.Tensor, q Plan)
}

// cancelled returns the context's error, if the run has one and it is done.
func (e Env) cancelled() error {
	if e.Ctx == nil {
		return nil
	}
	return e.Ctx.Err()
}

// threads returns how many goroutines a copy may use.
func (e Env) threads() int {
	n := runtime.GOMAXPROCS(0)
	if e.Threads > 0 && e.Threads < n {
		n = e.Threads
	}
	return n
}
