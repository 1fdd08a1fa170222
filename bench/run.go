package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Result is the measure of one case by onnxshape.
type Result struct {
	Name string
	// Stats time one run of the model, outputs allocated included.
	Stats Stats
	// OutBytes is the storage of the outputs of one run.
	OutBytes int64
	// View is true when every output shares its storage with an input: the
	// run moved no bytes.
	View bool
	// Copy times a plain copy of OutBytes bytes into a buffer allocated
	// once; AllocCopy allocates the buffer in each run (both zero when not
	// measured).
	Copy, AllocCopy Stats
	// Skipped, when not empty, says why the case was not measured: an
	// operator, version or attribute that onnxshape does not implement.
	Skipped string
	// Err is the error that stopped the case otherwise.
	Err error
	// Outputs are the outputs of the last run, by name.
	Outputs map[string]tensor.Value
	// Nodes, with RunOptions.Nodes, is the time of each node of the model
	// over NodeRuns runs timed after the measured ones (graph.NodeTimes).
	Nodes    []graph.NodeTime
	NodeRuns int64
}

// RunOptions are the settings of RunOurs.
type RunOptions struct {
	MeasureOptions
	// Threads caps the cores the kernels use (0: all).
	Threads int
	// Copy also times a plain copy of the output bytes, and an allocation
	// followed by that copy.
	Copy bool
	// Pool runs the model with a graph.Pool, as a program that runs it in a
	// loop would: each run releases the outputs of the run before it, so
	// that once warm a run allocates no tensor storage.
	Pool bool
	// Nodes, when above 0, times each node in as many runs again after
	// the measured ones (graph.RunOptions.Times: the clock read around
	// each node would skew the measure) for Result.Nodes; WriteNodes then
	// lists the Nodes slowest.
	Nodes int
}

// RunOurs loads the case's model with package graph and measures Model.Run.
// A case whose model needs an operator onnxshape lacks is skipped, not an
// error.
func RunOurs(c *Case, o RunOptions) Result {
	run := NewRunner(c, o)
	st, err := Measure(run.Run, o.MeasureOptions)
	var nodes []graph.NodeTime
	var nodeRuns int64
	if o.Nodes > 0 && err == nil {
		nodes, nodeRuns, err = run.TimeNodes(st.Runs)
	}
	res := run.Result(st, err)
	res.Nodes, res.NodeRuns = nodes, nodeRuns
	return res
}

// TimeNodes runs the model runs more times with a graph.NodeTimes and
// returns its nodes and the runs it recorded.
func (r *Runner) TimeNodes(runs int) ([]graph.NodeTime, int64, error) {
	if r.err != nil {
		return nil, 0, r.err
	}
	times := &graph.NodeTimes{}
	r.ro.Times = times
	defer func() { r.ro.Times = nil }()
	for range max(runs, 1) {
		if err := r.Run(); err != nil {
			return nil, 0, err
		}
	}
	return times.Nodes(), times.Runs(), nil
}

// Runner runs a case's model as RunOurs measures it, for a caller that
// times it with others (MeasureRounds).
type Runner struct {
	c    *Case
	o    RunOptions
	m    *graph.Model
	err  error // from loading the model
	ro   *graph.RunOptions
	outs graph.Result
}

// NewRunner loads the case's model; an error shows in Run and Result.
func NewRunner(c *Case, o RunOptions) *Runner {
	r := &Runner{c: c, o: o, ro: &graph.RunOptions{Threads: o.Threads}}
	if c.Bytes != nil {
		r.m, r.err = graph.LoadBytes(c.Bytes, "")
	} else {
		r.m, r.err = graph.Load(c.ModelPath())
	}
	if o.Pool {
		r.ro.Pool = graph.NewPool()
	}
	return r
}

// Run runs the model once. With a pool, the outputs of the run before go
// back to it first, as a program running the model in a loop would do.
func (r *Runner) Run() error {
	if r.err != nil {
		return r.err
	}
	if r.ro.Pool != nil {
		for i := range r.outs.Len() {
			r.ro.Pool.Release(r.outs.At(i))
		}
	}
	var err error
	r.outs, err = r.m.Run(context.Background(), r.c.Inputs, r.ro)
	return err
}

// Result is the case's Result from st, the runner's measure, and err, the
// measure's error; with RunOptions.Copy it also times the copy yardsticks.
func (r *Runner) Result(st Stats, err error) Result {
	res := Result{Name: r.c.Name}
	if err != nil {
		return res.fail(err)
	}
	res.Stats = st
	outs := r.outs.Map()
	res.Outputs = outs
	res.OutBytes = valueBytes(outs)
	res.View = allViews(outs, r.c.Inputs)
	if r.o.Copy {
		res.Copy = MeasureCopy(res.OutBytes, r.o.MeasureOptions)
		res.AllocCopy = MeasureAllocCopy(res.OutBytes, r.o.MeasureOptions)
	}
	return res
}

