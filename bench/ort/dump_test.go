//go:build ort

package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/internal/safefile"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestDumpValues writes every node output of a model as onnxruntime
// computes it, NAME.npy in a folder, for `onnxshape diff MODEL --against
// DIR` to find the first node where the two runtimes part:
//
//	ONNXSHAPE_ORT_DUMP=DIR ONNXSHAPE_ORT_DUMP_MODEL=model.onnx \
//	ONNXSHAPE_ORT_DUMP_INPUTS=x=x.npy,y=y.npy go test -tags ort -run TestDumpValues .
//
// ONNXSHAPE_ORT_DUMP_NODES=K dumps only the outputs of the first K nodes
// (and the graph's outputs), for a model whose values would not fit in
// memory all at once. It is a tool, not a check: without ONNXSHAPE_ORT_DUMP it is skipped.
// infer gives the values' types and shapes; values the binding
// cannot hand back (rank 0, sequences, optional values) are left out, and
// diff compares only the values the folder holds.
func TestDumpValues(t *testing.T) {
	dir := os.Getenv("ONNXSHAPE_ORT_DUMP")
	if dir == "" {
		t.Skip("set ONNXSHAPE_ORT_DUMP=DIR, ONNXSHAPE_ORT_DUMP_MODEL and ONNXSHAPE_ORT_DUMP_INPUTS to dump onnxruntime's values")
	}
	m, err := onnx.ReadModel(os.Getenv("ONNXSHAPE_ORT_DUMP_MODEL"))
	if err != nil {
		t.Fatal(err)
	}
	c := &diffCase{name: "dump"}
	for _, kv := range strings.Split(os.Getenv("ONNXSHAPE_ORT_DUMP_INPUTS"), ",") {
		name, file, ok := strings.Cut(kv, "=")
		if !ok {
			t.Fatalf("ONNXSHAPE_ORT_DUMP_INPUTS: %q is not NAME=FILE.npy", kv)
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		x, err := tensor.ReadNPY(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		c.inputs = append(c.inputs, diffInput{name, x})
	}
	g := m.GetGraph()
	declared := map[string]bool{}
	for _, o := range g.GetOutput() {
		declared[o.GetName()] = true
	}
	var names []string
	for _, o := range g.GetOutput() {
		names = append(names, o.GetName())
	}
	nodes := g.GetNode()
	if k, err := strconv.Atoi(os.Getenv("ONNXSHAPE_ORT_DUMP_NODES")); err == nil && k >= 0 && k < len(nodes) {
		nodes = nodes[:k]
	}
	for _, n := range nodes {
		for _, o := range n.GetOutput() {
			if o == "" || declared[o] {
				continue
			}
			declared[o] = true
			names = append(names, o)
			g.Output = append(g.Output, &pb.ValueInfoProto{Name: &o})
		}
	}
	model, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	// infer gives the shapes: the binding cannot return rank-0 values and
	// cannot allocate float16 ones by itself.
	shapes, err := infer.Bytes(context.Background(), model, "", nil)
	if err != nil {
		t.Fatalf("infer: %v", err)
	}
	var kept []string
	var like []*tensor.Tensor
	for _, n := range names {
		v, err := shapes.Value(n)
		if err != nil {
			continue
		}
		if dims, ok := v.Static(); ok && len(dims) > 0 && v.Kind == graph.KindTensor {
			kept = append(kept, n)
			like = append(like, tensor.MustNew(v.Type, dims...))
		}
	}
	names = kept
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	vals, err := runORTModel(model, c, names, like)
	if err != nil {
		t.Fatalf("onnxruntime: %v", err)
	}
	files := safefile.ValueFiles(names)
	for i, v := range vals {
		f, err := os.Create(filepath.Join(dir, files[i]+".npy"))
		if err != nil {
			t.Fatal(err)
		}
		if err := tensor.WriteNPY(f, v); err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		f.Close()
	}
	t.Logf("%d values in %s", len(vals), dir)
}
