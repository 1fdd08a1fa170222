//go:build ort

// Command ort runs the benchmark cases through onnxshape, through
// onnxruntime's CPU provider and through a plain copy() of the output bytes,
// in one process, and prints the comparison as a markdown table; it also
// compares the outputs of the two (the differential check).
//
// It is a module of its own, and its files need the build tag ort, so that
// onnxshape's module never depends on cgo or onnxruntime. Set up once with
// scripts/ort-setup.sh, then from the repository root:
//
//	go run ./bench/gen bench-data
//	cd bench/ort && go run -tags ort . --threads 2 ../../bench-data
//
// onnxruntime runs with the same number of intra-op threads as onnxshape,
// one inter-op thread and graph optimisations off (--ort-optimize turns
// on all of them, onnxruntime's default for whole models). Its outputs are tensors
// allocated once before timing: the Go binding would otherwise copy every
// output it allocates into Go memory, a cost that is not onnxruntime's.
// onnxshape is measured twice: allocating its outputs in every run (the
// alloc+copy column, tensor.New then copy() in every run, is the floor this
// puts under it), and with a graph.Pool, releasing each run's outputs
// before the next as a program running the model in a loop would.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/conformance"
	"github.com/onnxshape/onnxshape/tensor"
	ort "github.com/yalue/onnxruntime_go"
)

// defaultLib is where scripts/ort-setup.sh puts onnxruntime's library.
func defaultLib() string {
	if p := os.Getenv("ONNXRUNTIME_LIB"); p != "" {
		return p
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "onnxshape-ort", "node_modules", "onnxruntime-node",
		"bin", "napi-v6", "linux", "x64", "libonnxruntime.so.1")
}

