package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/safefile"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

const diffUsage = `usage: onnxshape diff MODEL [--input NAME=FILE]... [--engine A,B | --threads A,B | --profile A,B | --against DIR] [--atol X] [--rtol X] [--ulps N] [--json]

Runs MODEL twice and compares every value of its graph, inputs and node
outputs in the order the nodes run, to find the first node whose output
differs: the two runs differ in engine (--engine fast,reference, the
default), thread count (--threads 1,2) or profile (--profile onnx,sonnx);
or one run is compared with the values in DIR (--against DIR), NAME.npy or
NAME.pb per value as onnxshape run --output all --out DIR writes them, for
instance from another runtime's dump (values DIR lacks are not compared).

Floating-point elements agree when |a-b| <= atol + rtol*|b| (defaults 1e-5
and 1e-4), or with --ulps N when they are at most N units in the last place
apart; NaN agrees with NaN; other types must be equal. Prints the number of
values compared and, for the first value that differs, the node that made it,
the ranges of that node's inputs and where the largest difference is; --json
prints the same as one object. Exits 0 when every value agrees, 1 when one
differs or a run fails.`

func init() {
	register("diff", "run a model twice (engines, threads, profiles, or against a dump) and find the first node that differs", func(args []string) int {
		return diffMain(args, os.Stdout, os.Stderr)
	})
}

// diffSide is one of the two runs a diff compares.
type diffSide struct {
	label   string
	options graph.RunOptions
}

func diffMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("diff")
	var inputs inputFlags
	fs.Var(&inputs, "input", "an input, as NAME=FILE (.npy or .pb); repeat for each input")
	engines := fs.String("engine", "", "the engines of the two runs, A,B (default fast,reference)")
	threads := fs.String("threads", "", "the thread counts of the two runs, A,B")
	profiles := fs.String("profile", "", "the profiles of the two runs, A,B")
	against := fs.String("against", "", "compare one run with the values in this folder")
	atol := fs.Float64("atol", 1e-5, "absolute tolerance of floating-point elements")
	rtol := fs.Float64("rtol", 1e-4, "relative tolerance of floating-point elements")
	ulps := fs.Int64("ulps", 0, "also accept floating-point elements at most this many units in the last place apart")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	maxBytes := fs.Int64("max-bytes", 0, "refuse to read or create any tensor larger than this many bytes (0: 2 GiB, -1: no limit)")
	maxRunBytes := fs.Int64("max-run-bytes", 0, "refuse a run that would hold more than this many bytes of tensors at once (0: 4 GiB, -1: no limit)")
	pos, code, ok := parseCommand(fs, diffUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(stderr, "diff", "give one MODEL, not %d", len(pos))
	}
	if *atol < 0 || *rtol < 0 || *ulps < 0 || math.IsNaN(*atol) || math.IsNaN(*rtol) {
		return usageError(stderr, "diff", "tolerances are not negative")
	}
	base := graph.RunOptions{MaxTensorBytes: *maxBytes, MaxRunBytes: *maxRunBytes}
	a, b := diffSide{"engine fast", base}, diffSide{"engine reference", base}
	b.options.Engine = graph.EngineReference
	modes := 0
	for _, f := range []*string{engines, threads, profiles, against} {
		if *f != "" {
			modes++
		}
	}
	if modes > 1 {
		return usageError(stderr, "diff", "give one of --engine, --threads, --profile and --against")
	}
	var err error
	switch {
	case *threads != "":
		a, b, err = diffPair(*threads, base, "threads", func(s string, o *graph.RunOptions) error {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				return fmt.Errorf("%q is no thread count", s)
			}
			o.Threads = n
			return nil
		})
	case *profiles != "":
		a, b, err = diffPair(*profiles, base, "profile", func(s string, o *graph.RunOptions) error {
			p, err := parseProfile(s)
			o.Profile = p
			return err
		})
	case *engines != "":
		a, b, err = diffPair(*engines, base, "engine", func(s string, o *graph.RunOptions) error {
			e, err := graph.ParseEngine(s)
			o.Engine = e
			return err
		})
	case *against != "":
		a = diffSide{"onnxshape", base}
		b = diffSide{label: *against}
	}
	if err != nil {
		return usageError(stderr, "diff", "%v", err)
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "onnxshape diff:", oneLine(err.Error()))
		return 1
	}

	caps := readCaps{model: graph.LoadOptions{MaxTensorBytes: *maxBytes}}
	caps.tensor = (&ops.Options{MaxTensorBytes: *maxBytes}).TensorLimit()
	m, given, err := loadModel(pos[0], inputs, caps)
	if err != nil {
		return fail(err)
	}
	names := m.ValueNames()
	// The first run returns the initializers too, for the ranges of a
	// differing node's inputs: they cost it nothing.
	a.options.Outputs = names
	for _, init := range m.Proto().GetGraph().GetInitializer() {
		if !slices.Contains(names, init.GetName()) {
			a.options.Outputs = append(slices.Clip(a.options.Outputs), init.GetName())
		}
	}
	resA, err := m.Run(context.Background(), given, &a.options)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", a.label, err))
	}
	va := resA.Map()
	var vb map[string]tensor.Value
	if *against != "" {
		vb, err = readDump(*against, names, caps)
	} else {
		b.options.Outputs = names
		var res graph.Result
		res, err = m.Run(context.Background(), given, &b.options)
		vb = res.Map()
		if err != nil {
			err = fmt.Errorf("%s: %w", b.label, err)
		}
	}
	if err != nil {
		return fail(err)
	}

	tol := tolerance{Abs: *atol, Rel: *rtol, Ulps: *ulps}
	rep := diffReport{Model: pos[0], A: a.label, B: b.label, Tolerance: tol}
	producers := nodesByOutput(m)
	for _, name := range names {
		y, ok := vb[name]
		if !ok || y == nil {
			rep.NotCompared = append(rep.NotCompared, name)
			continue
		}
		rep.Compared++
		d := compareValues(va[name], y, tol)
		if d == nil {
			continue
		}
		d.Value = name
		if p, ok := producers[name]; ok {
			d.Node, d.Op = p.name, p.op
			for _, in := range p.inputs {
				d.Inputs = append(d.Inputs, valueRange(in, va[in]))
			}
		}
		rep.First = d
		break
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fail(err)
		}
	} else {
		rep.print(stdout)
	}
	if rep.First != nil {
		return 1
	}
	return 0
}

