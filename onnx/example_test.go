package onnx_test

import (
	"errors"
	"fmt"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// A TensorProto as a model file holds it: int4 elements packed two a byte,
// low bits first, read into one element a byte and sign-extended.
func ExampleTensorFromProto() {
	dt := int32(tensor.Int4)
	tp := &pb.TensorProto{DataType: &dt, Dims: []int64{3}, RawData: []byte{0xF1, 0x08}}
	t, err := onnx.TensorFromProto(tp, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[tensor.I4](t)
	fmt.Println(t.DataType(), t.Shape(), v)
	// Output: int4 [3] [1 -1 -8]
}

func ExampleTensorToProto() {
	t := tensor.MustFromSlice([]int16{1, -2}, 2, 1)
	tp, _ := onnx.TensorToProto(t, "w")
	fmt.Println(tp.GetName(), tp.GetDims(), tensor.DataType(tp.GetDataType()), tp.GetRawData())
	// Output: w [2 1] int16 [1 0 254 255]
}

// A .pb file of the node tests goes through EncodeValue and DecodeValue;
// the graph's type says what the file holds.
func ExampleDecodeValue() {
	seq := &tensor.Sequence{ElemType: tensor.Float, Items: []*tensor.Tensor{
		tensor.MustFromSlice([]float32{1, 2}),
		tensor.MustFromSlice([]float32{3}),
	}}
	b, _ := onnx.EncodeValue(seq, "input_0")

	elem := int32(tensor.Float)
	typ := &pb.TypeProto{Value: &pb.TypeProto_SequenceType{SequenceType: &pb.TypeProto_Sequence{
		ElemType: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{ElemType: &elem}}},
	}}}
	v, name, err := onnx.DecodeValue(b, typ)
	fmt.Println(onnx.DescribeType(typ), name, v.Describe(), err, onnx.ValueMatchesType(v, typ))
	// Output: seq(tensor(float)) input_0 seq(tensor(float))[2 items] <nil> <nil>
}

// Caps on reading a model: a weight of 3 GiB, declared from an external
// file, is refused from its dims before the file is opened.
func ExampleDecodeModelWith() {
	float := int32(tensor.Float)
	w := &pb.TensorProto{Name: ptr("w"), DataType: &float, Dims: []int64{3 << 28},
		DataLocation: pb.TensorProto_EXTERNAL.Enum(),
		ExternalData: []*pb.StringStringEntryProto{{Key: ptr("location"), Value: ptr("weights.bin")}}}
	b, _ := onnx.EncodeModel(&pb.ModelProto{Graph: &pb.GraphProto{Initializer: []*pb.TensorProto{w}}})

	_, err := onnx.DecodeModelWith(b, &onnx.Limits{MaxTensorBytes: 1 << 20})
	fmt.Println(err, errors.Is(err, onnx.ErrTooLarge))
	// Output: onnx: too large: initializer "w" (float of [805306368]) takes 3221225472 bytes, above the limit of 1048576 bytes for a tensor true
}

func ptr[T any](v T) *T { return &v }
