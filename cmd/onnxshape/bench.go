package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/conformance"
)

const benchUsage = `usage: onnxshape bench DIR... [--threads N] [--format text|tsv] [--runs N] [--min-time D] [--run REGEXP] [--pool] [--nodes N] [--cpuprofile FILE]

Runs each benchmark case (a node-test folder: model.onnx + test_data_set_0/)
found in DIR many times and prints per case the median and the minimum time
of one run, the output bytes and the bandwidth (output bytes / median); the
text format adds a plain copy of the output bytes, an allocation followed by
that copy, the allocations of one run (allocs/op, B/op) and the number of
timed runs. With --pool the runs share a graph.Pool and release their
outputs, as a program running the model in a loop would, so that a warm
run allocates no tensor storage. Cases whose operator is not implemented
are reported as skipped.
With --nodes N, each case then runs as many times again with a per-node
timer (graph.RunOptions.Times) and the text format adds where a run's time
goes: per operator type the milliseconds per run, the share of the nodes'
total and the number of nodes; then the N slowest nodes with their name,
operator, input and output shapes, milliseconds per run and the nodes each
ran fused into it. The measured runs are not timed node by node.
Generate the standard cases with: go run ./bench/gen bench-data
BENCHMARKS.md tells how to compare with onnxruntime.`

func init() {
	register("bench", "measure benchmark cases (median and min ms, bytes, GB/s, allocs)", func(args []string) int {
		return benchMain(args, os.Stdout, os.Stderr)
	})
}

func benchMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("bench")
	threads := fs.Int("threads", 0, "cores the kernels use (0: all)")
	format := fs.String("format", "text", "text or tsv (header: case, median_ms, min_ms, bytes)")
	runs := fs.Int("runs", 10, "least number of timed runs per case")
	minTime := fs.Duration("min-time", 500*time.Millisecond, "least total timed duration per case")
	run := fs.String("run", "", "measure only the cases whose folder name matches this regular expression")
	pool := fs.Bool("pool", false, "run with a graph.Pool, releasing each run's outputs before the next, as a loop would")
	svg := fs.String("svg", "", "also draw each case's time over a plain copy's as an SVG chart in this file")
	nodes := fs.Int("nodes", 0, "then time each node and list the time per operator type and the N slowest nodes (0: no)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the measured runs to this file (go tool pprof)")
	dirs, code, ok := parseCommand(fs, benchUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	switch {
	case len(dirs) == 0:
		return usageError(stderr, "bench", "give at least one DIR of benchmark cases")
	case *threads < 0:
		return usageError(stderr, "bench", "--threads is %d; give 0 (all cores) or more", *threads)
	case *runs < 1:
		return usageError(stderr, "bench", "--runs is %d; give 1 or more", *runs)
	case *nodes < 0:
		return usageError(stderr, "bench", "--nodes is %d; give 0 (none) or more", *nodes)
	case *format != "text" && *format != "tsv":
		return usageError(stderr, "bench", "--format is %q; give text or tsv", *format)
	}
	re, err := regexp.Compile(*run)
	if err != nil {
		return usageError(stderr, "bench", "--run: %v", err)
	}
	cases, err := conformance.FindCases(dirs...)
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape bench:", oneLine(err.Error()))
		return 1
	}
	if len(cases) == 0 {
		fmt.Fprintln(stderr, oneLine(fmt.Sprintf("onnxshape bench: no benchmark case under %s (a case is a folder holding model.onnx and test_data_set_0/; make them with go run ./bench/gen DIR)", strings.Join(dirs, ", "))))
		return 1
	}
	o := bench.RunOptions{
		MeasureOptions: bench.MeasureOptions{Runs: *runs, MinTime: *minTime},
		Threads:        *threads,
		// The copy yardstick would show in the profile: leave it out then.
		Copy:  (*format == "text" || *svg != "") && *cpuProfile == "",
		Pool:  *pool,
		Nodes: *nodes,
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "onnxshape bench:", oneLine(err.Error()))
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, "onnxshape bench:", oneLine(err.Error()))
			return 1
		}
	}
	var results []bench.Result
	failed := false
	for _, dir := range cases {
		if !re.MatchString(filepath.Base(dir)) {
			continue
		}
		var r bench.Result
		if c, err := bench.ReadCase(dir); err != nil {
			r = bench.Result{Name: filepath.Base(dir), Err: err}
		} else {
			r = bench.RunOurs(c, o)
		}
		r.Outputs = nil // free them before the next case
		failed = failed || r.Err != nil
		results = append(results, r)
	}
	if *cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	if *format == "tsv" {
		err = bench.WriteTSV(stdout, results)
		for _, r := range results {
			switch {
			case r.Skipped != "":
				fmt.Fprintln(stderr, oneLine(fmt.Sprintf("skipped %s: %s", r.Name, r.Skipped)))
			case r.Err != nil:
				fmt.Fprintln(stderr, oneLine(fmt.Sprintf("error %s: %v", r.Name, r.Err)))
			}
		}
	} else {
		err = bench.WriteText(stdout, results)
		if err == nil && *nodes > 0 {
			err = bench.WriteNodes(stdout, results, *nodes)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape bench:", oneLine(err.Error()))
		return 1
	}
	if *svg != "" {
		var b bytes.Buffer
		bench.WriteSVG(&b, "onnxshape against a plain copy of the output bytes", "copy()", bench.CopyBars(results), 1.3)
		if err := os.WriteFile(*svg, b.Bytes(), 0o644); err != nil {
			fmt.Fprintln(stderr, "onnxshape bench:", oneLine(err.Error()))
			return 1
		}
	}
	if failed {
		return 1
	}
	return 0
}
