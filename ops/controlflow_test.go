package ops

import (
	"context"
	"errors"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The control-flow operators run any Subgraph, one written in Go as well:
// Call runs them outside a model.
func TestControlFlowWithGoBodies(t *testing.T) {
	ctx := context.Background()
	branch := func(v float32) *Subgraph {
		return &Subgraph{Outputs: 1, Run: func(*Options, []tensor.Value) ([]tensor.Value, error) {
			return []tensor.Value{tensor.Scalar(v)}, nil
		}}
	}
	ifNode := Node{OpType: "If", Attrs: map[string]Attribute{"then_branch": {Type: AttrGraph, Graph: branch(1)}, "else_branch": {Type: AttrGraph, Graph: branch(2)}}}
	for c, want := range map[bool]float32{true: 1, false: 2} {
		out, err := Call(ctx, nil, ifNode, tensor.Scalar(c))
		if err != nil || out[0].(*tensor.Tensor).Bytes()[0] != tensor.Scalar(want).Bytes()[0] {
			t.Errorf("If(%v) = %v, %v", c, out, err)
		}
	}
	if _, err := Call(ctx, nil, ifNode, tensor.Scalar(int64(1))); err == nil {
		t.Error("If on an int64 condition ran")
	}

	// Loop: v += i for i < M; i scanned out.
	body := &Subgraph{Inputs: 3, Outputs: 3, Run: func(_ *Options, in []tensor.Value) ([]tensor.Value, error) {
		i, _ := in[0].(*tensor.Tensor).Int64s()
		v, _ := in[2].(*tensor.Tensor).Int64s()
		return []tensor.Value{in[1], tensor.Scalar(v[0] + i[0]), tensor.Scalar(i[0])}, nil
	}}
	loop := Node{OpType: "Loop", NumOutputs: 2, Attrs: map[string]Attribute{"body": {Type: AttrGraph, Graph: body}}}
	out, err := Call(ctx, nil, loop, tensor.Scalar(int64(5)), nil, tensor.Scalar(int64(0)))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := out[0].(*tensor.Tensor).Int64s(); v[0] != 10 {
		t.Errorf("Loop sum = %v", v)
	}
	if s, _ := out[1].(*tensor.Tensor).Int64s(); len(s) != 5 || s[4] != 4 {
		t.Errorf("Loop scan = %v", s)
	}

	// A Loop without M or cond runs until its context is done.
	cctx, cancel := context.WithCancel(ctx)
	n := 0
	forever := &Subgraph{Inputs: 3, Outputs: 2, Run: func(_ *Options, in []tensor.Value) ([]tensor.Value, error) {
		if n++; n == 100 {
			cancel()
		}
		return []tensor.Value{in[1], in[2]}, nil
	}}
	_, err = Call(cctx, nil, Node{OpType: "Loop", Attrs: map[string]Attribute{"body": {Type: AttrGraph, Graph: forever}}}, nil, nil, tensor.Scalar(int64(0)))
	if !errors.Is(err, context.Canceled) || n != 100 {
		t.Errorf("endless Loop: n = %d, err = %v", n, err)
	}

	// A missing body is an error, not a panic.
	if _, err := Call(ctx, nil, Node{OpType: "Loop"}, tensor.Scalar(int64(1)), nil); err == nil {
		t.Error("Loop without a body ran")
	}
}