func main() {
	threads := flag.Int("threads", runtime.NumCPU(), "cores for onnxshape and intra-op threads for onnxruntime")
	runs := flag.Int("runs", 10, "least number of timed runs per case")
	minTime := flag.Duration("min-time", 500*time.Millisecond, "least total timed duration per case")
	lib := flag.String("lib", defaultLib(), "path of libonnxruntime.so (or set ONNXRUNTIME_LIB)")
	run := flag.String("run", "", "measure only the cases whose name matches this regular expression")
	svg := flag.String("svg", "", "also draw onnxshape's pooled time over onnxruntime's as an SVG chart in this file")
	optimize = flag.Bool("ort-optimize", false, "run onnxruntime with all its graph optimizations (its default) instead of none")
	flag.BoolVar(&ortSpin, "ort-spin", false, "let onnxruntime's idle intra-op threads spin after each run (its default; they then take the cores of the turn that follows)")
	rounds := flag.Int("rounds", 5, "rounds per case in which onnxshape and onnxruntime run in turns (--runs and --min-time are shared among them)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: go run -tags ort . [--threads N] [--runs N] [--min-time D] [--rounds N] [--lib PATH] [--run REGEXP] [--svg FILE] DIR...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 || *threads < 1 || *rounds < 1 {
		flag.Usage()
		os.Exit(2)
	}
	re, err := regexp.Compile(*run)
	if err != nil {
		fatal(err)
	}
	ort.SetSharedLibraryPath(*lib)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		fatal(fmt.Errorf("onnxruntime from %s: %w (run scripts/ort-setup.sh)", *lib, err))
	}
	defer ort.DestroyEnvironment()

	dirs, err := conformance.FindCases(flag.Args()...)
	if err != nil {
		fatal(err)
	}
	mo := bench.MeasureOptions{Runs: *runs, MinTime: *minTime}
	loadBefore := loadAverage()
	var rows []row
	for _, dir := range dirs {
		if !re.MatchString(filepath.Base(dir)) {
			continue
		}
		c, err := bench.ReadCase(dir)
		if err != nil {
			fatal(err)
		}
		r := measureCase(c, *threads, *rounds, mo)
		r.check = differential(c, r.ours, r.ortOutputs, r.ortErr)
		for _, v := range r.ortOutputs {
			v.Destroy()
		}
		r.ortOutputs = nil
		r.ours.Outputs = nil // let the collector have them before the next case
		fmt.Fprintf(os.Stderr, "%s done\n", c.Name)
		rows = append(rows, r)
	}
	fmt.Printf("onnxruntime %s, %d threads, GOMAXPROCS %d, %s, %d rounds a case, load average %s before and %s after\n\n",
		ort.GetVersion(), *threads, runtime.GOMAXPROCS(0), runtime.Version(), *rounds, loadBefore, loadAverage())
	writeTable(os.Stdout, rows)
	if *svg != "" {
		if err := writeChart(*svg, rows, *threads); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// writeChart draws, per case that moves data, onnxshape's median time (with
// a pool, as a loop runs it) over onnxruntime's.
func writeChart(path string, rows []row, threads int) error {
	var bars []bench.Bar
	for _, r := range rows {
		p := r.pooled
		if p.Skipped != "" || p.Err != nil || p.View || p.Stats.Runs == 0 || r.ortErr != nil || r.ort.Median <= 0 {
			continue
		}
		bars = append(bars, bench.Bar{Case: p.Name, Ratio: float64(p.Stats.Median) / float64(r.ort.Median)})
	}
	var b bytes.Buffer
	title := fmt.Sprintf("onnxshape against onnxruntime 1.30, %d threads (median times)", threads)
	if err := bench.WriteSVG(&b, title, "onnxruntime", bars, 0.5); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

type row struct {
	ours       bench.Result
	pooled     bench.Result // ours again, with a graph.Pool
	ort        bench.Stats
	ortOutputs []ort.Value
	ortErr     error
	check      string
}

// roundPause separates the blocks of runs of the two engines, so that the
// threads of the one before (onnxruntime's spin after a run, onnxshape's
// for 200 us) are idle when the next starts.
const roundPause = 20 * time.Millisecond

// measureCase measures the case in onnxshape, plain and pooled, and in an
// onnxruntime session, in rounds of turns (bench.MeasureRounds), then the
// copy yardsticks. Each engine first runs the case once: one that cannot is
// left out of the rounds, with its error in the row.
func measureCase(c *bench.Case, threads, rounds int, mo bench.MeasureOptions) row {
	plain := bench.NewRunner(c, bench.RunOptions{MeasureOptions: mo, Threads: threads, Copy: true})
	pooled := bench.NewRunner(c, bench.RunOptions{MeasureOptions: mo, Threads: threads, Pool: true})
	var r row
	var runs []func() error
	oursErr := plain.Run()
	if oursErr == nil {
		oursErr = pooled.Run()
	}
	if oursErr == nil {
		runs = append(runs, plain.Run, pooled.Run)
	}
	ortRun, outputs, destroy, err := newORT(c, threads)
	defer destroy()
	r.ortOutputs, r.ortErr = outputs, err
	if r.ortErr == nil {
		if r.ortErr = ortRun(); r.ortErr == nil {
			runs = append(runs, ortRun)
		}
	}
	stats, err := bench.MeasureRounds(runs, rounds, roundPause, mo)
	if err != nil {
		fatal(fmt.Errorf("%s: a run that had run once failed: %w", c.Name, err))
	}
	if oursErr != nil {
		r.ours = plain.Result(bench.Stats{}, oursErr)
		r.pooled = r.ours
	} else {
		r.ours = plain.Result(stats[0], nil)
		r.pooled = pooled.Result(stats[1], nil)
		r.pooled.Outputs = nil
		stats = stats[2:]
	}
	if r.ortErr == nil {
		r.ort = stats[0]
	}
	return r
}

// newORT prepares the case's model in an onnxruntime session of its own,
// destroyed (by destroy, which the caller always calls) before the next case
// so that its threads stop competing. run runs it once into outputs, which
// the caller destroys.
// optimize is --ort-optimize.
var optimize *bool

// optimizationLevel is onnxruntime's graph optimization level: none, or
// all with --ort-optimize.
func optimizationLevel() ort.GraphOptimizationLevel {
	if optimize != nil && *optimize {
		return ort.GraphOptimizationLevelEnableAll
	}
	return ort.GraphOptimizationLevelDisableAll
}

// ortSpin keeps onnxruntime's default of intra-op threads that go on
// spinning after a Run. By default the harnesses set its
// session.force_spinning_stop: with its default, onnxruntime's idle
// threads spin on for up to about a second after each Run (its thread pool
// waits for more work that way), so that in rounds of turns the engine
// measured next, onnxshape or onnxruntime's copy column, has a core fewer
// than it asked for; at 2 threads on this 2-core machine onnxshape's runs
// then measured 1.3-2.9x onnxruntime's where they are 0.4-0.9x with the
// spinning stopped. onnxruntime's threads still spin inside a Run, between
// its parallel sections; only the wait after the Run ends.
var ortSpin bool

func newORT(c *bench.Case, threads int) (run func() error, outputs []ort.Value, destroy func(), err error) {
	var cleanup []func() error
	destroy = func() {
		for _, f := range slices.Backward(cleanup) {
			f()
		}
	}
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, nil, destroy, err
	}
	cleanup = append(cleanup, so.Destroy)
	for _, set := range []error{
		so.SetIntraOpNumThreads(threads),
		so.SetInterOpNumThreads(1),
		so.SetGraphOptimizationLevel(optimizationLevel()),
		spinControl(so),
	} {
		if set != nil {
			return nil, nil, destroy, set
		}
	}
	var s *ort.DynamicAdvancedSession
	if c.Bytes != nil {
		s, err = ort.NewDynamicAdvancedSessionWithONNXData(c.Bytes, c.InputNames, c.OutputNames, so)
	} else {
		s, err = ort.NewDynamicAdvancedSession(c.ModelPath(), c.InputNames, c.OutputNames, so)
	}
	if err != nil {
		return nil, nil, destroy, err
	}
	cleanup = append(cleanup, s.Destroy)
	var inputs []ort.Value
	for _, name := range c.InputNames {
		t, ok := c.Inputs[name].(*tensor.Tensor)
		if !ok {
			return nil, nil, destroy, fmt.Errorf("input %s is not a tensor", name)
		}
		v, err := ortTensor(t)
		if err != nil {
			return nil, nil, destroy, fmt.Errorf("input %s: %w", name, err)
		}
		inputs = append(inputs, v)
		cleanup = append(cleanup, v.Destroy)
	}
	outputs = make([]ort.Value, len(c.OutputNames))
	for i := range outputs {
		dt, shape, ok := c.Output(i)
		if !ok {
			// onnxruntime allocates it in the first run, and the runs
			// after write into it.
			continue
		}
		v, err := ortTensor(tensor.MustNew(dt, shape...))
		if err != nil {
			return nil, nil, destroy, fmt.Errorf("output %s: %w", c.OutputNames[i], err)
		}
		outputs[i] = v
	}
	return func() error { return s.Run(inputs, outputs) }, outputs, destroy, nil
}

// ortTensor wraps t's storage (shared, not copied) as an onnxruntime tensor.
func ortTensor(t *tensor.Tensor) (ort.Value, error) {
	shape := make(ort.Shape, t.Rank())
	for i, d := range t.Shape() {
		shape[i] = int64(d)
	}
	switch t.DataType() {
	case tensor.Float:
		v, _ := tensor.Data[float32](t)
		return ort.NewTensor(shape, v)
	case tensor.Int64:
		v, _ := tensor.Data[int64](t)
		return ort.NewTensor(shape, v)
	case tensor.Double:
		v, _ := tensor.Data[float64](t)
		return ort.NewTensor(shape, v)
	case tensor.Int32:
		v, _ := tensor.Data[int32](t)
		return ort.NewTensor(shape, v)
	case tensor.Uint32:
		v, _ := tensor.Data[uint32](t)
		return ort.NewTensor(shape, v)
	case tensor.Int8:
		v, _ := tensor.Data[int8](t)
		return ort.NewTensor(shape, v)
	case tensor.Uint8:
		v, _ := tensor.Data[uint8](t)
		return ort.NewTensor(shape, v)
	case tensor.BFloat16:
		return ort.NewCustomDataTensor(shape, t.Bytes(), ort.TensorElementDataTypeBFloat16)
	case tensor.Float8E4M3FN:
		return ort.NewCustomDataTensor(shape, t.Bytes(), ort.TensorElementDataTypeFloat8E4M3FN)
	case tensor.Bool: // one byte per element, 0 or 1, as onnxruntime's bool
		return ort.NewCustomDataTensor(shape, t.Bytes(), ort.TensorElementDataTypeBool)
	case tensor.Float16: // IEEE half bits, as onnxruntime's float16
		return ort.NewCustomDataTensor(shape, t.Bytes(), ort.TensorElementDataTypeFloat16)
	}
	return nil, fmt.Errorf("element type %v is not wired into the comparison", t.DataType())
}

// differential compares onnxshape's outputs with onnxruntime's: integers
// exactly, floats within 1e-5 + 1e-4*|ort| (the interpolating Resize modes
// round differently).
func differential(c *bench.Case, ours bench.Result, theirs []ort.Value, ortErr error) string {
	switch {
	case ours.Skipped != "" || ours.Err != nil:
		return "-"
	case ortErr != nil:
		return "onnxruntime failed"
	}
	var notes []string
	for i, name := range c.OutputNames {
		mine, ok := ours.Outputs[name].(*tensor.Tensor)
		if !ok {
			notes = append(notes, name+": not a tensor")
			continue
		}
		if msg := compare(mine, theirs[i]); msg != "" {
			notes = append(notes, name+": "+msg)
		}
	}
	if len(notes) == 0 {
		return "same"
	}
	return strings.Join(notes, "; ")
}

func compare(mine *tensor.Tensor, theirs ort.Value) string {
	want := theirs.GetShape()
	if len(want) != mine.Rank() {
		return fmt.Sprintf("shape %v, onnxruntime %v", mine.Shape(), want)
	}
	for i, d := range mine.Shape() {
		if int64(d) != want[i] {
			return fmt.Sprintf("shape %v, onnxruntime %v", mine.Shape(), want)
		}
	}
	switch th := theirs.(type) {
	case *ort.Tensor[float32]:
		got, _ := tensor.Data[float32](mine)
		return countMismatches(got, th.GetData(), func(a, b float32) (bool, float64) {
			if a == b || (a != a && b != b) {
				return true, 0
			}
			d := math.Abs(float64(a) - float64(b))
			return d <= 1e-5+1e-4*math.Abs(float64(b)), d
		})
	case *ort.Tensor[int64]:
		got, _ := tensor.Data[int64](mine)
		return countMismatches(got, th.GetData(), func(a, b int64) (bool, float64) {
			return a == b, math.Abs(float64(a - b))
		})
	case *ort.Tensor[float64]:
		got, _ := tensor.Data[float64](mine)
		return countMismatches(got, th.GetData(), func(a, b float64) (bool, float64) {
			if a == b || (a != a && b != b) {
				return true, 0
			}
			d := math.Abs(a - b)
			return d <= 1e-5+1e-4*math.Abs(b), d
		})
	case *ort.Tensor[int32]:
		return exact(mine, th.GetData())
	case *ort.Tensor[uint32]:
		return exact(mine, th.GetData())
	case *ort.Tensor[int8]:
		return exact(mine, th.GetData())
	case *ort.Tensor[uint8]:
		return exact(mine, th.GetData())
	case *ort.CustomDataTensor:
		// Bool and float16 (Cast's rounding is exact): the same bytes;
		// any two float16 NaNs are alike.
		size := mine.DataType().Size()
		got, want := mine.Bytes(), th.GetData()
		return countMismatches(chunks(got, size), chunks(want, size), func(a, b []byte) (bool, float64) {
			if string(a) == string(b) {
				return true, 0
			}
			if mine.DataType() == tensor.Float16 && isF16NaN(a) && isF16NaN(b) {
				return true, 0
			}
			return false, 1
		})
	}
	return "type not compared"
}

// exact compares integers exactly.
func exact[E int32 | uint32 | int8 | uint8](mine *tensor.Tensor, want []E) string {
	got, err := tensor.Data[E](mine)
	if err != nil {
		return "type " + mine.DataType().String() + ", onnxruntime another"
	}
	return countMismatches(got, want, func(a, b E) (bool, float64) { return a == b, math.Abs(float64(a) - float64(b)) })
}

// countMismatches describes where got and want differ: how many elements,
// the largest difference and the first place.
func countMismatches[E any](got, want []E, same func(a, b E) (bool, float64)) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d elements, onnxruntime %d", len(got), len(want))
	}
	n, first, worst := 0, -1, 0.0
	for i := range got {
		if ok, d := same(got[i], want[i]); !ok {
			n++
			if first < 0 {
				first = i
			}
			worst = max(worst, d)
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d differ (max |d| %.3g; first at flat index %d: %v vs %v)", n, len(got), worst, first, got[first], want[first])
}

// writeTable prints the markdown table of BENCHMARKS.md. Each time is the
// median of the runs with the minimum in parentheses; each ratio is
// onnxshape's over the other's, of the medians (of the minimums in
// parentheses): below 1 onnxshape is faster. "ours" allocates its outputs
// in every run; "pooled" runs with a graph.Pool and releases each run's
// outputs, as a loop would.
func writeTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| case | ours ms | pooled ms | onnxruntime ms | ours/ort | pooled/ort | memcpy ms | pooled/memcpy | alloc+copy ms | B/op | pooled B/op | outputs |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, r := range rows {
		o, p := r.ours, r.pooled
		oursMs, pooledMs, ortMs, copyMs, allocCopyMs := "-", "-", "-", "-", "-"
		xOrt, xPooledOrt, xCopy, bytes, pooledBytes := "-", "-", "-", "-", "-"
		ok := o.Skipped == "" && o.Err == nil
		pok := p.Skipped == "" && p.Err == nil && p.Stats.Runs > 0
		switch {
		case o.Skipped != "":
			oursMs = "skipped"
		case o.Err != nil:
			oursMs = "error"
		default:
			oursMs = timeCell(o.Stats)
			copyMs = timeCell(o.Copy)
			allocCopyMs = timeCell(o.AllocCopy)
			bytes = fmt.Sprintf("%.0f", o.Stats.BytesPerRun)
		}
		if pok {
			pooledMs = timeCell(p.Stats)
			pooledBytes = fmt.Sprintf("%.0f", p.Stats.BytesPerRun)
			if ok {
				xCopy = ratioCell(p.Stats, o.Copy)
			}
		} else if p.Err != nil {
			pooledMs = "error"
		}
		if r.ortErr != nil {
			ortMs = "error"
		} else {
			ortMs = timeCell(r.ort)
			if ok {
				xOrt = ratioCell(o.Stats, r.ort)
			}
			if pok {
				xPooledOrt = ratioCell(p.Stats, r.ort)
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			o.Name, oursMs, pooledMs, ortMs, xOrt, xPooledOrt, copyMs, xCopy, allocCopyMs, bytes, pooledBytes, r.check)
	}
	for _, r := range rows {
		switch {
		case r.ours.Skipped != "":
			fmt.Fprintf(w, "\n- %s skipped by onnxshape: %s", r.ours.Name, r.ours.Skipped)
		case r.ours.Err != nil:
			fmt.Fprintf(w, "\n- %s failed in onnxshape: %v", r.ours.Name, r.ours.Err)
		case r.pooled.Err != nil:
			fmt.Fprintf(w, "\n- %s failed in onnxshape with a pool: %v", r.ours.Name, r.pooled.Err)
		}
		if r.ortErr != nil {
			fmt.Fprintf(w, "\n- %s failed in onnxruntime: %v", r.ours.Name, r.ortErr)
		}
	}
	fmt.Fprintln(w)
}

// timeCell is "median (min)" in milliseconds.
func timeCell(s bench.Stats) string {
	return msString(s.Median) + " (" + msString(s.Min) + ")"
}

// ratioCell is "median ratio (min ratio)".
func ratioCell(a, b bench.Stats) string {
	return ratio(a.Median, b.Median) + " (" + ratio(a.Min, b.Min) + ")"
}

func msString(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	if v < 0.01 {
		return fmt.Sprintf("%.5f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func ratio(a, b time.Duration) string {
	if a <= 0 || b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// loadAverage is the machine's one-minute load average (Linux), to tell a
// quiet run from a contended one.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "ort:", err)
	os.Exit(1)
}

// chunks splits b into pieces of size bytes, one per element.
func chunks(b []byte, size int) [][]byte {
	out := make([][]byte, 0, len(b)/max(size, 1))
	for i := 0; i+size <= len(b); i += size {
		out = append(out, b[i:i+size])
	}
	return out
}

// isF16NaN reports the little-endian float16 bits b as a NaN.
func isF16NaN(b []byte) bool {
	h := uint16(b[0]) | uint16(b[1])<<8
	return h&0x7C00 == 0x7C00 && h&0x3FF != 0
}

// spinControl sets onnxruntime's session.force_spinning_stop unless
// --ort-spin asks for its default (see ortSpin).
func spinControl(so *ort.SessionOptions) error {
	if ortSpin {
		return nil
	}
	return so.AddSessionConfigEntry("session.force_spinning_stop", "1")
}
