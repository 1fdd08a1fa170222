// Package conformance runs the ONNX backend node tests: folders holding a
// one-node model.onnx and test_data_set_*/ folders of input_K.pb and
// output_K.pb files. Outputs are compared as ONNX compares them: kind, type
// and shape exactly; floating-point values within |a-b| <= 1e-7 + 1e-3*|b|
// (NaN equal to NaN); everything else exactly.
//
// manifest.txt lists every case with its expected status (see Manifest);
// the package test runs every case and holds them to it. The package is
// supported API: `onnxshape test` is built on it, and a program that runs
// the node tests (or its own cases in their layout) with chosen
// RunOptions uses FindCases, RunCase and Compare the same way.
package conformance

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/safefile"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/profile"
	"github.com/onnxshape/onnxshape/tensor"
)

// Status is the outcome of one case.
type Status string

// The outcomes of a case.
const (
	Pass Status = "PASS"
	Fail Status = "FAIL"
	// Skip: the model uses an operator or version onnxshape does not
	// implement (yet).
	Skip Status = "SKIP"
)

// Result is the outcome of one case: its folder name, status and, unless
// it passed, why.
type Result struct {
	Name   string
	Status Status
	Reason string
}

// Tolerances of the comparison of floating-point outputs, as the ONNX
// backend tests use them.
const (
	AbsTol = 1e-7
	RelTol = 1e-3
)

// FindCases returns every folder under dirs (the dirs themselves included)
// that holds a model.onnx and at least one test_data_set_* folder, sorted.
func FindCases(dirs ...string) ([]string, error) {
	return findCases(dirs, map[string]bool{})
}

