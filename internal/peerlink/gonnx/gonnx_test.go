// Package gonnx links onnxshape with gonnx in one binary: gonnx's generated
// protobuf code registers ONNX's own names (onnx.*, onnx.proto), and
// onnxshape's must not collide with them, or the program panics before
// main.
package gonnx

import (
	"testing"

	gonnx "github.com/advancedclimatesystems/gonnx"

	"github.com/onnxshape/onnxshape/examples"
	"github.com/onnxshape/onnxshape/graph"
)

// TestLinkedWithGonnx loads the bundled example with onnxshape and hands
// the same bytes to gonnx: reaching the test at all means both registered
// their protobuf messages without a clash.
func TestLinkedWithGonnx(t *testing.T) {
	model := examples.Model()
	if _, err := graph.LoadBytes(model, ""); err != nil {
		t.Fatalf("onnxshape: %v", err)
	}
	// gonnx's verdict on the model is its own; only that it runs in the
	// same process matters here.
	_, _ = gonnx.NewModelFromBytes(model)
}
