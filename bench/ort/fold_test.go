//go:build ort

package main

import (
	"context"
	"github.com/onnxshape/onnxshape/graph"
	"os"
	"path/filepath"
	"testing"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	ort "github.com/yalue/onnxruntime_go"
	"google.golang.org/protobuf/proto"
)

// The exporter-style models of package infer (infer/testdata), folded with
// their input shapes fixed, load in onnxruntime and give the outputs the
// original models give there.
func TestFoldedModelsRunInORT(t *testing.T) {
	shapes := map[string][]int{
		"flatten":       {2, 3, 5, 4},
		"flatten_slice": {2, 3, 5, 4},
		"interpolate":   {1, 2, 3, 4},
		"expand":        {2, 1, 5},
		"attention":     {2, 5, 64},
		"convnet":       {1, 3, 16, 12},
	}
	for name, shape := range shapes {
		m, err := onnx.ReadModel(filepath.Join("..", "..", "infer", "testdata", name+".onnx"))
		if err != nil {
			t.Fatal(err)
		}
		dims := make([]graph.Dim, len(shape))
		n := 1
		for i, d := range shape {
			dims[i] = graph.Const(int64(d))
			n *= d
		}
		opt := &infer.Options{InputShapes: map[string][]graph.Dim{"x": dims}}

		// The original, only declared: the comparison needs static output shapes.
		orig := proto.Clone(m).(*pb.ModelProto)
		orig.Graph.Input[0].Type.GetTensorType().Shape = shapeProto(shape)
		r, err := infer.Proto(context.Background(), orig, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		infer.AnnotateProto(orig, r)
		folded, r2, st, err := infer.FoldProto(context.Background(), m, "", opt)
		if err != nil {
			t.Fatal(err)
		}
		infer.AnnotateProto(folded, r2)
		t.Logf("%s: %v", name, st)

		px := make([]float32, n)
		for i := range px {
			px[i] = float32(i%11)/5 - 1
		}
		x := tensor.MustFromSlice(px, shape...)
		want := runORT(t, name+"_orig", orig, x)
		got := runORT(t, name+"_folded", folded, x)
		for i := range want {
			wt, ok := want[i].(*ort.Tensor[float32])
			if !ok {
				t.Fatalf("%s: output %d is not float", name, i)
			}
			mine := tensor.MustFromSlice(append([]float32{}, wt.GetData()...), shapeInts(wt.GetShape())...)
			if msg := compare(mine, got[i]); msg != "" {
				t.Errorf("%s: output %d: the folded model differs: %s", name, i, msg)
			}
		}
	}
}

func shapeProto(shape []int) *pb.TensorShapeProto {
	s := &pb.TensorShapeProto{}
	for _, d := range shape {
		s.Dim = append(s.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: int64(d)}})
	}
	return s
}

func shapeInts(s ort.Shape) []int {
	out := make([]int, len(s))
	for i, d := range s {
		out[i] = int(d)
	}
	return out
}

// runORT runs m on x in onnxruntime and returns its outputs.
func runORT(t *testing.T, name string, m *pb.ModelProto, x *tensor.Tensor) []ort.Value {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(filepath.Join(dir, "test_data_set_0"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	in, err := onnx.EncodeValue(x, "x")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "model.onnx"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "test_data_set_0", "input_0.pb"), in, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := bench.ReadCase(dir)
	if err != nil {
		t.Fatal(err)
	}
	run, outs, destroy, err := newORT(c, 1)
	t.Cleanup(destroy)
	if err == nil {
		err = run()
	}
	if err != nil {
		t.Fatalf("%s: onnxruntime: %v", name, err)
	}
	return outs
}
