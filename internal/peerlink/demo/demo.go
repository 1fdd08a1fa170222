// Package demo is the program a new user writes with only the README in
// hand, kept runnable as a test: it links onnxshape next to gonnx (next to
// onnx-go in package onnxgo: gonnx and onnx-go both register onnx.* and
// cannot share a binary, whatever onnxshape does), opens a model onnxshape cannot run and prints what is missing,
// calls operators as Go functions, turns a JPEG into a normalised tensor,
// and runs a stateful model in a loop.
package demo

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"

	_ "github.com/advancedclimatesystems/gonnx" // registers ONNX's protobuf names (onnx.*)

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// Run does the five things and writes what it sees to w.
func Run(w io.Writer) error {
	ctx := context.Background()

	// 1. A model onnxshape cannot run is still opened: its inputs and
	// outputs listed, every operator it lacks counted.
	m, err := graph.LoadBytesWith(unsupportedModel(), "", graph.LoadOptions{AllowUnsupported: true})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "inputs:", m.Inputs()[0].Name, m.Inputs()[0].Type, "outputs:", m.Outputs()[0].Name)
	for _, u := range m.Unsupported() {
		fmt.Fprintln(w, "missing:", u)
	}
	_, err = m.Run(ctx, map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 1, 4)}, nil)
	fmt.Fprintln(w, "run:", err)

	// 2. Any operator as a Go function.
	x := tensor.MustFromSlice([]float32{-1, 0, 0.5, 2}, 4)
	y, err := ops.Erf(x)
	if err != nil {
		return err
	}
	z, err := ops.Elu(x, ops.EluOptions{Alpha: ops.Ptr[float32](0.5)})
	if err != nil {
		return err
	}
	erf, _ := tensor.Data[float32](y)
	elu, _ := tensor.Data[float32](z)
	fmt.Fprintln(w, "erf:", erf, "elu:", elu)

	// 3. A JPEG to a normalised NCHW tensor (ImageNet mean and std).
	var jpg bytes.Buffer
	src := image.NewRGBA(image.Rect(0, 0, 8, 6))
	for i := range src.Pix {
		src.Pix[i] = uint8(i * 7)
	}
	src.Set(0, 0, color.RGBA{255, 0, 0, 255})
	if err := jpeg.Encode(&jpg, src, nil); err != nil {
		return err
	}
	img, err := jpeg.Decode(&jpg)
	if err != nil {
		return err
	}
	pixels, err := tensor.FromImage(img, tensor.ImageOptions{
		Mean: [3]float32{0.485, 0.456, 0.406}, Std: [3]float32{0.229, 0.224, 0.225}})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "image:", pixels.Describe()) // [1,3,6,8]

	// 4. A stateful model in a loop: state' = state + x, fed back.
	b := builder.New(21)
	in := b.Input("x", tensor.Float, 1, 2)
	state := b.Input("state", tensor.Float, 1, 2)
	sum := b.Op("Add", in, state)
	b.Output("y", b.Op("Identity", sum))
	b.Output("stateN", sum)
	vad, err := b.Build()
	if err != nil {
		return err
	}
	s, err := graph.NewStateful(vad, map[string]string{"stateN": "state"}, nil)
	if err != nil {
		return err
	}
	for step := range 3 {
		res, err := s.Run(ctx, map[string]tensor.Value{"x": tensor.MustFromSlice([]float32{1, 2}, 1, 2)})
		if err != nil {
			return err
		}
		out, err := res.Tensor("y")
		if err != nil {
			return err
		}
		v, _ := tensor.Data[float32](out)
		fmt.Fprintln(w, "step", step, res.Names(), v)
	}
	return nil
}

// unsupportedModel is a model with two operators onnxshape does not run:
// one of a vendor domain and one ONNX operator from the future.
func unsupportedModel() []byte {
	vi := func(name string) *pb.ValueInfoProto {
		return &pb.ValueInfoProto{Name: proto.String(name), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{
			ElemType: proto.Int32(int32(tensor.Float)),
			Shape: &pb.TensorShapeProto{Dim: []*pb.TensorShapeProto_Dimension{
				{Value: &pb.TensorShapeProto_Dimension_DimParam{DimParam: "N"}},
				{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: 4}}}},
		}}}}
	}
	mp := &pb.ModelProto{
		IrVersion:   proto.Int64(8),
		OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(21)}, {Domain: proto.String("com.example"), Version: proto.Int64(1)}},
		Graph: &pb.GraphProto{
			Name:  proto.String("g"),
			Input: []*pb.ValueInfoProto{vi("x")},
			Node: []*pb.NodeProto{
				{OpType: proto.String("FusedThing"), Domain: proto.String("com.example"), Input: []string{"x"}, Output: []string{"a"}},
				{OpType: proto.String("FusedThing"), Domain: proto.String("com.example"), Input: []string{"a"}, Output: []string{"b"}},
				{OpType: proto.String("Relu"), Input: []string{"b"}, Output: []string{"y"}},
			},
			Output: []*pb.ValueInfoProto{vi("y")},
		},
	}
	b, err := onnx.EncodeModel(mp)
	if err != nil {
		panic(err)
	}
	return b
}
