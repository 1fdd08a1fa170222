package ops

import (
	"context"
	"errors"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestCall(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	perm := map[string]Attribute{"perm": {Type: AttrInts, Ints: []int64{1, 0}}}
	out, err := Call(context.Background(), nil, Node{OpType: "Transpose", Attrs: perm}, x)
	if err != nil || len(out) != 1 || !tensor.SameShape(out[0].(*tensor.Tensor).Shape(), []int{3, 2}) {
		t.Fatalf("Transpose: %v, %v", out, err)
	}
	// An older opset resolves to its version: Split-2 takes split as an
	// attribute, and two outputs are asked for.
	parts, err := Call(context.Background(), nil, Node{OpType: "Split", Version: 7, NumOutputs: 2,
		Attrs: map[string]Attribute{"axis": {Type: AttrInt, Int: 1}, "split": {Type: AttrInts, Ints: []int64{1, 2}}}}, x)
	if err != nil || len(parts) != 2 || !tensor.SameShape(parts[1].(*tensor.Tensor).Shape(), []int{2, 2}) {
		t.Fatalf("Split-2: %v, %v", parts, err)
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		opt   *Options
		node  Node
		in    []tensor.Value
		check func(error) bool
	}{
		{"cancelled", cancelled, nil, Node{OpType: "Transpose"}, []tensor.Value{x},
			func(err error) bool { return errors.Is(err, context.Canceled) }},
		{"size cap", context.Background(), &Options{MaxTensorBytes: 8}, Node{OpType: "Transpose", Attrs: perm}, []tensor.Value{x},
			func(err error) bool { return errors.Is(err, ErrLimit) }},
		{"profile", context.Background(), &Options{Profile: ProfileSONNX},
			Node{OpType: "Concat", Attrs: map[string]Attribute{"axis": {Type: AttrInt, Int: -1}}}, []tensor.Value{x, x},
			func(err error) bool { var e *Error; return errors.As(err, &e) }},
		{"unknown operator", context.Background(), nil, Node{OpType: "Frobnicate"}, nil,
			func(err error) bool { return errors.Is(err, ErrUnsupported) }},
		{"unknown attribute", context.Background(), nil,
			Node{OpType: "Transpose", Attrs: map[string]Attribute{"axes": {Type: AttrInts}}}, []tensor.Value{x},
			func(err error) bool { var e *Error; return errors.As(err, &e) && e.Rule == "attribute" }},
		{"too many inputs", context.Background(), nil, Node{OpType: "Transpose"}, []tensor.Value{x, x},
			func(err error) bool { var e *Error; return errors.As(err, &e) && e.Rule == "inputs" }},
		{"too many outputs", context.Background(), nil, Node{OpType: "Transpose", NumOutputs: 2}, []tensor.Value{x},
			func(err error) bool { var e *Error; return errors.As(err, &e) && e.Rule == "outputs" }},
		{"nil input", context.Background(), nil, Node{OpType: "Transpose"}, []tensor.Value{nil},
			func(err error) bool { return err != nil }},
	} {
		_, err := Call(tc.ctx, tc.opt, tc.node, tc.in...)
		if !tc.check(err) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
