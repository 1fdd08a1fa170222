//go:build ort

package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/tensor"
	ort "github.com/yalue/onnxruntime_go"
)

// The every-operator benchmark: every case of
// bench.OperatorCases, at its large (~25 MB) and small (a few KB) size, in
// onnxshape (with a graph.Pool, as a loop runs a model), in onnxruntime
// and as a plain copy of the output bytes, at 1 and at 2 threads, in
// turns (bench.MeasureRounds). Without -update-benchmarks the test only
// runs every small case once in both engines (the harness works);
// with it, it measures everything (a few minutes) and rewrites the
// every-operator section of BENCHMARKS.md and docs/bench-every.svg:
//
//	cd bench/ort && go test -tags ort -run TestEveryOperator -update-benchmarks -timeout 30m
var (
	updateBenchmarks = flag.Bool("update-benchmarks", false, "measure every operator case and rewrite its table in ../../BENCHMARKS.md and ../../docs/bench-every.svg")
	everyRun         = flag.String("every-run", "", "measure only the operator cases whose name matches this regular expression (prints the table, writes nothing)")
	everySmall       = flag.Bool("every-small", false, "with -every-run, measure only the small cases (where the cost of a call dominates)")
	everyMinTime     = flag.Duration("every-min-time", 30*time.Millisecond, "least timed duration per engine, case, size and thread count")
)

func init() {
	flag.BoolVar(&ortSpin, "ort-spin", false, "let onnxruntime's idle intra-op threads spin after each run (its default; see ortSpin)")
}

// everyRow is one case of the every-operator table.
type everyRow struct {
	name, op string
	memory   bool
	nodeTest bool // the small case is an ONNX node test; there is no large one
	// sizes[0] is large, sizes[1] small; each at threads 1 and 2.
	sizes [2][2]everyCell
	check string // the differential check of the small case at 1 thread
}

type everyCell struct {
	measured       bool
	ours, ort, cpy bench.Stats
	ortErr         error // onnxruntime refused the model or failed
	oursErr        error
}

// ratio is onnxshape's median over onnxruntime's, 0 when not measured.
func (c everyCell) ratio() float64 {
	if !c.measured || c.ortErr != nil || c.oursErr != nil || c.ort.Median <= 0 {
		return 0
	}
	return float64(c.ours.Median) / float64(c.ort.Median)
}

