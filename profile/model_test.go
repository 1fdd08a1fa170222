package profile

import (
	"testing"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// modelBuilder builds small models with pb structs for the tests.
type modelBuilder struct {
	t testing.TB
	m *pb.ModelProto
}

func newModel(t testing.TB, opset int64) *modelBuilder {
	t.Helper()
	return &modelBuilder{t: t, m: &pb.ModelProto{
		IrVersion:   proto.Int64(13),
		OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(opset)}},
		Graph:       &pb.GraphProto{Name: proto.String("g")},
	}}
}

// tensorType is a tensor type; a negative dim is left without a size and
// nil dims means no shape at all.
func tensorType(dt tensor.DataType, dims []int64) *pb.TypeProto {
	tt := &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt))}
	if dims != nil {
		tt.Shape = &pb.TensorShapeProto{Dim: []*pb.TensorShapeProto_Dimension{}}
		for _, d := range dims {
			dim := &pb.TensorShapeProto_Dimension{}
			if d >= 0 {
				dim.Value = &pb.TensorShapeProto_Dimension_DimValue{DimValue: d}
			}
			tt.Shape.Dim = append(tt.Shape.Dim, dim)
		}
	}
	return &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: tt}}
}

func valueInfo(name string, t *pb.TypeProto) *pb.ValueInfoProto {
	return &pb.ValueInfoProto{Name: proto.String(name), Type: t}
}

func (b *modelBuilder) input(name string, dt tensor.DataType, dims ...int64) *modelBuilder {
	if dims == nil {
		dims = []int64{}
	}
	b.m.Graph.Input = append(b.m.Graph.Input, valueInfo(name, tensorType(dt, dims)))
	return b
}

func (b *modelBuilder) output(name string, dt tensor.DataType, dims ...int64) *modelBuilder {
	if dims == nil {
		dims = []int64{}
	}
	b.m.Graph.Output = append(b.m.Graph.Output, valueInfo(name, tensorType(dt, dims)))
	return b
}

func (b *modelBuilder) initializer(name string, t *tensor.Tensor) *modelBuilder {
	b.t.Helper()
	tp, err := onnx.TensorToProto(t, name)
	if err != nil {
		b.t.Fatal(err)
	}
	b.m.Graph.Initializer = append(b.m.Graph.Initializer, tp)
	return b
}

func (b *modelBuilder) ints(name string, v ...int64) *modelBuilder {
	return b.initializer(name, tensor.MustFromSlice(v, len(v)))
}

func (b *modelBuilder) node(op string, in, out []string, attrs ...*pb.AttributeProto) *modelBuilder {
	b.m.Graph.Node = append(b.m.Graph.Node, &pb.NodeProto{
		Name: proto.String(op + "_" + string(rune('0'+len(b.m.Graph.Node)))), OpType: proto.String(op),
		Input: in, Output: out, Attribute: attrs,
	})
	return b
}

func (b *modelBuilder) build() *pb.ModelProto { return b.m }

func attrInt(name string, v int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(v)}
}

func attrInts(name string, v ...int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INTS.Enum(), Ints: v}
}

func attrString(name, v string) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_STRING.Enum(), S: []byte(v)}
}

func names(s ...string) []string { return s }

// maxPoolAttrs are MaxPool's attributes, every one written out: a 2x2
// window, stride 2, no padding.
func maxPoolAttrs(override ...*pb.AttributeProto) []*pb.AttributeProto {
	list := []*pb.AttributeProto{
		attrString("auto_pad", "NOTSET"), attrInt("ceil_mode", 0), attrInts("dilations", 1, 1),
		attrInts("kernel_shape", 2, 2), attrInts("pads", 0, 0, 0, 0), attrInt("storage_order", 0),
		attrInts("strides", 2, 2),
	}
	for _, o := range override {
		replaced := false
		for i, a := range list {
			if a.GetName() == o.GetName() {
				list[i], replaced = o, true
			}
		}
		if !replaced {
			list = append(list, o)
		}
	}
	return list
}

// without returns attrs less the one named name.
func without(attrs []*pb.AttributeProto, name string) []*pb.AttributeProto {
	var out []*pb.AttributeProto
	for _, a := range attrs {
		if a.GetName() != name {
			out = append(out, a)
		}
	}
	return out
}

// insideModel uses Unsqueeze, Concat, Reshape, Flatten, Slice and MaxPool,
// every parameter written out, every type declared: it is inside the
// profile.
func insideModel(t testing.TB) *pb.ModelProto {
	return newModel(t, 25).
		input("x", tensor.Float, 2, 3).
		input("p", tensor.Int8, 1, 1, 4, 4). // integers: no NaN to leave to run time
		ints("axes0", 0).
		ints("shape", 4, 3).
		ints("starts", 0, 1).ints("ends", 4, 3).ints("axes01", 0, 1).ints("steps", 1, 1).
		node("Unsqueeze", names("x", "axes0"), names("u")).
		node("Concat", names("u", "u"), names("c"), attrInt("axis", 0)).
		node("Reshape", names("c", "shape"), names("r"), attrInt("allowzero", 0)).
		node("Flatten", names("r"), names("f"), attrInt("axis", 1)).
		node("Slice", names("f", "starts", "ends", "axes01", "steps"), names("s")).
		node("MaxPool", names("p"), names("y", "i"), maxPoolAttrs()...).
		output("s", tensor.Float, 4, 2).
		output("y", tensor.Int8, 1, 1, 2, 2).
		output("i", tensor.Int64, 1, 1, 2, 2).
		build()
}

// reshapeModel is a one-node model around Reshape: x [2,3] float to the
// shape in the initializer "shape", every parameter written out.
func reshapeModel(t testing.TB, xType tensor.DataType, xDims []int64, shape []int64, allowZero int64, yDims ...int64) *modelBuilder {
	return newModel(t, 25).
		input("x", xType, xDims...).
		ints("shape", shape...).
		node("Reshape", names("x", "shape"), names("y"), attrInt("allowzero", allowZero)).
		output("y", xType, yDims...)
}

func sliceModel(t testing.TB, starts, ends, axes, steps []int64, yDims ...int64) *pb.ModelProto {
	return newModel(t, 13).
		input("x", tensor.Float, 3, 4).
		ints("starts", starts...).ints("ends", ends...).ints("axes", axes...).ints("steps", steps...).
		node("Slice", names("x", "starts", "ends", "axes", "steps"), names("y")).
		output("y", tensor.Float, yDims...).
		build()
}

func maxPoolModel(t testing.TB, dt tensor.DataType, xDims []int64, attrs []*pb.AttributeProto) *pb.ModelProto {
	return newModel(t, 22).
		input("x", dt, xDims...).
		node("MaxPool", names("x"), names("y"), attrs...).
		output("y", dt, 1, 1, 2, 2).
		build()
}

func unsqueezeModel(t testing.TB, axes []int64, yDims ...int64) *pb.ModelProto {
	return newModel(t, 25).
		input("x", tensor.Float, 2, 3).
		initializer("axes", tensor.MustFromSlice(axes, len(axes))).
		node("Unsqueeze", names("x", "axes"), names("y")).
		output("y", tensor.Float, yDims...).
		build()
}

func concatModel(t testing.TB, a, b []int64, bType tensor.DataType, axis int64, yDims ...int64) *pb.ModelProto {
	return newModel(t, 13).
		input("a", tensor.Float, a...).
		input("b", bType, b...).
		node("Concat", names("a", "b"), names("y"), attrInt("axis", axis)).
		output("y", tensor.Float, yDims...).
		build()
}
