package profile_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/profile"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// A Concat with a negative axis, which the profile leaves undefined, and a
// Flatten that relies on its default axis, in a model built in Go.
func ExampleCheck() {
	b := builder.New(25)
	a := b.Input("a", tensor.Float, 2, 3)
	c := b.Op("Concat", a, a, builder.Int("axis", -1))
	b.Output("y", b.Op("Flatten", c))
	m, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	rep := profile.Check(m)
	for _, f := range rep.Findings {
		fmt.Printf("%s %s-%d %s\n", f.Where, f.Op, f.Version, f.Rule)
	}
	fmt.Println(rep.Inside())
	// Output:
	// node "Concat_1" Concat-13 axis [C1]
	// node "Flatten_2" Flatten-25 GR4
	// false
}

// The same check on a model held as its protobuf message.
func ExampleCheckProto() {
	tensorType := func(dims ...int64) *pb.TypeProto {
		shape := &pb.TensorShapeProto{}
		for _, d := range dims {
			shape.Dim = append(shape.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: d}})
		}
		return &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(1), Shape: shape}}}
	}
	m := &pb.ModelProto{
		IrVersion:   proto.Int64(13),
		OpsetImport: []*pb.OperatorSetIdProto{{Version: proto.Int64(25)}},
		Graph: &pb.GraphProto{
			Node: []*pb.NodeProto{
				{Name: proto.String("join"), OpType: proto.String("Concat"), Input: []string{"a", "b"}, Output: []string{"c"},
					Attribute: []*pb.AttributeProto{{Name: proto.String("axis"), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(-1)}}},
				{Name: proto.String("flat"), OpType: proto.String("Flatten"), Input: []string{"c"}, Output: []string{"y"}},
			},
			Input:  []*pb.ValueInfoProto{{Name: proto.String("a"), Type: tensorType(2, 3)}, {Name: proto.String("b"), Type: tensorType(2, 3)}},
			Output: []*pb.ValueInfoProto{{Name: proto.String("y"), Type: tensorType(2, 6)}},
		},
	}
	rep := profile.CheckProto(m, "")
	for _, f := range rep.Findings {
		fmt.Printf("%s %s-%d %s\n", f.Where, f.Op, f.Version, f.Rule)
	}
	fmt.Println(rep.Inside())
	// Output:
	// node "join" Concat-13 axis [C1]
	// node "flat" Flatten-25 GR4
	// false
}
