// Package onnxgo links onnxshape with onnx-go in one binary: onnx-go's
// generated protobuf code registers ONNX's own names (onnx.*), and
// onnxshape's must not collide with them, or the program panics before
// main. (gonnx and onnx-go cannot share a binary: both register onnx.*.)
package onnxgo

import (
	"testing"

	onnxgo "github.com/owulveryck/onnx-go"
	"github.com/owulveryck/onnx-go/backend/simple"

	"github.com/onnxshape/onnxshape/examples"
	"github.com/onnxshape/onnxshape/graph"
)

// TestLinkedWithOnnxGo loads the bundled example with onnxshape and hands
// the same bytes to onnx-go.
func TestLinkedWithOnnxGo(t *testing.T) {
	model := examples.Model()
	if _, err := graph.LoadBytes(model, ""); err != nil {
		t.Fatalf("onnxshape: %v", err)
	}
	_ = onnxgo.NewModel(simple.NewSimpleGraph()).UnmarshalBinary(model)
}
