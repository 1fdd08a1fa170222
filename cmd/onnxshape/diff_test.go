package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/conformance"
	"github.com/onnxshape/onnxshape/tensor"
)

// mlpFile writes x[2,3] -> MatMul w1 -> h -> Relu -> r -> MatMul w2 -> y,
// w2's element [1,1] set to w, and an input file for x; it returns both.
func mlpFile(t *testing.T, dir string, w float32) (model, input string) {
	t.Helper()
	b := builder.New(21)
	x := b.Input("x", tensor.Float, 2, 3)
	h := b.Op("MatMul", x, b.Constant("w1", tensor.MustFromSlice([]float32{1, -1, 0.5, 2, 0, -3}, 3, 2)), builder.Name("first"))
	r := b.Op("Relu", h, builder.Name("relu"))
	b.Output("y", b.Op("MatMul", r, b.Constant("w2", tensor.MustFromSlice([]float32{1, 2, 3, w}, 2, 2)), builder.Name("second")))
	data, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	model = filepath.Join(dir, "model.onnx")
	input = filepath.Join(dir, "x.npy")
	var npy bytes.Buffer
	if err := tensor.WriteNPY(&npy, tensor.MustFromSlice([]float32{1, 2, 3, -4, 5, 0.25}, 2, 3)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(model, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(input, npy.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return model, input
}

// A dump of every value, written by run, finds the node whose weights
// changed since: the second MatMul, not the first or the Relu.
func TestDiffFindsThePerturbedNode(t *testing.T) {
	dir := t.TempDir()
	model, x := mlpFile(t, dir, 4)
	dump := filepath.Join(dir, "dump")
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{model, "--input", x, "--output", "all", "--out", dump}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	for _, name := range []string{"x", "first", "relu", "y"} {
		if _, err := os.Stat(filepath.Join(dump, name+".npy")); err != nil {
			t.Errorf("run --output all wrote no %s: %v", name, err)
		}
	}
	stdout.Reset()
	if code := diffMain([]string{model, "--input", x, "--against", dump}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "4 values compared\nall agree") {
		t.Fatalf("same model: exit %d, %s%s", code, stdout.String(), stderr.String())
	}

	perturbed, _ := mlpFile(t, t.TempDir(), 4.5)
	stdout.Reset()
	if code := diffMain([]string{perturbed, "--input", x, "--against", dump, "--json"}, &stdout, &stderr); code != 1 {
		t.Fatalf("perturbed: exit %d, %s%s", code, stdout.String(), stderr.String())
	}
	var rep diffReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	d := rep.First
	// relu = [[2, 0], [0, 13.25]] (x @ w1 clipped); y[1][1] = 13.25*w.
	if rep.Compared != 4 || d == nil || d.Node != "second" || d.Op != "MatMul" || d.Value != "y" ||
		len(d.At) != 2 || d.At[0] != 1 || d.At[1] != 1 || d.MaxAbs != 6.625 || d.Count != 1 ||
		len(d.Inputs) != 2 || d.Inputs[0].Name != "relu" || d.Inputs[0].Max == nil || *d.Inputs[0].Max != 13.25 ||
		d.Inputs[1].Name != "w2" || d.Inputs[1].Min == nil || *d.Inputs[1].Min != 1 {
		t.Fatalf("report: %s", stdout.String())
	}
	stdout.Reset()
	diffMain([]string{perturbed, "--input", x, "--against", dump}, &stdout, &stderr)
	if !strings.Contains(stdout.String(), `first difference: value "y" of node "second" (MatMul)`) {
		t.Errorf("text report:\n%s", stdout.String())
	}
	// 6.625 of 53 is within a relative tolerance of 0.2.
	if code := diffMain([]string{perturbed, "--input", x, "--against", dump, "--rtol", "0.2"}, &stdout, &stderr); code != 0 {
		t.Errorf("rtol 0.2: exit %d", code)
	}
}

func TestDiffUsage(t *testing.T) {
	model, x := mlpFile(t, t.TempDir(), 4)
	for _, args := range [][]string{
		{},
		{model, "--engine", "fast"},
		{model, "--threads", "1,0"},
		{model, "--engine", "fast,reference", "--threads", "1,2"},
		{model, "--atol", "-1"},
	} {
		var stdout, stderr bytes.Buffer
		if code := diffMain(args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, %s", args, code, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := diffMain([]string{model, "--input", x, "--threads", "1,2"}, &stdout, &stderr); code != 0 {
		t.Errorf("threads 1,2: exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	if code := diffMain([]string{model, "--input", x, "--against", t.TempDir()}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "no value of the model there") {
		t.Errorf("empty dump: exit %d: %s", code, stderr.String())
	}
}

// On node tests, the two engines agree within the default tolerance (a
// sample of the cases the manifest passes, every 16th, to keep it short;
// all of them with ONNXSHAPE_DIFF_ALL=1).
func TestDiffEnginesOnNodeTests(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node tests")
	}
	root := nodeTestsDir(t)
	manifest, err := conformance.ReadManifest(filepath.Join("..", "..", "conformance", "manifest.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.FindCases(root)
	if err != nil {
		t.Fatal(err)
	}
	every, compared := 16, 0
	if os.Getenv("ONNXSHAPE_DIFF_ALL") != "" {
		every = 1
	}
	for i, dir := range cases {
		name := filepath.Base(dir)
		if i%every != 0 || !manifest[name].Pass {
			continue
		}
		var stdout, stderr bytes.Buffer
		if code := diffMain([]string{dir}, &stdout, &stderr); code != 0 {
			t.Errorf("%s: exit %d: %s%s", name, code, stdout.String(), stderr.String())
		}
		compared++
	}
	t.Logf("%d node tests: the engines agree", compared)
	if compared == 0 {
		t.Error("no node test compared")
	}
}
