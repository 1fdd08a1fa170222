package graph_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// A nil or zero Model and values no kernel can read are errors, never a
// panic and never a nil result without an error.
func TestNilAndZeroValues(t *testing.T) {
	ctx := context.Background()
	for name, m := range map[string]*graph.Model{"nil": nil, "zero": {}} {
		out, err := m.Run(ctx, nil, nil)
		if err == nil || out.Len() != 0 {
			t.Errorf("%s model: got %v, %v; want an error", name, out, err)
		}
		if len(m.Inputs()) != 0 || len(m.Outputs()) != 0 || m.Proto() != nil {
			t.Errorf("%s model: inputs, outputs or proto", name)
		}
	}
	m := transposeChain(1, 1, 2, 2).load(t)
	// A nil context stands for context.Background.
	//lint:ignore SA1012 the test checks that Run accepts a nil context
	if _, err := m.Run(nil, map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 1, 2, 2)}, nil); err != nil {
		t.Errorf("nil context: %v", err)
	}
	for name, v := range map[string]tensor.Value{
		"nil":          nil,
		"nil tensor":   (*tensor.Tensor)(nil),
		"zero tensor":  &tensor.Tensor{},
		"nil sequence": (*tensor.Sequence)(nil),
		"nil item":     &tensor.Sequence{ElemType: tensor.Float, Items: []*tensor.Tensor{nil}},
		"nil optional": (*tensor.Optional)(nil),
	} {
		out, err := m.Run(ctx, map[string]tensor.Value{"x": v}, nil)
		if err == nil || out.Len() != 0 || !strings.Contains(err.Error(), `input "x"`) {
			t.Errorf("%s input: got %v, %v", name, out, err)
		}
	}
	// Without a declared type, the zero tensor reaches no kernel either.
	s := transposeChain(1, 1, 2, 2)
	s.inputs[0].Type = nil
	if _, err := s.load(t).Run(ctx, map[string]tensor.Value{"x": &tensor.Tensor{}}, nil); err == nil {
		t.Error("zero tensor to an untyped input: no error")
	}
}

func TestNewerOpsetRefusedUnlessAllowed(t *testing.T) {
	s := transposeChain(1, 1, 2, 2)
	s.opset = 999
	_, err := graph.FromProto(s.proto(), "")
	if !errors.Is(err, ops.ErrUnsupported) || !strings.Contains(err.Error(), "999") || !strings.Contains(err.Error(), fmt.Sprint(graph.NewestOpset)) {
		t.Fatalf("got %v, want opsets 999 and %d named, as unsupported", err, graph.NewestOpset)
	}
	m, err := graph.FromProtoWith(s.proto(), "", graph.LoadOptions{AllowNewerOpset: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(context.Background(), map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 1, 2, 2)}, nil); err != nil {
		t.Fatal(err)
	}
	s.opset = graph.NewestOpset
	if _, err := graph.LoadBytes(s.bytes(t), ""); err != nil {
		t.Fatalf("the newest opset: %v", err)
	}
}

// A cancelled run returns the context's error wrapped with the node, even
// when the cancellation comes during the last node.
func TestCancelledRunNamesTheNode(t *testing.T) {
	m := transposeChain(3, 1, 4, 4).load(t)
	in := map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 1, 4, 4)}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := m.Run(ctx, in, nil)
	var ne *graph.NodeError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &ne) || ne.Node != "t1" {
		t.Fatalf("cancelled before: got %v", err)
	}

	// Cancelled while the last node allocates: its kernel finishes, the
	// run must not report success.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var charges int
	o := &graph.RunOptions{}
	graph.SetChargeHook(o, func(int64) error {
		if charges++; charges == 3 {
			cancel()
		}
		return nil
	})
	out, err := m.Run(ctx, in, o)
	if !errors.Is(err, context.Canceled) || !errors.As(err, &ne) || ne.Node != "t3" || out.Len() != 0 {
		t.Fatalf("cancelled in the last node: got %v, %v", out, err)
	}

	// A kernel that fails because of the cancellation reports the context.
	ctx, cancel = context.WithCancel(context.Background())
	graph.SetChargeHook(o, func(int64) error { cancel(); return errors.New("stop") })
	_, err = m.Run(ctx, in, o)
	if !errors.Is(err, context.Canceled) || !errors.As(err, &ne) || ne.Node != "t1" {
		t.Fatalf("kernel stopped by the cancellation: got %v", err)
	}
	if !strings.Contains(err.Error(), "stop") || strings.Count(err.Error(), `node "t1"`) != 1 {
		t.Errorf("want the node named once and the kernel's own error: %v", err)
	}
}
