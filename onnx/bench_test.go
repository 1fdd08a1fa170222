package onnx

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// A 1M-element float tensor: raw_data as most files hold it, float_data as
// some writers do, and the packed int4 form.
func benchTensors(b *testing.B) map[string]*pb.TensorProto {
	b.Helper()
	x, err := tensor.New(tensor.Float, 1024, 1024)
	if err != nil {
		b.Fatal(err)
	}
	raw, err := TensorToProto(x, "x")
	if err != nil {
		b.Fatal(err)
	}
	typed := &pb.TensorProto{DataType: raw.DataType, Dims: raw.Dims, FloatData: make([]float32, x.Len())}
	i4, err := TensorToProto(tensor.MustNew(tensor.Int4, 1024, 1024), "q")
	if err != nil {
		b.Fatal(err)
	}
	return map[string]*pb.TensorProto{"raw_data": raw, "float_data": typed, "int4": i4}
}

func BenchmarkTensorFromProto(b *testing.B) {
	for name, tp := range benchTensors(b) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(proto.Size(tp)))
			for b.Loop() {
				if _, err := TensorFromProto(tp, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkTensorToProto(b *testing.B) {
	for name, tp := range benchTensors(b) {
		x, err := TensorFromProto(tp, "")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(x.ByteLen()))
			for b.Loop() {
				if _, err := TensorToProto(x, "x"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The cost of the decoding pre-scan beside protobuf's own decoding, on a
// model of 10,000 small nodes and a 4 MiB weight.
func BenchmarkDecodeModel(b *testing.B) {
	nodes := make([]*pb.NodeProto, 10000)
	for i := range nodes {
		nodes[i] = &pb.NodeProto{OpType: ptr("Identity"), Input: []string{"x"}, Output: []string{"y"},
			Attribute: []*pb.AttributeProto{{Name: ptr("axes"), Ints: []int64{0, 1, 2}}}}
	}
	w := &pb.TensorProto{Name: ptr("w"), DataType: ptr(int32(tensor.Float)), Dims: []int64{1 << 20}, RawData: make([]byte, 4<<20)}
	m := &pb.ModelProto{Graph: &pb.GraphProto{Node: nodes, Initializer: []*pb.TensorProto{w}}}
	data, err := EncodeModel(m)
	if err != nil {
		b.Fatal(err)
	}
	md := m.ProtoReflect().Descriptor()
	b.Run("pre-scan", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := decodedSize(data, md, 1<<40, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if err := proto.Unmarshal(data, &pb.ModelProto{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
