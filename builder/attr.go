package builder

import (
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// Attr is one node attribute, made by Int, Ints, Float, Floats, String,
// Strings or Tensor.
type Attr struct {
	proto *pb.AttributeProto
	err   error
}

func attr(name string, t pb.AttributeProto_AttributeType) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: t.Enum()}
}

// Int is an int attribute.
func Int(name string, v int) Attr {
	a := attr(name, pb.AttributeProto_INT)
	a.I = proto.Int64(int64(v))
	return Attr{proto: a}
}

// Ints is an ints attribute.
func Ints(name string, v ...int) Attr {
	a := attr(name, pb.AttributeProto_INTS)
	for _, x := range v {
		a.Ints = append(a.Ints, int64(x))
	}
	return Attr{proto: a}
}

// Float is a float attribute.
func Float(name string, v float32) Attr {
	a := attr(name, pb.AttributeProto_FLOAT)
	a.F = proto.Float32(v)
	return Attr{proto: a}
}

// Floats is a floats attribute.
func Floats(name string, v ...float32) Attr {
	a := attr(name, pb.AttributeProto_FLOATS)
	a.Floats = append([]float32{}, v...)
	return Attr{proto: a}
}

// String is a string attribute.
func String(name, v string) Attr {
	a := attr(name, pb.AttributeProto_STRING)
	a.S = []byte(v)
	return Attr{proto: a}
}

// Strings is a strings attribute.
func Strings(name string, v ...string) Attr {
	a := attr(name, pb.AttributeProto_STRINGS)
	for _, s := range v {
		a.Strings = append(a.Strings, []byte(s))
	}
	return Attr{proto: a}
}

// Tensor is a tensor attribute (Constant's value, ConstantOfShape's value).
func Tensor(name string, t *tensor.Tensor) Attr {
	a := attr(name, pb.AttributeProto_TENSOR)
	tp, err := onnx.TensorToProto(t, "")
	a.T = tp
	return Attr{proto: a, err: err}
}
