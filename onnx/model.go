// Package onnx reads and writes the ONNX file format: models, and the
// tensors, sequences and optionals of the node tests' .pb files, converted
// to and from package tensor's values. It knows nothing of operators.
//
// The messages are generated from onnx.proto (package pb), a copy of the
// ONNX project's schema with ONNX's field numbers.
package onnx

import (
	"errors"
	"fmt"
	"os"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx/pb"
)

// DecodeModel parses a serialized ModelProto. Bytes that are not a protobuf
// message, and a message without a graph, are errors.
func DecodeModel(b []byte) (*pb.ModelProto, error) {
	m := &pb.ModelProto{}
	if err := proto.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("onnx: not a valid model: %w", err)
	}
	if m.Graph == nil {
		return nil, errors.New("onnx: not a valid model: it has no graph")
	}
	return m, nil
}

// ReadModel reads and decodes the model file at path.
func ReadModel(path string) (*pb.ModelProto, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	m, err := DecodeModel(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// EncodeModel serializes m; the same model always gives the same bytes.
func EncodeModel(m *pb.ModelProto) ([]byte, error) {
	return marshal(m)
}

func marshal(m proto.Message) ([]byte, error) {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	return b, nil
}
