// Package parallel is the worker pool that splits a kernel's work across
// cores: Range cuts [0, n) into contiguous parts, runs the last on the
// caller's goroutine and hands the others to workers that live as long as
// the program.
//
// Every engine and operator of package ops that spreads work over cores
// goes through it (the copy engine, elementwise arithmetic, conversions,
// reductions, pooling, resampling, indexing), so that one run never starts
// more goroutines than its thread cap, and calls that nest or run at once
// never wait on a part nobody has started. It never allocates storage
// that grows with the input and never touches tensors: it only calls f.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Work is the work below which Range stays on one core:
// handing work to another core costs more than a few tens of microseconds
// of work.
const Work = 1 << 16

// Range runs f over [0, n) split into at most threads (the run's number of
// cores, at least 1) contiguous parts, on one core when work (a rough count of the
// elements touched) is too small to gain from more. It returns the first
// error f returns.
//
// The caller runs the last part and hands the others to the workers, a pool
// of goroutines that lives as long as the program, one fewer than the cores
// the largest call asked for. A worker that finishes a part stays awake for
// spinTime, looking for the next: a model run in a loop hands over its next
// copy within microseconds, and waking a parked goroutine (a futex and the
// scheduler, tens to hundreds of microseconds on a VM) was a third of the
// time of a 0.3 ms copy. The caller waits the same way. While it waits it
// also runs parts still queued, its own or another call's, so calls that
// nest or run at once never wait on a part nobody has started.
//
// A run whose ctx (nil for none) is cancelled before the call returns the
// context's error at once; f polls the context itself for a cancellation
// during the call.
func Range(ctx context.Context, threads, n, work int, f func(lo, hi int) error) error {
	return run(ctx, threads, n, work, f, nil)
}

// Alone reports whether Range(ctx, threads, n, work, f) runs f(0, n) on
// the caller's goroutine, the context being live. A small kernel asks it
// first and then calls its loop directly: f, a closure passed to Range,
// lives on the heap (the workers may run it), so each call of Range
// allocates one, which a chain of small nodes pays at every node. The
// caller checks ctx itself, as Range would.
func Alone(threads, n, work int) bool {
	workers := max(threads, 1)
	if work < Work {
		workers = 1
	}
	return min(workers, n) <= 1
}

// Err is the error Range returns at once for ctx (nil for none): the
// context's, once it is done.
func Err(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	return ctx.Err()
}

// RangeW is Range with each part's index: part w of workers covers
// [n*w/workers, n*(w+1)/workers), so a worker's items are the same at
// every call with the same threads, n and work. State kept per part (a
// scratch account, gemm.Scratch.Slot) is then charged the same whatever
// order the parts run in.
func RangeW(ctx context.Context, threads, n, work int, f func(w, lo, hi int) error) error {
	return run(ctx, threads, n, work, nil, f)
}

// run is Range with f, or RangeW with fw.
func run(ctx context.Context, threads, n, work int, f func(lo, hi int) error, fw func(w, lo, hi int) error) error {
	if err := Err(ctx); err != nil {
		return err
	}
	if Alone(threads, n, work) {
		if fw != nil {
			return fw(0, 0, n)
		}
		return f(0, n)
	}
	workers := min(max(threads, 1), n)
	startWorkers(workers - 1)
	errs := make([]error, workers)
	c := &call{done: make(chan struct{}, 1)}
	c.left.Store(int32(workers - 1))
	for w := range workers - 1 {
		pool.parts <- part{f: f, fw: fw, w: w, lo: n * w / workers, hi: n * (w + 1) / workers, err: &errs[w], call: c}
	}
	last := workers - 1
	errs[last] = part{f: f, fw: fw, w: last, lo: n * last / workers, hi: n}.do()
	c.wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// spinTime is how long a worker, or a caller waiting for its parts, stays
// awake looking for work before it parks.
const spinTime = 200 * time.Microsecond

// pool is the workers of Range and the queue of parts they take.
var pool struct {
	mu      sync.Mutex
	started int
	parts   chan part
}

// call is one Range call: how many of its handed-out parts are not
// done yet, and a signal when the last one is.
type call struct {
	left atomic.Int32
	done chan struct{} // one value, sent by whoever finishes the last part
}

// part is one part of a call.
type part struct {
	f      func(lo, hi int) error
	fw     func(w, lo, hi int) error // RangeW's, when f is nil
	w      int
	lo, hi int
	err    *error
	call   *call
}

// do runs the part's function.
func (p part) do() error {
	if p.fw != nil {
		return p.fw(p.w, p.lo, p.hi)
	}
	return p.f(p.lo, p.hi)
}

func (p part) run() {
	*p.err = p.do()
	if p.call.left.Add(-1) == 0 {
		p.call.done <- struct{}{}
	}
}

// startWorkers makes sure at least n workers run.
func startWorkers(n int) {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if pool.parts == nil {
		pool.parts = make(chan part, 1024)
	}
	for ; pool.started < n; pool.started++ {
		go worker()
	}
}

// worker runs parts for as long as the program lives.
func worker() {
	for {
		p, ok := spinForPart(nil)
		if !ok {
			p = <-pool.parts
		}
		p.run()
	}
}

// spinForPart looks for a queued part for up to spinTime, yielding the core
// between looks; it gives up early when c (if not nil) is done.
func spinForPart(c *call) (part, bool) {
	start := time.Now()
	for c == nil || c.left.Load() > 0 {
		select {
		case p := <-pool.parts:
			return p, true
		default:
		}
		if time.Since(start) > spinTime {
			break
		}
		runtime.Gosched()
	}
	return part{}, false
}

// wait returns when every handed-out part of c is done, running queued
// parts meanwhile.
func (c *call) wait() {
	for c.left.Load() > 0 {
		if p, ok := spinForPart(c); ok {
			p.run()
			continue
		}
		if c.left.Load() == 0 {
			break
		}
		select {
		case <-c.done:
			return
		case p := <-pool.parts:
			p.run()
		}
	}
	<-c.done
}