// diffPair parses "A,B" into the two runs' options with set.
func diffPair(s string, base graph.RunOptions, flag string, set func(string, *graph.RunOptions) error) (diffSide, diffSide, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return diffSide{}, diffSide{}, fmt.Errorf("--%s takes A,B, not %q", flag, s)
	}
	var sides [2]diffSide
	for i, p := range parts {
		sides[i] = diffSide{label: flag + " " + strings.TrimSpace(p), options: base}
		if err := set(strings.TrimSpace(p), &sides[i].options); err != nil {
			return diffSide{}, diffSide{}, fmt.Errorf("--%s: %v", flag, err)
		}
	}
	return sides[0], sides[1], nil
}

// readDump reads the values of names that dir holds, as run --out writes
// them (see outputFiles), within the caps.
func readDump(dir string, names []string, caps readCaps) (map[string]tensor.Value, error) {
	if st, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("--against: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("--against %s: not a folder", dir)
	}
	out := map[string]tensor.Value{}
	for i, file := range safefile.ValueFiles(names) {
		for _, ext := range []string{".npy", ".pb"} {
			path := filepath.Join(dir, file+ext)
			if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			v, err := readInput(path, graph.ValueInfo{Name: names[i]}, caps)
			if err != nil {
				return nil, err
			}
			out[names[i]] = v
			break
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--against %s: no value of the model there (NAME.npy or NAME.pb, as run --output all --out writes them)", dir)
	}
	return out, nil
}

// producer is the node of the model's graph that makes a value.
type producer struct {
	name, op string
	inputs   []string
}

func nodesByOutput(m *graph.Model) map[string]producer {
	out := map[string]producer{}
	for i, np := range m.Proto().GetGraph().GetNode() {
		name := np.GetName()
		if name == "" {
			name = fmt.Sprintf("#%d", i)
		}
		op := np.GetOpType()
		if d := np.GetDomain(); d != "" && d != "ai.onnx" {
			op = d + "." + op
		}
		var ins []string
		for _, in := range np.GetInput() {
			if in != "" {
				ins = append(ins, in)
			}
		}
		for _, o := range np.GetOutput() {
			if o != "" {
				out[o] = producer{name, op, ins}
			}
		}
	}
	return out
}

// tolerance is when two floating-point elements agree.
type tolerance struct {
	Abs  float64 `json:"atol"`
	Rel  float64 `json:"rtol"`
	Ulps int64   `json:"ulps,omitempty"`
}

// difference is how a value of the two runs differs.
type difference struct {
	Value  string       `json:"value"`
	Node   string       `json:"node,omitempty"`
	Op     string       `json:"op,omitempty"`
	Why    string       `json:"why"`
	At     []int        `json:"at,omitempty"` // the element of the largest difference
	A      string       `json:"a,omitempty"`
	B      string       `json:"b,omitempty"`
	MaxAbs float64      `json:"max_abs,omitempty"`
	Count  int          `json:"elements_beyond,omitempty"` // elements out of tolerance
	Inputs []inputRange `json:"inputs,omitempty"`
}

// inputRange is what a node read: its type and, for numbers, the range
// of the finite elements.
type inputRange struct {
	Name string   `json:"name"`
	Type string   `json:"type"`
	Min  *float64 `json:"min,omitempty"`
	Max  *float64 `json:"max,omitempty"`
	NaNs int      `json:"nans,omitempty"`
}

type diffReport struct {
	Model       string      `json:"model"`
	A           string      `json:"a"`
	B           string      `json:"b"`
	Tolerance   tolerance   `json:"tolerance"`
	Compared    int         `json:"compared"`
	NotCompared []string    `json:"not_compared,omitempty"`
	First       *difference `json:"first_difference"`
}

func (r *diffReport) print(w io.Writer) {
	fmt.Fprintf(w, "%s: %s against %s, %d values compared", printable(r.Model), r.A, printable(r.B), r.Compared)
	if n := len(r.NotCompared); n > 0 {
		fmt.Fprintf(w, " (%d not in %s)", n, printable(r.B))
	}
	fmt.Fprintln(w)
	d := r.First
	if d == nil {
		fmt.Fprintf(w, "all agree (atol %g, rtol %g", r.Tolerance.Abs, r.Tolerance.Rel)
		if r.Tolerance.Ulps > 0 {
			fmt.Fprintf(w, ", %d ulps", r.Tolerance.Ulps)
		}
		fmt.Fprintln(w, ")")
		return
	}
	where := "a graph input"
	if d.Node != "" {
		where = fmt.Sprintf("node %q (%s)", printable(d.Node), printable(d.Op))
	}
	fmt.Fprintf(w, "first difference: value %q of %s: %s\n", printable(d.Value), where, d.Why)
	if d.At != nil {
		fmt.Fprintf(w, "  largest at %v: %s against %s (|a-b| %g; %d elements beyond tolerance)\n", d.At, d.A, d.B, d.MaxAbs, d.Count)
	}
	for _, in := range d.Inputs {
		fmt.Fprintf(w, "  input %q %s", printable(in.Name), in.Type)
		if in.Min != nil {
			fmt.Fprintf(w, " in [%g, %g]", *in.Min, *in.Max)
		}
		if in.NaNs > 0 {
			fmt.Fprintf(w, ", %d NaN", in.NaNs)
		}
		fmt.Fprintln(w)
	}
}

func valueRange(name string, v tensor.Value) inputRange {
	r := inputRange{Name: name, Type: "(not computed)"}
	if v == nil {
		return r
	}
	r.Type = v.Describe()
	t, ok := v.(*tensor.Tensor)
	if !ok || t.Len() == 0 {
		return r
	}
	f, err := t.Float64s()
	if err != nil {
		return r
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range f {
		switch {
		case math.IsNaN(x):
			r.NaNs++
		case !math.IsInf(x, 0):
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	if lo <= hi {
		r.Min, r.Max = &lo, &hi
	}
	return r
}

// compareValues returns how x (the first run's) differs from y, or nil.
func compareValues(x, y tensor.Value, tol tolerance) *difference {
	if x == nil {
		return &difference{Why: "the first run has no value"}
	}
	switch y := y.(type) {
	case *tensor.Tensor:
		t, ok := x.(*tensor.Tensor)
		if !ok {
			return &difference{Why: fmt.Sprintf("%s against %s", x.Describe(), y.Describe())}
		}
		return compareTensorValues(t, y, tol)
	case *tensor.Sequence:
		s, ok := x.(*tensor.Sequence)
		if !ok || s.ElemType != y.ElemType || len(s.Items) != len(y.Items) {
			return &difference{Why: fmt.Sprintf("%s against %s", x.Describe(), y.Describe())}
		}
		for i := range y.Items {
			if d := compareTensorValues(s.Items[i], y.Items[i], tol); d != nil {
				d.Why = fmt.Sprintf("item %d: %s", i, d.Why)
				return d
			}
		}
		return nil
	case *tensor.Optional:
		o, ok := x.(*tensor.Optional)
		if !ok || (o.Value == nil) != (y.Value == nil) {
			return &difference{Why: fmt.Sprintf("%s against %s", x.Describe(), y.Describe())}
		}
		if y.Value == nil {
			return nil
		}
		return compareValues(o.Value, y.Value, tol)
	}
	return &difference{Why: fmt.Sprintf("%s cannot be compared", y.Describe())}
}

func compareTensorValues(x, y *tensor.Tensor, tol tolerance) *difference {
	if x.DataType() != y.DataType() || !tensor.SameShape(x.Shape(), y.Shape()) {
		return &difference{Why: fmt.Sprintf("%s against %s", x.Describe(), y.Describe())}
	}
	if x.DataType() == tensor.String {
		xs, ys := x.Strings(), y.Strings()
		for i := range ys {
			if xs[i] != ys[i] {
				return &difference{Why: "strings differ", At: flatIndex(i, y.Shape()), A: strconv.Quote(xs[i]), B: strconv.Quote(ys[i]), Count: 1}
			}
		}
		return nil
	}
	if !y.DataType().IsFloat() {
		if x.Equal(y) {
			return nil
		}
		xf, err1 := x.Float64s()
		yf, err2 := y.Float64s()
		if err1 != nil || err2 != nil {
			return &difference{Why: "elements differ"}
		}
		d := &difference{Why: "elements differ"}
		for i := range yf {
			if xf[i] != yf[i] {
				d.Count++
				if diff := math.Abs(xf[i] - yf[i]); d.At == nil || diff > d.MaxAbs {
					d.MaxAbs, d.At, d.A, d.B = diff, flatIndex(i, y.Shape()), fmt.Sprint(xf[i]), fmt.Sprint(yf[i])
				}
			}
		}
		return d
	}
	xf, err1 := x.Float64s()
	yf, err2 := y.Float64s()
	if err1 != nil || err2 != nil {
		return &difference{Why: "elements cannot be read as numbers"}
	}
	narrow := y.DataType() != tensor.Double
	var d *difference
	for i := range yf {
		a, b := xf[i], yf[i]
		if agree(a, b, tol, narrow) {
			continue
		}
		if d == nil {
			d = &difference{Why: fmt.Sprintf("elements beyond atol %g + rtol %g*|b|", tol.Abs, tol.Rel)}
		}
		d.Count++
		diff := math.Abs(a - b)
		if math.IsNaN(diff) {
			diff = math.Inf(1)
		}
		if d.At == nil || diff > d.MaxAbs {
			d.MaxAbs, d.At, d.A, d.B = diff, flatIndex(i, y.Shape()), fmt.Sprint(a), fmt.Sprint(b)
		}
	}
	return d
}

// agree reports whether two floating-point elements agree under tol,
// counting ulps in float32 when narrow (float16 and the like are exact in
// it), else in float64.
func agree(a, b float64, tol tolerance, narrow bool) bool {
	switch {
	case a == b:
		return true
	case math.IsNaN(a) || math.IsNaN(b):
		return math.IsNaN(a) && math.IsNaN(b)
	case math.IsInf(a, 0) || math.IsInf(b, 0):
		return false
	case math.Abs(a-b) <= tol.Abs+tol.Rel*math.Abs(b):
		return true
	}
	if tol.Ulps <= 0 {
		return false
	}
	if narrow {
		return ulpDistance(int64(int32(math.Float32bits(float32(a)))), int64(int32(math.Float32bits(float32(b)))), 1<<31) <= uint64(tol.Ulps)
	}
	return ulpDistance(int64(math.Float64bits(a)), int64(math.Float64bits(b)), 0) <= uint64(tol.Ulps)
}

// ulpDistance is the number of representable values between two floats
// given by their bit patterns as signed integers (sign-magnitude, turned
// into a monotonic order); signBit is the pattern's sign bit for float32
// (the float64 case uses the int64's own).
func ulpDistance(a, b int64, signBit int64) uint64 {
	order := func(v int64) int64 {
		if signBit != 0 {
			if v < 0 {
				return -(v & (signBit - 1))
			}
			return v
		}
		if v < 0 {
			return math.MinInt64 - v
		}
		return v
	}
	x, y := order(a), order(b)
	if x > y {
		x, y = y, x
	}
	return uint64(y) - uint64(x)
}

// flatIndex turns a flat position into a multi-index of shape.
func flatIndex(flat int, shape []int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] > 0 {
			idx[d] = flat % shape[d]
			flat /= shape[d]
		}
	}
	return idx
}
