//go:build ort

package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/conformance"
)

// The fastest run of each engine by the process's CPU time, for the cases
// in the folders of $ORT_CPU_DIRS (colon-separated; skipped when unset),
// on $ORT_CPU_THREADS cores (default 1), onnxshape pooled and onnxruntime
// in turns, $ORT_CPU_RUNS runs each (default 30); onnxruntime optimizes
// the graph when $ORT_CPU_OPTIMIZE is set. On a machine shared with other
// work the wall time measures the waiting; the least CPU time of one run
// on one core is what the run itself costs (at 2 threads it also counts
// the spinning of both engines' idle workers, so only the wall minimum
// is shown there).
func TestCPUTimes(t *testing.T) {
	dirs := os.Getenv("ORT_CPU_DIRS")
	if dirs == "" {
		t.Skip("ORT_CPU_DIRS not set")
	}
	threads, runs := 1, 30
	if v, err := strconv.Atoi(os.Getenv("ORT_CPU_THREADS")); err == nil {
		threads = v
	}
	if v, err := strconv.Atoi(os.Getenv("ORT_CPU_RUNS")); err == nil {
		runs = v
	}
	opt := os.Getenv("ORT_CPU_OPTIMIZE") != ""
	optimize = &opt
	cases, err := conformance.FindCases(strings.Split(dirs, ":")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range cases {
		c, err := bench.ReadCase(dir)
		if err != nil {
			t.Fatal(err)
		}
		ours := bench.NewRunner(c, bench.RunOptions{Threads: threads, Pool: true})
		theirs, _, destroy, err := newORT(c, threads)
		if err != nil {
			destroy()
			t.Fatal(err)
		}
		best := [2]float64{math.Inf(1), math.Inf(1)}
		wall := [2]time.Duration{math.MaxInt64, math.MaxInt64}
		for i := range runs + 2 {
			for e, run := range []func() error{ours.Run, theirs} {
				start, cpu := time.Now(), cpuSeconds()
				if err := run(); err != nil {
					destroy()
					t.Fatal(err)
				}
				if i >= 2 { // two warm-up runs
					best[e] = min(best[e], cpuSeconds()-cpu)
					wall[e] = min(wall[e], time.Since(start))
				}
			}
		}
		destroy()
		t.Logf("%s threads=%d ort-optimize=%v: least CPU ms onnxshape pooled %.2f, onnxruntime %.2f (%.2fx); least wall ms %.2f / %.2f (%.2fx); %d runs each; load %s",
			filepath.Base(dir), threads, opt, best[0]*1e3, best[1]*1e3, best[0]/best[1],
			us(wall[0])/1e3, us(wall[1])/1e3, float64(wall[0])/float64(wall[1]), runs, loadAverage())
	}
}
