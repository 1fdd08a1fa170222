package bench

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/conformance"
	"github.com/onnxshape/onnxshape/tensor"
)

func standard(t *testing.T, name string) Standard {
	t.Helper()
	for _, s := range Standards() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no standard case %q", name)
	return Standard{}
}

func TestStandardsListEveryCaseOfTheIssue(t *testing.T) {
	want := []string{
		"transpose_nchw_nhwc", "transpose_nhwc_nchw", "transpose_2d",
		"concat_4_axis1", "concat_2_axis3", "split_4_axis1", "slice_step2",
		"pad_constant", "pad_reflect", "pad_edge",
		"resize_nearest_2x", "resize_linear_2x", "resize_cubic_2x", "resize_linear_antialias_half",
		"depthtospace_dcr", "depthtospace_crd", "spacetodepth", "tile_1122", "expand",
		"unsqueeze", "reshape", "flatten", "squeeze", "identity",
		"maxpool_3x3_s2_p1_indices", "maxunpool_2x2_s2",
		// the elementwise and reduction round: reductions and pooling
		"reducemean_last_axis", "softmax_last_axis", "averagepool_3x3_s1_p1", "globalaveragepool",
		"chain_small_40", "chain_small_10000", "chain_identity_1m", "chain_transpose_60", // the hostile-file audit
		"chain_pad_41",                      // Pad among the prepared operators
		"cast_float_float16", "gather_rows", // the elementwise and reduction round: conversion and indexing
		"add_broadcast", "where", // the elementwise and reduction round: elementwise
		"matmul_16x256x512_512", "gemm_1024", // the compute round: matrix products
		"conv_3x3_64_64_p1", "conv_1x1_64_256", "conv_depthwise_3x3_128", // the compute round: convolution
		"layernorm_hidden", "batchnorm_inference", // the compute round: normalizations
		"lstm_h128_i64_s100_b8", "gru_h128_i64_s100_b8", // the recurrent and control-flow round: recurrent
	}
	var got []string
	for _, s := range Standards() {
		got = append(got, s.Name)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("cases\n got %v\nwant %v", got, want)
	}
}

// Every standard case must be a well-formed model: the first node's inputs
// are graph inputs or initializers, and every output is declared with a
// fixed shape.
func TestStandardsAreWellFormed(t *testing.T) {
	for _, s := range Standards() {
		c := s.build(1)
		m, err := c.model(s.Name)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if got := c.node.GetOpType(); got != s.Op {
			t.Errorf("%s: node is %s, case says %s", s.Name, got, s.Op)
		}
		known := map[string]bool{"": true}
		for _, in := range m.Graph.Input {
			known[in.GetName()] = true
		}
		for _, k := range m.Graph.Initializer {
			known[k.GetName()] = true
		}
		for _, in := range c.node.Input {
			if !known[in] {
				t.Errorf("%s: node input %q is neither a graph input nor an initializer", s.Name, in)
			}
		}
		if len(c.node.Output) != len(c.outputs) {
			t.Errorf("%s: node has %d outputs, model declares %d", s.Name, len(c.node.Output), len(c.outputs))
		}
	}
}

// The MaxUnpool indices must each address the 2x2 window of their pooled
// element, as MaxPool's would.
func TestUnpoolIndicesStayInTheirWindow(t *testing.T) {
	ix := unpoolIndices("i", []int{2, 3, 4, 5})
	v, _ := tensor.Data[int64](ix.t)
	i := 0
	for plane := range 6 {
		for y := range 4 {
			for x := range 5 {
				p := int(v[i])
				py, px := p/10%8, p%10
				if p/80 != plane || py/2 != y || px/2 != x {
					t.Fatalf("index %d of pooled (%d,%d,%d) is outside its window", p, plane, y, x)
				}
				i++
			}
		}
	}
}

func TestRandomDataIsDeterministic(t *testing.T) {
	a := randomFloats("x", []int{3, 5})
	b := randomFloats("x", []int{3, 5})
	c := randomFloats("y", []int{3, 5})
	if !a.t.Equal(b.t) {
		t.Error("the same name and shape gave different data")
	}
	if a.t.Equal(c.t) {
		t.Error("different names gave the same data")
	}
	v, _ := tensor.Data[float32](a.t)
	for _, f := range v {
		if f < -1 || f >= 1 {
			t.Errorf("value %v outside [-1, 1)", f)
		}
	}
}

