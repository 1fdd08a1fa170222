package graph_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Under the profile every node's outputs are compared with the model's
// declarations before the next node runs; under ONNX a declaration is a
// hint only.
func TestRunChecksDeclaredOutputsUnderProfile(t *testing.T) {
	x := tensor.MustFromSlice([]float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}, 2, 3, 4)
	axes := tensor.MustFromSlice([]int64{0})
	cases := []struct {
		name     string
		nodes    []*pb.NodeProto
		values   []*pb.ValueInfoProto
		output   *pb.ValueInfoProto
		wantRule string
		wantMsg  string
	}{
		{"Unsqueeze output shape", []*pb.NodeProto{node("u", "Unsqueeze", []string{"x", "axes"}, []string{"y"})}, nil,
			info("y", tensor.Float, 2, 3, 4, 1), "Y [C1]", `output "y" is tensor(float)[1,2,3,4] where the model declares tensor(float)[2,3,4,1]`},
		{"value_info of an intermediate", []*pb.NodeProto{
			node("u", "Unsqueeze", []string{"x", "axes"}, []string{"mid"}),
			node("r", "Reshape", []string{"mid", "shape"}, []string{"y"}, intAttr("allowzero", 0)),
		}, []*pb.ValueInfoProto{info("mid", tensor.Float, 2, 3, 4, 1)}, info("y", tensor.Float, 24), "Y [C1]", `output "mid"`},
		{"output type", []*pb.NodeProto{node("u", "Unsqueeze", []string{"x", "axes"}, []string{"y"})}, nil,
			info("y", tensor.Double, 1, 2, 3, 4), "GR3", "where the model declares tensor(double)[1,2,3,4]"},
	}
	for _, c := range cases {
		spec := modelSpec{opset: 25, nodes: c.nodes,
			inits:   []*pb.TensorProto{int64s("shape", []int64{1}, 24)},
			inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 2, 3, 4), info("axes", tensor.Int64, 1)},
			outputs: []*pb.ValueInfoProto{c.output}}
		p := spec.proto()
		p.Graph.ValueInfo = c.values
		m, err := graph.FromProto(p, "")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		in := map[string]tensor.Value{"x": x, "axes": axes}
		if _, err := m.Run(context.Background(), in, nil); err != nil {
			t.Errorf("%s: under ONNX: %v", c.name, err)
		}
		_, err = m.Run(context.Background(), in, &graph.RunOptions{Profile: ops.ProfileSONNX})
		var opErr *ops.Error
		switch {
		case err == nil:
			t.Errorf("%s: ran under the profile", c.name)
		case !errors.As(err, &opErr) || opErr.Rule != c.wantRule:
			t.Errorf("%s: got %v, want rule %s", c.name, err, c.wantRule)
		case !strings.Contains(err.Error(), c.wantMsg):
			t.Errorf("%s: got %v, want %s", c.name, err, c.wantMsg)
		}
	}
}

// Under the profile an initializer listed as an input is no default: the
// caller gives it.
func TestProfileRunNeedsInitializerInputs(t *testing.T) {
	spec := unsqueezeChain()
	spec.inputs = append(spec.inputs, info("axes0", tensor.Int64, 1))
	m := spec.load(t)
	in := map[string]tensor.Value{"x": tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)}
	if _, err := m.Run(context.Background(), in, nil); err != nil {
		t.Fatalf("under ONNX the initializer is a default: %v", err)
	}
	sonnx := &graph.RunOptions{Profile: ops.ProfileSONNX}
	if _, err := m.Run(context.Background(), in, sonnx); err == nil || !strings.Contains(err.Error(), `[GR4] input "axes0" is not given`) {
		t.Errorf("under the profile: %v", err)
	}
	in["axes0"] = tensor.MustFromSlice([]int64{0})
	if _, err := m.Run(context.Background(), in, sonnx); err != nil {
		t.Errorf("given: %v", err)
	}
}

// Under the profile a node that produces an empty tensor stops the run
// (DIMS, unless its kernel refuses the empty input first); under ONNX it is
// a tensor like any other.
func TestProfileRefusesZeroDims(t *testing.T) {
	spec := modelSpec{opset: 13,
		nodes:   []*pb.NodeProto{node("t", "Transpose", []string{"x"}, []string{"y"}, intsAttr("perm", 1, 0))},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 0, 3)},
		outputs: []*pb.ValueInfoProto{info("y", tensor.Float, 3, 0)}}
	m := spec.load(t)
	in := map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 0, 3)}
	if _, err := m.Run(context.Background(), in, nil); err != nil {
		t.Fatalf("under ONNX: %v", err)
	}
	_, err := m.Run(context.Background(), in, &graph.RunOptions{Profile: ops.ProfileSONNX})
	var opErr *ops.Error
	if !errors.As(err, &opErr) {
		t.Fatalf("under the profile: %v", err)
	}
	if opErr.Rule != "DIMS" {
		t.Logf("the kernel refused first: %v", err)
	}
}
