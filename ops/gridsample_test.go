package ops_test

import (
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestGridSampleCubicBorderClampsTheCoordinate pins the divergence from
// onnxruntime of docs/divergences.md: under padding_mode border, cubic
// clamps the sampling position into the image before taking its taps, as
// the ONNX reference evaluator does (onnxruntime and PyTorch clamp only
// the taps). Sampling [0, 1, 2, 3] at x = 3.75 (grid 1.5, align_corners)
// reads pixel 3 exactly; onnxruntime gives 3.03515625.
func TestGridSampleCubicBorderClampsTheCoordinate(t *testing.T) {
	s, err := ops.Lookup("", "GridSample", 20)
	if err != nil {
		t.Fatal(err)
	}
	n := &ops.Node{OpType: "GridSample", Version: 20, NumOutputs: 1, Attrs: map[string]ops.Attribute{
		"mode":          {Type: ops.AttrString, String: "cubic"},
		"padding_mode":  {Type: ops.AttrString, String: "border"},
		"align_corners": {Type: ops.AttrInt, Int: 1},
	}}
	x := tensor.MustFromSlice([]float32{0, 1, 2, 3}, 1, 1, 1, 4)
	grid := tensor.MustFromSlice([]float32{1.5, 0}, 1, 1, 1, 2)
	out, err := s.Run(nil, n, []tensor.Value{x, grid})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := out[0].(*tensor.Tensor).Float64s()
	if len(got) != 1 || got[0] != 3 {
		t.Errorf("GridSample cubic border at x = 3.75 gives %v, want [3]", got)
	}
}
