package graph

import (
	"errors"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// A node whose operator has no reference kernel cannot run under the
// reference engine: the error names it.
func TestReferenceKernelMissing(t *testing.T) {
	st := step{
		node:   &ops.Node{Name: "n", OpType: "Made", Domain: "com.example", Version: 3},
		schema: &ops.Schema{Domain: "com.example", Name: "Made", Since: 3, Run: func(*ops.Options, *ops.Node, []tensor.Value) ([]tensor.Value, error) { return nil, nil }},
		in:     []int{}, out: []int{},
	}
	st.reference = referenceKernel(st.schema)
	err := st.run(&ops.Options{}, EngineReference, nil, nil)
	if !errors.Is(err, ops.ErrUnsupported) || err.Error() != `node "n" (com.example.Made-3): unsupported operator: the reference engine has no kernel for com.example.Made-3` {
		t.Fatalf("got %v", err)
	}
	if err := st.run(&ops.Options{}, EngineFast, nil, nil); err != nil {
		t.Fatalf("the fast engine: %v", err)
	}
}