func TestEveryOperator(t *testing.T) {
	full := *updateBenchmarks || *everyRun != ""
	re, err := regexp.Compile(*everyRun)
	if err != nil {
		t.Fatal(err)
	}
	dir := bench.NodeTestsDir()
	loadBefore := loadAverage()
	start := time.Now()
	var rows []everyRow
	deadline, hasDeadline := t.Deadline()
	var last time.Duration // the longest case so far
	for _, oc := range bench.OperatorCases() {
		if !re.MatchString(oc.Name) {
			continue
		}
		// Stop a case early rather than let the test's -timeout kill the
		// whole run, which would print nothing: the rows measured so far
		// go to stdout, BENCHMARKS.md is left as it was.
		if full && hasDeadline && time.Until(deadline) < 2*last+time.Minute {
			var b bytes.Buffer
			writeEveryTable(&b, rows)
			os.Stdout.Write(b.Bytes())
			t.Fatalf("stopped before case %s: %d cases measured in %s, and -timeout leaves too little for the next; BENCHMARKS.md is unchanged (rerun with a larger -timeout, or -every-run for a part)",
				oc.Name, len(rows), time.Since(start).Round(time.Second))
		}
		caseStart := time.Now()
		if _, err := os.Stat(dir); err != nil && !oc.HasLarge() {
			continue
		}
		r := everyRow{name: oc.Name, op: oc.Op, memory: oc.Memory, nodeTest: !oc.HasLarge()}
		for size, large := range []bool{true, false} {
			if large && (!full || !oc.HasLarge() || (*everySmall && !*updateBenchmarks)) {
				continue
			}
			c, err := oc.Case(large, dir)
			if err != nil {
				t.Fatalf("%s: %v", oc.Name, err)
			}
			for ti, threads := range []int{1, 2} {
				if !full && threads == 2 {
					continue
				}
				mo := bench.MeasureOptions{Runs: 3, MinTime: *everyMinTime}
				if !full {
					mo = bench.MeasureOptions{Runs: 1, MaxRuns: 1}
				}
				cell, check := measureEvery(c, oc.Memory, threads, mo, full)
				r.sizes[size][ti] = cell
				if !large && threads == 1 {
					r.check = check
				}
			}
		}
		rows = append(rows, r)
		last = max(last, time.Since(caseStart))
		if full {
			var b bytes.Buffer
			writeEveryTable(&b, rows[len(rows)-1:])
			lines := bytes.Split(bytes.TrimSpace(b.Bytes()), []byte("\n"))
			fmt.Fprintf(os.Stderr, "%d done: %s\n", len(rows), lines[2]) // the row, past the table's head
		}
	}
	if !full {
		return
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "onnxruntime %s, GOMAXPROCS %d, %s, %d cases in %s, load average %s before and %s after\n\n",
		ort.GetVersion(), runtime.GOMAXPROCS(0), runtime.Version(), len(rows), time.Since(start).Round(time.Second), loadBefore, loadAverage())
	writeEveryTable(&b, rows)
	if !*updateBenchmarks {
		os.Stdout.Write(b.Bytes())
		return
	}
	if err := replaceSection("../../BENCHMARKS.md", "every", b.String()); err != nil {
		t.Fatal(err)
	}
	var bars []bench.Bar
	for _, r := range rows {
		if x := r.sizes[0][0].ratio(); x > 0 {
			bars = append(bars, bench.Bar{Case: r.name, Ratio: x})
		}
	}
	slices.SortStableFunc(bars, func(a, b bench.Bar) int { return -cmpFloat(a.Ratio, b.Ratio) })
	var svg bytes.Buffer
	if err := bench.WriteSVG(&svg, "Every operator against onnxruntime 1.30, large case, 1 thread (median times)", "onnxruntime", bars, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("../../docs/bench-every.svg", svg.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// measureEvery times one case at one thread count: onnxshape pooled,
// onnxruntime and a copy in turns: of the output's bytes, or for an
// operator that only moves bytes (memory) of half the bytes it reads and
// writes, a copy reading and writing as many bytes as the operator (a
// Cast from float to uint8 reads four bytes an element and writes one: a
// copy of its output alone would move two), but never fewer than the
// output's: an operator that only writes (ConstantOfShape, Expand of a
// small input) is held to a copy of its output. The copy's source is
// written before it is timed (until session 22 it was not, and its copy
// read the kernel's zero page: the yardstick was a clear, about half a
// real copy of bytes that live in L3). check is the differential check of
// the outputs.
func measureEvery(c *bench.Case, memory bool, threads int, mo bench.MeasureOptions, timed bool) (everyCell, string) {
	var cell everyCell
	pooled := bench.NewRunner(c, bench.RunOptions{MeasureOptions: mo, Threads: threads, Pool: true})
	if cell.oursErr = pooled.Run(); cell.oursErr != nil {
		return cell, "-"
	}
	res := pooled.Result(bench.Stats{}, nil)
	runs := []func() error{pooled.Run}
	ortRun, outputs, destroy, err := newORT(c, threads)
	defer destroy()
	defer func() {
		for _, v := range outputs {
			if v != nil {
				v.Destroy()
			}
		}
	}()
	if err == nil {
		err = ortRun()
	}
	cell.ortErr = err
	if err == nil {
		runs = append(runs, ortRun)
	}
	check := differential(c, res, outputs, cell.ortErr)
	if !timed {
		return cell, check
	}
	moved := res.OutBytes
	if memory {
		moved = max(moved, (inputBytes(c)+res.OutBytes)/2)
	}
	// The source is written first: a fresh buffer never written reads as
	// the kernel's shared zero page, one 4 KB page in L1, and its copy
	// costs what clearing dst costs (half a copy of real bytes here).
	src, dst := make([]byte, moved), make([]byte, moved)
	for i := range src {
		src[i] = byte(i)
	}
	runs = append(runs, func() error { copy(dst, src); return nil })
	stats, err := bench.MeasureRounds(runs, 3, 5*time.Millisecond, mo)
	if err != nil {
		cell.oursErr = err
		return cell, check
	}
	cell.measured = true
	cell.ours, cell.cpy = stats[0], stats[len(stats)-1]
	if cell.ortErr == nil {
		cell.ort = stats[1]
	}
	return cell, check
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// worst is a row's largest ratio over both sizes and thread counts, the
// table's sort key.
func (r everyRow) worst() float64 {
	w := 0.0
	for _, s := range r.sizes {
		for _, c := range s {
			w = max(w, c.ratio())
		}
	}
	return w
}

// writeEveryTable prints the rows sorted by their worst ratio, slowest
// first, then the cases onnxruntime could not run.
func writeEveryTable(w io.Writer, rows []everyRow) {
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b everyRow) int { return -cmpFloat(a.worst(), b.worst()) })
	fmt.Fprintln(w, "| case | large 1t | large 2t | small 1t | small 2t | large ms, ours / ort (1t) | small µs, ours / ort (1t) | ours/memcpy (large, 1t) | outputs |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---|")
	var notes []string
	for _, r := range rows {
		cells := make([]string, 0, 4)
		for size := range 2 {
			for ti := range 2 {
				cells = append(cells, ratioText(r.sizes[size][ti]))
			}
		}
		l, s := r.sizes[0][0], r.sizes[1][0]
		large := "-"
		if l.measured {
			large = fmt.Sprintf("%.2f / %s", msOf(l.ours.Median), msOrNone(l))
		}
		small := "-"
		if s.measured {
			small = fmt.Sprintf("%.1f / %s", usOf(s.ours.Median), usOrNone(s))
		}
		cpy := "-"
		if l.measured && l.cpy.Median > 0 {
			cpy = fmt.Sprintf("%.2f", float64(l.ours.Median)/float64(l.cpy.Median))
			if r.memory {
				cpy += " (moves bytes)"
			}
		}
		name := r.name
		if r.nodeTest {
			name += " (node test)"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, cells[0], cells[1], cells[2], cells[3], large, small, cpy, r.check)
		for _, c := range []everyCell{l, s} {
			if c.oursErr != nil {
				notes = append(notes, fmt.Sprintf("- %s failed in onnxshape: %v", r.name, c.oursErr))
				break
			}
		}
		for _, c := range []everyCell{l, s} {
			if c.ortErr != nil {
				notes = append(notes, fmt.Sprintf("- %s: onnxruntime has no kernel for it: %s", r.name, firstLine(c.ortErr)))
				break
			}
		}
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintln(w, n)
		}
	}
}

func ratioText(c everyCell) string {
	switch {
	case !c.measured && c.oursErr == nil && c.ortErr == nil:
		return "-"
	case c.oursErr != nil:
		return "error"
	case c.ortErr != nil:
		return "no ort"
	}
	x := c.ratio()
	if x > 1 {
		return fmt.Sprintf("**%.2f**", x)
	}
	return fmt.Sprintf("%.2f", x)
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func usOf(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

func msOrNone(c everyCell) string {
	if c.ortErr != nil {
		return "none"
	}
	return fmt.Sprintf("%.2f", msOf(c.ort.Median))
}

func usOrNone(c everyCell) string {
	if c.ortErr != nil {
		return "none"
	}
	return fmt.Sprintf("%.1f", usOf(c.ort.Median))
}

// firstLine is an error's first line, cut to 160 bytes.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return strings.ReplaceAll(s, "|", "/")
}

// replaceSection replaces the text between <!-- name:begin --> and
// <!-- name:end --> in the file at path with body, or appends the section.
func replaceSection(path, name, body string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	begin, end := "<!-- "+name+":begin -->", "<!-- "+name+":end -->"
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	section := begin + "\n" + body + "\n" + end
	if i < 0 || j < i {
		s = strings.TrimRight(s, "\n") + "\n\n" + section + "\n"
	} else {
		s = s[:i] + section + s[j+len(end):]
	}
	return os.WriteFile(path, []byte(s), 0o644)
}

// inputBytes is the storage of a case's fed inputs (tensors, and the
// tensors of sequences) and of its initializers (their raw data).
func inputBytes(c *bench.Case) int64 {
	var n int64
	for _, t := range c.Model.GetGraph().GetInitializer() {
		n += int64(len(t.GetRawData()))
	}
	for _, v := range c.Inputs {
		switch v := v.(type) {
		case *tensor.Tensor:
			n += int64(v.ByteLen())
		case *tensor.Sequence:
			for _, t := range v.Items {
				n += int64(t.ByteLen())
			}
		}
	}
	return n
}
