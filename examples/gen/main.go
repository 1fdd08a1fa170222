// Command gen writes the bundled example: letterbox.onnx, a model that
// prepares an image for a vision network, and image.npy, its input.
//
//	go run ./examples/gen            # rewrites examples/letterbox.onnx and examples/image.npy
//	go run ./examples/gen -out DIR
//
// The model takes an NHWC uint8 image [1, 6, 8, 3] and
//
//  1. Transpose  perm [0, 3, 1, 2]          -> NCHW [1, 3, 6, 8]
//  2. Slice      rows 1..5, columns 1..7    -> the centre crop [1, 3, 4, 6]
//  3. Concat     an opaque alpha plane      -> RGBA [1, 4, 4, 6]
//  4. Pad        a row of zeros above and below (transparent bars)
//     -> "square" [1, 4, 6, 6]
//  5. Resize     nearest, scales [1, 1, 2, 2] -> "pixels" [1, 4, 12, 12]
//
// The constants are initializers. Every attribute and optional input is
// written out and Slice and Pad list every axis, so that the model is
// inside the SONNX profile (onnxshape check examples/letterbox.onnx).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// Image is the size of the example's input, NHWC.
const (
	Height   = 6
	Width    = 8
	Channels = 3
)

func main() {
	out := flag.String("out", "examples", "folder to write letterbox.onnx and image.npy into")
	flag.Parse()
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	model, err := onnx.EncodeModel(letterbox())
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "letterbox.onnx"), model, 0o644); err != nil {
		return err
	}
	var img bytes.Buffer
	if err := tensor.WriteNPY(&img, image()); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "image.npy"), img.Bytes(), 0o644)
}

// image is a small test card: red grows along the rows, green along the
// columns, blue is constant, so every pixel can be told apart.
func image() *tensor.Tensor {
	px := make([]uint8, 0, Height*Width*Channels)
	for h := range Height {
		for w := range Width {
			px = append(px, uint8(10*h), uint8(100+10*w), 200)
		}
	}
	return tensor.MustFromSlice(px, 1, Height, Width, Channels)
}

func letterbox() *pb.ModelProto {
	alpha := make([]byte, 4*6)
	for i := range alpha {
		alpha[i] = 255
	}
	return &pb.ModelProto{
		IrVersion:    proto.Int64(10),
		ProducerName: proto.String("onnxshape examples/gen"),
		OpsetImport:  []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(21)}},
		Graph: &pb.GraphProto{
			Name:      proto.String("letterbox"),
			DocString: proto.String("NHWC uint8 image -> centre crop -> RGBA -> letterboxed square -> 2x nearest upscale, NCHW"),
			Node: []*pb.NodeProto{
				node("to_nchw", "Transpose", []string{"image"}, []string{"nchw"}, ints("perm", 0, 3, 1, 2)),
				node("crop", "Slice", []string{"nchw", "crop_starts", "crop_ends", "axes", "crop_steps"}, []string{"crop"}),
				node("add_alpha", "Concat", []string{"crop", "alpha"}, []string{"rgba"}, intAttr("axis", 1)),
				node("letterbox", "Pad", []string{"rgba", "pads", "zero", "axes"}, []string{"square"}, str("mode", "constant")),
				node("upscale", "Resize", []string{"square", "", "scales"}, []string{"pixels"},
					str("mode", "nearest"), str("coordinate_transformation_mode", "half_pixel"),
					str("nearest_mode", "round_prefer_floor"), floatAttr("cubic_coeff_a", -0.75),
					intAttr("exclude_outside", 0), floatAttr("extrapolation_value", 0), intAttr("antialias", 0),
					ints("axes", 0, 1, 2, 3), str("keep_aspect_ratio_policy", "stretch")),
			},
			Initializer: []*pb.TensorProto{
				int64s("axes", 0, 1, 2, 3),
				int64s("crop_starts", 0, 0, 1, 1),
				int64s("crop_ends", 1, 3, 5, 7),
				int64s("crop_steps", 1, 1, 1, 1),
				{Name: proto.String("alpha"), Dims: []int64{1, 1, 4, 6}, DataType: proto.Int32(int32(tensor.Uint8)), RawData: alpha},
				int64s("pads", 0, 0, 1, 0, 0, 0, 1, 0),
				{Name: proto.String("zero"), DataType: proto.Int32(int32(tensor.Uint8)), RawData: []byte{0}},
				{Name: proto.String("scales"), Dims: []int64{4}, DataType: proto.Int32(int32(tensor.Float)), FloatData: []float32{1, 1, 2, 2}},
			},
			// The types of the intermediate values, so that the SONNX
			// profile checker (onnxshape check) can check every node
			// before the model runs.
			ValueInfo: []*pb.ValueInfoProto{
				info("nchw", tensor.Uint8, 1, Channels, Height, Width),
				info("crop", tensor.Uint8, 1, Channels, 4, 6),
				info("rgba", tensor.Uint8, 1, 4, 4, 6),
			},
			Input:  []*pb.ValueInfoProto{info("image", tensor.Uint8, 1, Height, Width, Channels)},
			Output: []*pb.ValueInfoProto{info("pixels", tensor.Uint8, 1, 4, 12, 12), info("square", tensor.Uint8, 1, 4, 6, 6)},
		},
	}
}

func node(name, op string, in, out []string, attrs ...*pb.AttributeProto) *pb.NodeProto {
	return &pb.NodeProto{Name: proto.String(name), OpType: proto.String(op), Input: in, Output: out, Attribute: attrs}
}

func ints(name string, v ...int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INTS.Enum(), Ints: v}
}

func intAttr(name string, v int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(v)}
}

func floatAttr(name string, v float32) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_FLOAT.Enum(), F: proto.Float32(v)}
}

func str(name, v string) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_STRING.Enum(), S: []byte(v)}
}

func int64s(name string, v ...int64) *pb.TensorProto {
	return &pb.TensorProto{Name: proto.String(name), Dims: []int64{int64(len(v))}, DataType: proto.Int32(int32(tensor.Int64)), Int64Data: v}
}

func info(name string, dt tensor.DataType, dims ...int64) *pb.ValueInfoProto {
	shape := &pb.TensorShapeProto{}
	for _, d := range dims {
		shape.Dim = append(shape.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: d}})
	}
	return &pb.ValueInfoProto{Name: proto.String(name), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{
		TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt)), Shape: shape}}}}
}