// A case written by Write reads back with ReadCase: same inputs, declared
// outputs, and conformance.FindCases finds it.
func TestWriteReadCase(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"maxunpool_2x2_s2", "unsqueeze"} {
		if err := standard(t, name).Write(root, 1); err != nil {
			t.Fatal(err)
		}
	}
	dirs, err := conformance.FindCases(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 2 || filepath.Base(dirs[0]) != "maxunpool_2x2_s2" || filepath.Base(dirs[1]) != "unsqueeze" {
		t.Fatalf("FindCases = %v", dirs)
	}
	c, err := ReadCase(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "maxunpool_2x2_s2" || strings.Join(c.InputNames, ",") != "x,indices" || strings.Join(c.OutputNames, ",") != "y" {
		t.Errorf("case %s: inputs %v outputs %v", c.Name, c.InputNames, c.OutputNames)
	}
	want := standard(t, "maxunpool_2x2_s2").build(1)
	for i, in := range want.inputs {
		got, ok := c.Inputs[in.name].(*tensor.Tensor)
		if !ok || !got.Equal(in.t) {
			t.Errorf("input %d (%s) does not read back equal", i, in.name)
		}
	}
	dt, shape, ok := c.Output(0)
	if !ok || dt != tensor.Float || !tensor.SameShape(shape, []int{1, 64, 112, 112}) {
		t.Errorf("Output(0) = %v %v %v", dt, shape, ok)
	}
}

func TestRunOursMeasuresAndReportsOutputs(t *testing.T) {
	root := t.TempDir()
	if err := standard(t, "unsqueeze").Write(root, 1); err != nil {
		t.Fatal(err)
	}
	c, err := ReadCase(filepath.Join(root, "unsqueeze"))
	if err != nil {
		t.Fatal(err)
	}
	r := RunOurs(c, RunOptions{MeasureOptions: MeasureOptions{Runs: 3}, Threads: 1, Copy: true})
	if r.Err != nil || r.Skipped != "" {
		t.Fatalf("RunOurs: err %v, skipped %q", r.Err, r.Skipped)
	}
	if r.Stats.Runs < 3 || r.Copy.Runs < 3 || r.AllocCopy.Runs < 3 {
		t.Errorf("runs: ours %d, copy %d, alloc+copy %d; want at least 3", r.Stats.Runs, r.Copy.Runs, r.AllocCopy.Runs)
	}
	if r.OutBytes != 64*112*112*4 {
		t.Errorf("OutBytes = %d", r.OutBytes)
	}
	y, ok := r.Outputs["y"].(*tensor.Tensor)
	if !ok || !tensor.SameShape(y.Shape(), []int{1, 1, 64, 112, 112}) {
		t.Errorf("output y = %v", r.Outputs["y"])
	}
}

// With a pool, a warm run of a copy allocates none of its output's storage,
// and the last run's outputs stay valid.
func TestRunOursWithAPool(t *testing.T) {
	root := t.TempDir()
	if err := standard(t, "concat_4_axis1").Write(root, 1); err != nil {
		t.Fatal(err)
	}
	c, err := ReadCase(filepath.Join(root, "concat_4_axis1"))
	if err != nil {
		t.Fatal(err)
	}
	plain := RunOurs(c, RunOptions{MeasureOptions: MeasureOptions{Runs: 5}, Threads: 1})
	pooled := RunOurs(c, RunOptions{MeasureOptions: MeasureOptions{Runs: 5}, Threads: 1, Pool: true})
	if plain.Err != nil || pooled.Err != nil {
		t.Fatalf("errors: %v, %v", plain.Err, pooled.Err)
	}
	if plain.Stats.BytesPerRun < float64(plain.OutBytes) {
		t.Errorf("without a pool a run allocates %.0f bytes, less than its output (%d)", plain.Stats.BytesPerRun, plain.OutBytes)
	}
	if pooled.Stats.BytesPerRun > float64(plain.OutBytes)/10 {
		t.Errorf("with a pool a run allocates %.0f bytes for an output of %d", pooled.Stats.BytesPerRun, plain.OutBytes)
	}
	a, b := plain.Outputs["y"].(*tensor.Tensor), pooled.Outputs["y"].(*tensor.Tensor)
	if !a.Equal(b) {
		t.Error("the pooled run's output differs")
	}
}

func TestRunOursSkipsAMissingOperator(t *testing.T) {
	root := t.TempDir()
	c := unary("NoSuchOperator", []int{2, 3}, []int{2, 3}, nil)
	s := Standard{Name: "missing", Op: "NoSuchOperator", build: func(int) caseSpec { return c }}
	if err := s.Write(root, 1); err != nil {
		t.Fatal(err)
	}
	cs, err := ReadCase(filepath.Join(root, "missing"))
	if err != nil {
		t.Fatal(err)
	}
	r := RunOurs(cs, RunOptions{MeasureOptions: MeasureOptions{Runs: 1}})
	if r.Skipped == "" || r.Err != nil {
		t.Errorf("skipped %q, err %v; want skipped", r.Skipped, r.Err)
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, []Result{r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "skipped missing: ") {
		t.Errorf("text output does not report the skipped case:\n%s", buf.String())
	}
}

func TestMeasure(t *testing.T) {
	calls := 0
	s, err := Measure(func() error { calls++; return nil }, MeasureOptions{Runs: 5})
	if err != nil {
		t.Fatal(err)
	}
	if s.Runs != 5 || calls != 6 {
		t.Errorf("Runs %d, calls %d; want 5 timed runs after one warm-up", s.Runs, calls)
	}
	if s.Min > s.Median {
		t.Errorf("min %v above median %v", s.Min, s.Median)
	}
	s, _ = Measure(func() error { return nil }, MeasureOptions{Runs: 1, MinTime: time.Hour, MaxRuns: 10})
	if s.Runs != 10 {
		t.Errorf("MaxRuns 10 gave %d runs", s.Runs)
	}
	boom := errors.New("boom")
	if _, err := Measure(func() error { return boom }, MeasureOptions{Runs: 5}); err != boom {
		t.Errorf("error %v, want boom", err)
	}
}

func TestWriteTSV(t *testing.T) {
	rs := []Result{
		{Name: "a", Stats: Stats{Median: 1500 * time.Microsecond, Min: time.Millisecond}, OutBytes: 42},
		{Name: "b", Skipped: "unsupported operator: X"},
		{Name: "c", Stats: Stats{Median: 250 * time.Nanosecond, Min: 200 * time.Nanosecond}, OutBytes: 7},
	}
	var buf bytes.Buffer
	if err := WriteTSV(&buf, rs); err != nil {
		t.Fatal(err)
	}
	want := "case\tmedian_ms\tmin_ms\tbytes\n" +
		"a\t1.500\t1.000\t42\n" +
		"c\t0.000250\t0.000200\t7\n"
	if buf.String() != want {
		t.Errorf("got\n%q\nwant\n%q", buf.String(), want)
	}
}

// The generated model names its operator in the node and the opset in the
// import, which is what a reader of model.onnx checks first.
func TestModelHeader(t *testing.T) {
	m, err := standard(t, "transpose_2d").build(1).model("transpose_2d")
	if err != nil {
		t.Fatal(err)
	}
	if m.GetOpsetImport()[0].GetVersion() != Opset || m.GetGraph().GetNode()[0].GetName() != "transpose_2d" {
		t.Errorf("model header: opset %v, node %q", m.GetOpsetImport(), m.GetGraph().GetNode()[0].GetName())
	}
}

// TestMeasureRoundsTakesTurns runs two functions in three rounds and checks
// that they ran in turns, each in a block per round, that each got its
// share of runs, and that an error stops the measure.
func TestMeasureRoundsTakesTurns(t *testing.T) {
	var order []string
	a := func() error { order = append(order, "a"); return nil }
	b := func() error { order = append(order, "b"); return nil }
	st, err := MeasureRounds([]func() error{a, b}, 3, time.Millisecond, MeasureOptions{Runs: 6, MaxRuns: 6})
	if err != nil {
		t.Fatal(err)
	}
	// One warm-up each, then three rounds of two runs each.
	if got, want := strings.Join(order, ""), "ab"+"aabb"+"aabb"+"aabb"; got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	for k, s := range st {
		if s.Runs != 6 || s.Median <= 0 || s.Min > s.Median {
			t.Errorf("run %d: %+v", k, s)
		}
	}
	boom := errors.New("boom")
	calls := 0
	failing := func() error {
		if calls++; calls == 3 {
			return boom
		}
		return nil
	}
	if _, err := MeasureRounds([]func() error{a, failing}, 2, 0, MeasureOptions{Runs: 4}); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
}
