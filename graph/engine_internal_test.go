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
	err := runStep(&st, EngineReference, 0)
	if !errors.Is(err, ops.ErrUnsupported) || err.Error() != `node "n" (com.example.Made-3): unsupported operator: the reference engine has no kernel for com.example.Made-3` {
		t.Fatalf("got %v", err)
	}
	if err := runStep(&st, EngineFast, 0); err != nil {
		t.Fatalf("the fast engine: %v", err)
	}
}

// runStep runs st alone under engine, in a run state of slots slots.
func runStep(st *step, engine Engine, slots int) error {
	r := &runState{engine: engine, vals: make([]tensor.Value, slots), headers: make([]*tensor.Tensor, slots),
		reuse: make([]*tensor.Tensor, len(st.out)), outs: make([]tensor.Value, len(st.out))}
	return st.run(r, make([]tensor.Value, len(st.in)))
}
