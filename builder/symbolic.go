package builder

import (
	"fmt"
	"io"
	"os"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// InputDims declares a graph input whose dimensions may be symbolic, so
// that one model serves every image size:
//
//	img := b.InputDims("image", tensor.Uint8, graph.Const(1), graph.Sym("H"), graph.Sym("W"), graph.Const(3))
//
// Model checks the graph by shape propagation (package infer), which
// carries the symbolic dimensions through every node: an output dimension
// that follows them is declared by its expression (H, 2*W). It is the one
// way to declare symbolic dimensions; Input declares a fixed shape.
func (b *Builder) InputDims(name string, dt tensor.DataType, dims ...graph.Dim) Value {
	v := b.claim(name)
	if b.err != nil {
		return v
	}
	if !dt.Valid() {
		b.fail("input %q: %d is not an ONNX element type", name, dt)
		return v
	}
	pdims := make([]*pb.TensorShapeProto_Dimension, len(dims))
	for i, d := range dims {
		n, known := d.Value()
		sym, isSym := d.Symbol()
		switch {
		case known && n >= 0:
			pdims[i] = &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: n}}
		case isSym && sym != "?":
			pdims[i] = &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimParam{DimParam: sym}}
		default:
			b.fail("input %q: dimension %d (%v) is neither a size >= 0 (graph.Const) nor a name (graph.Sym)", name, i, d)
			return v
		}
	}
	b.g.Input = append(b.g.Input, &pb.ValueInfoProto{
		Name: proto.String(name),
		Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{
			ElemType: proto.Int32(int32(dt)),
			Shape:    &pb.TensorShapeProto{Dim: pdims},
		}}},
	})
	return v
}

// Build returns the model loaded and ready to run, as graph.Load would
// return it from the bytes of Encode.
func (b *Builder) Build() (*graph.Model, error) {
	data, err := b.Encode()
	if err != nil {
		return nil, err
	}
	return graph.LoadBytes(data, "")
}

// WriteTo writes the model's bytes (those of Encode) to w.
func (b *Builder) WriteTo(w io.Writer) (int64, error) {
	data, err := b.Encode()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(data)
	return int64(n), err
}

// Save writes the model to a .onnx file at path. Nothing is written when
// the model does not build.
func (b *Builder) Save(path string) error {
	data, err := b.Encode()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("builder: %w", err)
	}
	return nil
}