// findCases is FindCases, following symbolic links to folders (a folder of
// linked cases is common) but entering each real folder once, so that a
// link cycle ends.
func findCases(dirs []string, seen map[string]bool) ([]string, error) {
	var cases []string
	for _, root := range dirs {
		if st, err := os.Lstat(root); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			root += string(filepath.Separator) // walk what the link points to
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type()&fs.ModeSymlink != 0 {
				if st, err := os.Stat(path); err == nil && st.IsDir() {
					linked, err := findCases([]string{path}, seen)
					cases = append(cases, linked...)
					return err
				}
				return nil
			}
			if !d.IsDir() {
				return nil
			}
			if real, err := filepath.EvalSymlinks(path); err == nil {
				if seen[real] {
					return filepath.SkipDir
				}
				seen[real] = true
			}
			if isCase(path) {
				cases = append(cases, path)
				return filepath.SkipDir
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(cases)
	return cases, nil
}

func isCase(dir string) bool {
	if st, err := os.Stat(filepath.Join(dir, "model.onnx")); err != nil || st.IsDir() {
		return false
	}
	sets, _ := filepath.Glob(filepath.Join(dir, "test_data_set_*"))
	return len(sets) > 0
}

// RunCase loads the model of the case in dir and runs it on every data set,
// comparing the outputs with the expected ones. A model whose operator or
// version onnxshape lacks is a Skip; anything else that goes wrong is a
// Fail whose reason says what and where.
func RunCase(dir string, o *graph.RunOptions) (r Result) {
	return runCase(dir, o, o != nil && o.Pool != nil)
}

// runCase is RunCase; with warm, each data set runs twice and the second
// run's outputs are compared, so that the second recycles the first's
// storage (a Pool's, given back, or the run's own spares), as a model run in
// a loop does.
func runCase(dir string, o *graph.RunOptions, warm bool) (r Result) {
	r = Result{Name: filepath.Base(dir), Status: Pass}
	defer func() {
		if p := recover(); p != nil {
			r.Status, r.Reason = Fail, fmt.Sprintf("internal error: %v", p)
		}
	}()
	// LoadBytes rather than Load: the reason, which the manifest records,
	// must not hold the machine's path to the case.
	b, err := safefile.Read(filepath.Join(dir, "model.onnx"), onnx.DefaultMaxModelBytes) // regular files only: a pipe would block
	if err != nil {
		return Result{r.Name, Fail, oneLine(err.Error())}
	}
	m, err := graph.LoadBytes(b, dir)
	if errors.Is(err, ops.ErrUnsupported) {
		return Result{r.Name, Skip, oneLine(err.Error())}
	}
	if err != nil {
		return Result{r.Name, Fail, oneLine(err.Error())}
	}
	// Under the profile a model that leaves it is refused, as the CLI's run
	// refuses it: the case fails with the findings.
	if o != nil && o.Profile == ops.ProfileSONNX {
		if err := profile.Enforce(m); err != nil {
			return Result{r.Name, Fail, oneLine(err.Error())}
		}
	}
	sets, err := filepath.Glob(filepath.Join(dir, "test_data_set_*"))
	if err != nil || len(sets) == 0 {
		return Result{r.Name, Fail, "no test_data_set_* folder"}
	}
	sort.Strings(sets)
	for _, set := range sets {
		if err := runDataSet(m, set, o, warm); err != nil {
			status := Fail
			if errors.Is(err, ops.ErrUnsupported) {
				status = Skip // a feature refused as unsupported at run time (training-mode Dropout)
			}
			msg := err.Error()
			if len(sets) > 1 {
				msg = filepath.Base(set) + ": " + msg
			}
			return Result{r.Name, status, oneLine(msg)}
		}
	}
	return r
}

func runDataSet(m *graph.Model, set string, o *graph.RunOptions, warm bool) error {
	inputs := map[string]tensor.Value{}
	for k, in := range m.Inputs() {
		v, err := readValue(filepath.Join(set, fmt.Sprintf("input_%d.pb", k)), in)
		if err != nil {
			return err
		}
		inputs[in.Name] = v
	}
	if extra := filepath.Join(set, fmt.Sprintf("input_%d.pb", len(m.Inputs()))); fileExists(extra) {
		return fmt.Errorf("%s: the model has only %d inputs", filepath.Base(extra), len(m.Inputs()))
	}
	if warm {
		// A first run whose storage all goes back (to the pool, if any):
		// the run compared below recycles it, as a model run in a loop does.
		first, err := m.Run(context.Background(), inputs, o)
		if err != nil {
			return err
		}
		if o != nil && o.Pool != nil {
			for _, v := range first.Map() {
				o.Pool.Release(v)
			}
		}
	}
	got, err := m.Run(context.Background(), inputs, o)
	if err != nil {
		return err
	}
	for k, out := range m.Outputs() {
		want, err := readValue(filepath.Join(set, fmt.Sprintf("output_%d.pb", k)), out)
		if err != nil {
			return err
		}
		v, err := got.Value(out.Name)
		if err != nil {
			return err
		}
		if err := Compare(v, want); err != nil {
			return fmt.Errorf("output %d %q: %w", k, out.Name, err)
		}
	}
	return nil
}

func readValue(path string, vi graph.ValueInfo) (tensor.Value, error) {
	b, err := safefile.Read(path, onnx.DefaultMaxModelBytes)
	if err != nil {
		return nil, err
	}
	v, _, err := onnx.DecodeValue(b, vi.TypeProto())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return v, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Compare returns nil if got matches want as the ONNX backend tests
// compare values, or an error describing the first difference.
func Compare(got, want tensor.Value) error {
	switch w := want.(type) {
	case *tensor.Tensor:
		g, ok := got.(*tensor.Tensor)
		if !ok || g == nil {
			return fmt.Errorf("got %s, want %s", describe(got), w.Describe())
		}
		return compareTensors(g, w)
	case *tensor.Sequence:
		g, ok := got.(*tensor.Sequence)
		if !ok || g == nil {
			return fmt.Errorf("got %s, want %s", describe(got), w.Describe())
		}
		if g.ElemType != w.ElemType || len(g.Items) != len(w.Items) {
			return fmt.Errorf("got %s, want %s", g.Describe(), w.Describe())
		}
		for i := range w.Items {
			if err := compareTensors(g.Items[i], w.Items[i]); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
		return nil
	case *tensor.Optional:
		g, ok := got.(*tensor.Optional)
		if !ok || g == nil {
			return fmt.Errorf("got %s, want %s", describe(got), w.Describe())
		}
		if (g.Value == nil) != (w.Value == nil) {
			return fmt.Errorf("got %s, want %s", g.Describe(), w.Describe())
		}
		if w.Value == nil {
			return nil
		}
		return Compare(g.Value, w.Value)
	case *tensor.Map:
		g, ok := got.(*tensor.Map)
		if !ok || g == nil {
			return fmt.Errorf("got %s, want %s", describe(got), w.Describe())
		}
		return compareMaps(g, w)
	case *tensor.MapSequence:
		g, ok := got.(*tensor.MapSequence)
		if !ok || g == nil {
			return fmt.Errorf("got %s, want %s", describe(got), w.Describe())
		}
		if g.KeyType != w.KeyType || g.ValueType != w.ValueType || len(g.Items) != len(w.Items) {
			return fmt.Errorf("got %s, want %s", g.Describe(), w.Describe())
		}
		for i := range w.Items {
			if err := compareMaps(g.Items[i], w.Items[i]); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
		return nil
	}
	return fmt.Errorf("cannot compare with %s", describe(want))
}

// compareMaps compares two maps as maps: the same keys, in any order (a
// MapProto lists its keys in the order they were made, onnxruntime sorts
// them), each with a value equal to the wanted one (floats within the
// tolerance).
func compareMaps(got, want *tensor.Map) error {
	if err := got.Check(); err != nil {
		return fmt.Errorf("got a map that %w", err)
	}
	if got.KeyType() != want.KeyType() || got.ValueType() != want.ValueType() || got.Len() != want.Len() {
		return fmt.Errorf("got %s, want %s", got.Describe(), want.Describe())
	}
	at := make(map[string]int, got.Len())
	for i := range got.Len() {
		at[got.KeyString(i)] = i
	}
	g, err := tensor.Unstack(got.Values)
	if err != nil {
		return err
	}
	w, err := tensor.Unstack(want.Values)
	if err != nil {
		return err
	}
	for i := range want.Len() {
		key := want.KeyString(i)
		j, ok := at[key]
		if !ok {
			return fmt.Errorf("got no key %s", key)
		}
		if err := compareTensors(g[j], w[i]); err != nil {
			return fmt.Errorf("key %s: %w", key, err)
		}
	}
	return nil
}

func describe(v tensor.Value) string {
	if v == nil {
		return "no value"
	}
	return v.Describe()
}

func compareTensors(got, want *tensor.Tensor) error {
	if got == nil {
		return fmt.Errorf("got no tensor, want %s", want.Describe())
	}
	if got.DataType() != want.DataType() || !tensor.SameShape(got.Shape(), want.Shape()) {
		return fmt.Errorf("got %s, want %s", got.Describe(), want.Describe())
	}
	if !want.DataType().IsFloat() {
		if got.Equal(want) {
			return nil
		}
		return firstDifference(got, want)
	}
	g, err := got.Float64s()
	if err != nil {
		return err
	}
	w, err := want.Float64s()
	if err != nil {
		return err
	}
	for i := range w {
		if !closeEnough(g[i], w[i]) {
			return fmt.Errorf("element %v is %v, want %v (tolerance %g + %g*|want|)", index(i, want.Shape()), g[i], w[i], AbsTol, RelTol)
		}
	}
	return nil
}

func closeEnough(a, b float64) bool {
	switch {
	case a == b:
		return true
	case math.IsNaN(a) || math.IsNaN(b):
		return math.IsNaN(a) && math.IsNaN(b)
	case math.IsInf(a, 0) || math.IsInf(b, 0):
		return false // and not equal: the tolerance of an infinity is infinite
	}
	return math.Abs(a-b) <= AbsTol+RelTol*math.Abs(b)
}

// firstDifference describes where two tensors of one non-float type and
// shape differ.
func firstDifference(got, want *tensor.Tensor) error {
	if want.DataType() == tensor.String {
		g, w := got.Strings(), want.Strings()
		for i := range w {
			if g[i] != w[i] {
				return fmt.Errorf("element %v is %q, want %q", index(i, want.Shape()), g[i], w[i])
			}
		}
	}
	size := want.DataType().Size()
	g, w := got.Bytes(), want.Bytes()
	for i := 0; i+size <= len(w); i += size {
		if string(g[i:i+size]) != string(w[i:i+size]) {
			gv, wv := elementString(got, i/size), elementString(want, i/size)
			return fmt.Errorf("element %v is %s, want %s", index(i/size, want.Shape()), gv, wv)
		}
	}
	return errors.New("values differ")
}

// elementString renders element i of t for an error message.
func elementString(t *tensor.Tensor, i int) string {
	if v, err := t.Float64s(); err == nil {
		return fmt.Sprint(v[i])
	}
	size := t.DataType().Size()
	return fmt.Sprintf("%x", t.Bytes()[i*size:(i+1)*size])
}

// index turns a flat position into a multi-index of shape.
func index(flat int, shape []int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] > 0 {
			idx[d] = flat % shape[d]
			flat /= shape[d]
		}
	}
	return idx
}
