package graph_test

import (
	"context"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// A model that uses the features a one-node test does not: a Constant
// node, optional inputs left empty in the middle of the input list, an
// unused output, a node with several outputs, and nodes out of order.
//
//	x[2,4] -> Split(axis 1, [1, 3]) -> left[2,1], right[2,3]
//	right -> Slice(starts, ends, "" axes, steps) -> every other column
//	Constant(value [2,1] of 9) -> nine
//	Concat(left, nine, sliced, axis 1) -> y[2,4]
//	y -> Pad(pads, "" constant_value, axes) -> padded[2,6]
//	y -> Identity -> same
func TestConstantOptionalInputsAndSeveralOutputs(t *testing.T) {
	s := modelSpec{
		opset: 21,
		nodes: []*pb.NodeProto{
			node("join", "Concat", []string{"left", "nine", "sliced"}, []string{"y"}, intAttr("axis", 1)),
			node("pad", "Pad", []string{"y", "pads", "", "pad_axes"}, []string{"padded"}),
			node("nine", "Constant", nil, []string{"nine"}, tensorAttr("value", floats("", []int64{2, 1}, 9, 9))),
			node("slice", "Slice", []string{"right", "starts", "ends", "", "steps"}, []string{"sliced"}),
			node("split", "Split", []string{"x", "split"}, []string{"left", "right"}, intAttr("axis", 1)),
			node("copy", "Identity", []string{"y"}, []string{"same"}),
		},
		inits: []*pb.TensorProto{
			int64s("split", []int64{2}, 1, 3),
			int64s("starts", []int64{2}, 0, 0),
			int64s("ends", []int64{2}, 2, 3),
			int64s("steps", []int64{2}, 1, 2),
			int64s("pads", []int64{2}, 1, 1),
			int64s("pad_axes", []int64{1}, 1),
		},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 2, 4)},
		outputs: []*pb.ValueInfoProto{info("padded", tensor.Float, 2, 6), info("same", tensor.Float, 2, 4), info("right", tensor.Float, 2, 3)},
	}
	m := s.load(t)
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8}, 2, 4)
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTensor(t, out.Map()["same"], tensor.MustFromSlice([]float32{1, 9, 2, 4, 5, 9, 6, 8}, 2, 4))
	wantTensor(t, out.Map()["padded"], tensor.MustFromSlice([]float32{0, 1, 9, 2, 4, 0, 0, 5, 9, 6, 8, 0}, 2, 6))
	wantTensor(t, out.Map()["right"], tensor.MustFromSlice([]float32{2, 3, 4, 6, 7, 8}, 2, 3))
	wantTensor(t, x, tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8}, 2, 4)) // unchanged
}

// Split with an output left unnamed: the node still declares two outputs
// (NumOutputs), the kernel makes both and the runner drops the unused one.
func TestUnusedOutput(t *testing.T) {
	s := modelSpec{
		opset:   18,
		nodes:   []*pb.NodeProto{node("split", "Split", []string{"x"}, []string{"", "second"}, intAttr("num_outputs", 2))},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Int64, 4)},
		outputs: []*pb.ValueInfoProto{info("second", tensor.Int64, 2)},
	}
	m := s.load(t)
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": tensor.MustFromSlice([]int64{1, 2, 3, 4})}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTensor(t, out.Map()["second"], tensor.MustFromSlice([]int64{3, 4}))
}

// An operator whose first version is above the model's opset is refused at
// load, naming the node.
func TestOpsetTooOld(t *testing.T) {
	s := modelSpec{
		opset:   7,
		nodes:   []*pb.NodeProto{node("ccp", "CenterCropPad", []string{"x", "shape"}, []string{"y"})},
		inits:   []*pb.TensorProto{int64s("shape", []int64{1}, 2)},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 4)},
		outputs: []*pb.ValueInfoProto{info("y", tensor.Float, 2)},
	}
	p := s.proto()
	p.OpsetImport[0].Version = proto.Int64(7)
	_, err := fromProto(p)
	want := `node "ccp" (CenterCropPad): unsupported operator: CenterCropPad has no version at or below opset 7 (its first is 18) (model opset 7)`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}