func (r Result) fail(err error) Result {
	if errors.Is(err, ops.ErrUnsupported) {
		r.Skipped = err.Error()
	} else {
		r.Err = err
	}
	return r
}

// allViews reports whether every output is a tensor that shares its
// storage with one of the inputs.
func allViews(outs, ins map[string]tensor.Value) bool {
	for _, o := range outs {
		t, ok := o.(*tensor.Tensor)
		if !ok || t.ByteLen() == 0 {
			return false
		}
		shared := false
		for _, in := range ins {
			if u, ok := in.(*tensor.Tensor); ok && t.SharesStorage(u) {
				shared = true
			}
		}
		if !shared {
			return false
		}
	}
	return len(outs) > 0
}

// valueBytes is the storage of the tensors in vs (strings count 16 bytes, a
// string header).
func valueBytes(vs map[string]tensor.Value) int64 {
	var n int64
	for _, v := range vs {
		n += tensorBytes(v)
	}
	return n
}

func tensorBytes(v tensor.Value) int64 {
	switch v := v.(type) {
	case *tensor.Tensor:
		if v.DataType() == tensor.String {
			return int64(16 * v.Len())
		}
		return int64(v.ByteLen())
	case *tensor.Sequence:
		var n int64
		for _, t := range v.Items {
			n += tensorBytes(t)
		}
		return n
	case *tensor.Optional:
		if v.Value != nil {
			return tensorBytes(v.Value)
		}
	}
	return 0
}

// ms renders a duration in milliseconds with enough digits for a view (a
// fraction of a microsecond) and a copy (tens of milliseconds) alike.
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v >= 100:
		return fmt.Sprintf("%.1f", v)
	case v >= 1:
		return fmt.Sprintf("%.3f", v)
	}
	return fmt.Sprintf("%.6f", v)
}

// gbps is bytes per duration in GB/s (10^9 bytes a second).
func gbps(bytes int64, d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(bytes)/d.Seconds()/1e9)
}

// ratio renders a/b.
func ratio(a, b time.Duration) string {
	if a <= 0 || b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// WriteTSV writes the header `case	median_ms	min_ms	bytes` and one line
// per measured case. Skipped and failed cases are left out (WriteText and
// the command's standard error report them).
func WriteTSV(w io.Writer, rs []Result) error {
	if _, err := fmt.Fprintln(w, "case\tmedian_ms\tmin_ms\tbytes"); err != nil {
		return err
	}
	for _, r := range rs {
		if r.Skipped != "" || r.Err != nil {
			continue
		}
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\t%d\n", r.Name, ms(r.Stats.Median), ms(r.Stats.Min), r.OutBytes); err != nil {
			return err
		}
	}
	return nil
}

// WriteText writes an aligned table: per case the median and minimum time
// of a run, the output megabytes, the bandwidth (output bytes / median; "-"
// for a view, whose run allocates less than its output), the
// plain copy of the output bytes and the ratio to it, an allocation followed
// by that copy (both when measured), the allocations of one run and the
// number of timed runs. Skipped and failed cases follow the table, one line
// each saying why.
func WriteText(w io.Writer, rs []Result) error {
	// The table aligns right; padding the names to one width keeps them left.
	width := len("case")
	for _, r := range rs {
		width = max(width, len(r.Name))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%-*s\tmedian ms\tmin ms\tout MB\tGB/s\tcopy ms\tx copy\talloc+copy ms\tallocs/op\tB/op\truns\t\n", width, "case")
	for _, r := range rs {
		if r.Skipped != "" || r.Err != nil {
			continue
		}
		copyMs, xCopy, allocCopyMs, bw := "-", "-", "-", "-"
		// A view moved no bytes: a bandwidth would mean nothing.
		if !r.View {
			bw = gbps(r.OutBytes, r.Stats.Median)
		}
		if r.Copy.Runs > 0 {
			copyMs, xCopy = ms(r.Copy.Median), ratio(r.Stats.Median, r.Copy.Median)
		}
		if r.AllocCopy.Runs > 0 {
			allocCopyMs = ms(r.AllocCopy.Median)
		}
		fmt.Fprintf(tw, "%-*s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%.0f\t%.0f\t%d\t\n", width, r.Name,
			ms(r.Stats.Median), ms(r.Stats.Min), float64(r.OutBytes)/1e6,
			bw, copyMs, xCopy, allocCopyMs,
			r.Stats.AllocsPerRun, r.Stats.BytesPerRun, r.Stats.Runs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rs {
		var err error
		switch {
		case r.Skipped != "":
			_, err = fmt.Fprintf(w, "skipped %s: %s\n", r.Name, r.Skipped)
		case r.Err != nil:
			_, err = fmt.Fprintf(w, "error %s: %v\n", r.Name, r.Err)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
