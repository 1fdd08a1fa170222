package bench

import (
	"runtime"
	"slices"
	"time"

	"github.com/onnxshape/onnxshape/tensor"
)

// MeasureOptions say how long to measure a case.
type MeasureOptions struct {
	// Runs is the least number of timed runs (after one untimed warm-up).
	Runs int
	// MinTime is the least total time of the timed runs; measuring goes on
	// until both Runs and MinTime are reached, or MaxRuns.
	MinTime time.Duration
	// MaxRuns caps the timed runs of a very fast case (0: 1,000,000).
	MaxRuns int
}

// Stats are the timings of one case.
type Stats struct {
	Runs        int
	Median, Min time.Duration
	// AllocsPerRun and BytesPerRun are the heap allocations of one run, as
	// runtime.MemStats counts them (Mallocs and TotalAlloc), averaged.
	AllocsPerRun, BytesPerRun float64
}

// Measure calls run once to warm up, then times it until o is satisfied.
// It stops at the first error.
func Measure(run func() error, o MeasureOptions) (Stats, error) {
	st, err := MeasureRounds([]func() error{run}, 1, 0, o)
	if err != nil {
		return Stats{}, err
	}
	return st[0], nil
}

// MeasureRounds times several runs in turns: each runs once to warm up,
// then in each of rounds rounds each is timed in a block of its own, for
// its share of o (Runs and MinTime divided by rounds), with pause between
// blocks. Each run's Stats cover all of its timed runs. On a shared machine
// whose speed drifts from one second to the next, the runs then meet the
// same drift, and their ratios mean more than those of runs timed one
// after the other; pause lets the worker threads of one (onnxruntime's
// spin after a run) go idle before the next starts. It stops at the first
// error.
func MeasureRounds(runs []func() error, rounds int, pause time.Duration, o MeasureOptions) ([]Stats, error) {
	rounds = max(rounds, 1)
	for _, run := range runs {
		if err := run(); err != nil {
			return nil, err
		}
	}
	maxRuns := o.MaxRuns
	if maxRuns <= 0 {
		maxRuns = 1_000_000
	}
	perRound := MeasureOptions{Runs: (max(o.Runs, 1) + rounds - 1) / rounds, MinTime: o.MinTime / time.Duration(rounds), MaxRuns: (maxRuns + rounds - 1) / rounds}
	times := make([][]time.Duration, len(runs))
	mallocs, bytes := make([]uint64, len(runs)), make([]uint64, len(runs))
	for range rounds {
		for k, run := range runs {
			if pause > 0 {
				time.Sleep(pause)
			}
			// Room for the block's most runs, allocated before counting, so
			// that it does not count as the run's.
			times[k] = slices.Grow(times[k], perRound.MaxRuns)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var total time.Duration
			for n := 0; n < perRound.MaxRuns && (n < perRound.Runs || total < perRound.MinTime); n++ {
				start := time.Now()
				err := run()
				d := time.Since(start)
				if err != nil {
					return nil, err
				}
				times[k] = append(times[k], d)
				total += d
			}
			runtime.ReadMemStats(&after)
			mallocs[k] += after.Mallocs - before.Mallocs
			bytes[k] += after.TotalAlloc - before.TotalAlloc
		}
	}
	stats := make([]Stats, len(runs))
	for k, ts := range times {
		slices.Sort(ts)
		n := len(ts)
		median := ts[n/2]
		if n%2 == 0 {
			median = (ts[n/2-1] + ts[n/2]) / 2
		}
		stats[k] = Stats{
			Runs:         n,
			Median:       median,
			Min:          ts[0],
			AllocsPerRun: float64(mallocs[k]) / float64(n),
			BytesPerRun:  float64(bytes[k]) / float64(n),
		}
	}
	return stats, nil
}

// MeasureCopy times a plain copy() of n bytes between two buffers allocated
// once: the memory-bandwidth yardstick of the data-movement operators.
func MeasureCopy(n int64, o MeasureOptions) Stats {
	src := make([]byte, n)
	dst := make([]byte, n)
	for i := range src {
		src[i] = byte(i)
	}
	s, _ := Measure(func() error {
		copy(dst, src)
		return nil
	}, o)
	return s
}

// MeasureAllocCopy times what any run that returns a new output pays at
// least: allocating n bytes of tensor storage (tensor.New, which the
// operators use), then one copy() into it. Beside MeasureCopy it shows how
// much of a run is the allocation, its zeroing and its page faults.
func MeasureAllocCopy(n int64, o MeasureOptions) Stats {
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i)
	}
	s, err := Measure(func() error {
		t, err := tensor.New(tensor.Uint8, int(n))
		if err != nil {
			return err
		}
		copy(t.Bytes(), src)
		return nil
	}, o)
	if err != nil {
		return Stats{}
	}
	return s
}
