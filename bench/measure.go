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
	if err := run(); err != nil {
		return Stats{}, err
	}
	maxRuns := o.MaxRuns
	if maxRuns <= 0 {
		maxRuns = 1_000_000
	}
	// Allocated before counting, so that it does not count as the run's.
	times := make([]time.Duration, 0, maxRuns)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var total time.Duration
	for len(times) < maxRuns && (len(times) < max(o.Runs, 1) || total < o.MinTime) {
		start := time.Now()
		err := run()
		d := time.Since(start)
		if err != nil {
			return Stats{}, err
		}
		times = append(times, d)
		total += d
	}
	runtime.ReadMemStats(&after)
	slices.Sort(times)
	n := len(times)
	median := times[n/2]
	if n%2 == 0 {
		median = (times[n/2-1] + times[n/2]) / 2
	}
	return Stats{
		Runs:         n,
		Median:       median,
		Min:          times[0],
		AllocsPerRun: float64(after.Mallocs-before.Mallocs) / float64(n),
		BytesPerRun:  float64(after.TotalAlloc-before.TotalAlloc) / float64(n),
	}, nil
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
