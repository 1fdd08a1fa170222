package infer_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
)

// TestEntryPointsAgree: File, Bytes, Model (of a loaded graph) and Proto
// infer the same values of one model file.
func TestEntryPointsAgree(t *testing.T) {
	path := filepath.Join("testdata", "interpolate.onnx")
	ctx := t.Context()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mp, err := onnx.DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := graph.LoadBytes(b, "testdata")
	if err != nil {
		t.Fatal(err)
	}
	want, err := infer.Proto(ctx, mp, "testdata", nil)
	if err != nil {
		t.Fatal(err)
	}
	results := map[string]func() (*infer.Result, error){
		"File":  func() (*infer.Result, error) { return infer.File(ctx, path, nil) },
		"Bytes": func() (*infer.Result, error) { return infer.Bytes(ctx, b, "testdata", nil) },
		"Model": func() (*infer.Result, error) { return infer.Model(ctx, loaded, nil) },
	}
	for name, run := range results {
		got, err := run()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(got.Values) != len(want.Values) || len(got.Values) == 0 {
			t.Errorf("%s: %d values, Proto %d", name, len(got.Values), len(want.Values))
			continue
		}
		for i, v := range got.Values {
			if w := want.Values[i]; v.Name != w.Name || v.String() != w.String() {
				t.Errorf("%s: value %d is %s %v, Proto's %s %v", name, i, v.Name, v.Value, w.Name, w.Value)
			}
		}
	}
	if _, err := infer.Bytes(ctx, []byte("not a model"), "", nil); err == nil {
		t.Error("Bytes of no model: no error")
	}
	if _, err := infer.File(ctx, filepath.Join("testdata", "absent.onnx"), nil); err == nil {
		t.Error("File of no file: no error")
	}
	if _, err := infer.Model(ctx, nil, nil); err == nil {
		t.Error("Model of a nil model: no error")
	}
}

// TestFoldBytes: Fold and Annotate of an encoded model give the encoding
// of what FoldProto and AnnotateProto give, and leave their input alone.
func TestFoldBytes(t *testing.T) {
	ctx := t.Context()
	b, err := os.ReadFile(filepath.Join("testdata", "interpolate.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	orig := string(b)
	opt := &infer.Options{InputShapes: map[string][]graph.Dim{
		"x": {graph.Const(1), graph.Const(3), graph.Const(32), graph.Const(32)}}}
	folded, r, st, err := infer.Fold(ctx, b, "testdata", opt)
	if err != nil {
		t.Fatal(err)
	}
	mp, err := onnx.DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	foldedProto, rProto, stProto, err := infer.FoldProto(ctx, mp, "testdata", opt)
	if err != nil {
		t.Fatal(err)
	}
	want, err := onnx.EncodeModel(foldedProto)
	if err != nil {
		t.Fatal(err)
	}
	if string(folded) != string(want) || st != stProto || len(r.Values) != len(rProto.Values) {
		t.Errorf("Fold gives %d bytes (%v), FoldProto %d (%v)", len(folded), st, len(want), stProto)
	}
	if st.NodesAfter >= st.NodesBefore || st.BytesAfter != len(folded) {
		t.Errorf("nothing folded, or the size is not the encoding's: %v, %d bytes", st, len(folded))
	}
	annotated, err := infer.Annotate(folded, r)
	if err != nil {
		t.Fatal(err)
	}
	infer.AnnotateProto(foldedProto, rProto)
	if want, _ := onnx.EncodeModel(foldedProto); string(annotated) != string(want) {
		t.Error("Annotate differs from AnnotateProto")
	}
	if string(b) != orig {
		t.Error("Fold modified its input")
	}
	if _, _, _, err := infer.Fold(ctx, []byte{0xff}, "", nil); err == nil {
		t.Error("Fold of no model: no error")
	}
	if _, err := infer.Annotate([]byte{0xff}, r); err == nil {
		t.Error("Annotate of no model: no error")
	}
}

// cancelAfter is a context whose Err reports context.Canceled from its
// n-th call on: a cancellation in the middle of an inference, at a place
// the test chooses.
type cancelAfter struct {
	context.Context
	calls, n int64
}

func (c *cancelAfter) Err() error {
	if atomic.AddInt64(&c.calls, 1) >= c.n {
		return context.Canceled
	}
	return nil
}

// TestCancelledContext: an inference or fold whose context is done, before
// it starts or on the way, fails with the context's error rather than
// returning a partial Result.
func TestCancelledContext(t *testing.T) {
	path := filepath.Join("testdata", "attention.onnx")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mp, err := onnx.DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	calls := map[string]func(ctx context.Context) error{
		"File":  func(ctx context.Context) error { _, err := infer.File(ctx, path, nil); return err },
		"Bytes": func(ctx context.Context) error { _, err := infer.Bytes(ctx, b, "testdata", nil); return err },
		"Proto": func(ctx context.Context) error { _, err := infer.Proto(ctx, mp, "testdata", nil); return err },
		"Fold": func(ctx context.Context) error {
			_, _, _, err := infer.Fold(ctx, b, "testdata", nil)
			return err
		},
	}
	for name, call := range calls {
		if err := call(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%s, cancelled before: %v, want context.Canceled", name, err)
		}
		// Cancelled after the first few nodes: the error names where.
		err := call(&cancelAfter{Context: t.Context(), n: 5})
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "inference stopped before node ") {
			t.Errorf("%s, cancelled on the way: %v, want context.Canceled naming a node", name, err)
		}
	}
	if _, err := infer.Proto(t.Context(), mp, "testdata", nil); err != nil {
		t.Errorf("not cancelled: %v", err)
	}
}
