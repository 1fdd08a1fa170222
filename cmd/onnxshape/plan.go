package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/tensor"
)

const planUsage = `usage: onnxshape plan MODEL [--input-shape NAME=D,D,...]... [--steps] [--max-bytes N] [--max-run-bytes N]

Reports the memory one run of MODEL takes: the peak of the bytes of tensors
the run holds at once (the values still to be read and what the running
node asks for; the inputs and initializers are not counted) and the node at
the peak. --max-run-bytes at or above the peak lets a run through.

Inputs take their declared shapes; --input-shape (or --shape) gives the shape of an input whose
shape is symbolic or not declared. The plan is measured by running the model
once on zero-filled inputs of those shapes, so it allocates what a run does;
each input is refused before it is made when it is above --max-bytes, and
all of them together when above --max-run-bytes.
--steps lists every node with what it asks for and the bytes held after it.

` + runCapHelp

func init() {
	register("plan", "report the peak memory of a run and where it happens", func(args []string) int {
		return planMain(args, os.Stdout, os.Stderr)
	})
}

// shapeFlags collects the repeated --shape flag.
type shapeFlags map[string][]int

func (f shapeFlags) String() string { return fmt.Sprint(map[string][]int(f)) }

func (f shapeFlags) Set(s string) error {
	name, dims, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want NAME=D,D,..., not %q", s)
	}
	if _, dup := f[name]; dup {
		return fmt.Errorf("the shape of %q is given twice", name)
	}
	shape := []int{}
	if dims != "" {
		for _, d := range strings.Split(dims, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(d))
			if err != nil || n < 0 {
				return fmt.Errorf("%q: dimension %q is not a count", s, d)
			}
			shape = append(shape, n)
		}
	}
	f[name] = shape
	return nil
}

func planMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("plan")
	shapes := shapeFlags{}
	fs.Var(shapes, "input-shape", "an input's shape, as NAME=D,D,... (NAME= for a scalar); repeat for each input")
	fs.Var(shapes, "shape", "the same as --input-shape")
	steps := fs.Bool("steps", false, "list every node")
	maxBytes := fs.Int64("max-bytes", 0, "refuse to create any tensor larger than this many bytes (0: 2 GiB, -1: no limit)")
	maxRunBytes := fs.Int64("max-run-bytes", 0, "refuse a run that would hold more than this many bytes of tensors at once (0: "+runCapDefault()+", -1: no limit)")
	pos, code, ok := parseCommand(fs, planUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(stderr, "plan", "give one MODEL, not %d", len(pos))
	}
	path := pos[0]
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "model.onnx")
	}
	m, err := graph.LoadWith(path, graph.LoadOptions{AllowUnsupported: true})
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape plan:", oneLine(err.Error()))
		return 1
	}
	if missing := m.Unsupported(); len(missing) > 0 {
		return planFromShapes(path, missing, shapes, stdout, stderr)
	}
	o := &graph.RunOptions{MaxTensorBytes: *maxBytes, MaxRunBytes: *maxRunBytes}
	plan, err := m.MemoryPlan(context.Background(), shapes, o)
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape plan:", oneLine(err.Error()))
		return 1
	}
	writePlan(stdout, plan, *steps)
	return 0
}

// writePlan prints the peak, where it happens and, with steps, every node.
func writePlan(w io.Writer, plan *graph.MemoryPlan, steps bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "peak: %d bytes (%s)", plan.Peak, humanBytes(plan.Peak))
	if plan.PeakStep >= 0 {
		s := plan.Steps[plan.PeakStep]
		fmt.Fprintf(&b, " at %s, step %d of %d", describeStep(s), plan.PeakStep+1, len(plan.Steps))
	}
	b.WriteString("\n")
	if steps {
		fmt.Fprintf(&b, "%6s  %14s  %14s  %s\n", "step", "needs", "live after", "node")
		for i, s := range plan.Steps {
			fmt.Fprintf(&b, "%6d  %14d  %14d  %s\n", i+1, s.Needs, s.Live, describeStep(s))
		}
	}
	io.WriteString(w, b.String())
}

func describeStep(s graph.StepMemory) string {
	if s.Node != "" {
		return fmt.Sprintf("node %q (%s)", s.Node, s.Op)
	}
	return fmt.Sprintf("node #%d (%s)", s.Index, s.Op)
}

// humanBytes writes n in KiB, MiB or GiB with one decimal.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n)/unit, "KiB"
	for _, s := range []string{"MiB", "GiB", "TiB"} {
		if v < unit {
			break
		}
		v, suffix = v/unit, s
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}

// planFromShapes is plan for a model onnxshape cannot run: without a dry
// run, it reports what infer knows, the bytes of every value whose shape
// is static, an upper bound on what a run holds at once.
func planFromShapes(path string, missing []graph.UnsupportedOperator, shapes shapeFlags, stdout, stderr io.Writer) int {
	names := make([]string, len(missing))
	for i, u := range missing {
		names[i] = u.String()
	}
	fmt.Fprintf(stderr, "onnxshape plan: the model uses operators onnxshape does not run (%s): no dry run, the sizes are infer's\n", strings.Join(names, ", "))
	in := map[string][]graph.Dim{}
	for name, s := range shapes {
		dims := make([]graph.Dim, len(s))
		for i, n := range s {
			dims[i] = graph.Const(int64(n))
		}
		in[name] = dims
	}
	r, err := infer.File(context.Background(), path, &infer.Options{InputShapes: in})
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape plan:", oneLine(err.Error()))
		return 1
	}
	var total int64
	known, unknown := 0, 0
	for _, v := range r.Values {
		shape, ok := v.Static()
		n, err := tensor.NumElements(shape)
		if !ok || err != nil || v.Kind != graph.KindTensor || !v.Type.Valid() || v.Type.Size() == 0 {
			unknown++
			continue
		}
		known++
		total += int64(n) * int64(v.Type.Size())
	}
	fmt.Fprintf(stdout, "values of static shape: %d of %d, %s in all (a run holds at most this at once)\n", known, known+unknown, humanBytes(total))
	return 0
}
