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

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx/pb"
)

// DecodeModel parses a serialized ModelProto within the default Limits.
// Bytes that are not a protobuf message, and a message without a graph,
// are errors.
func DecodeModel(b []byte) (*pb.ModelProto, error) {
	return DecodeModelWith(b, nil)
}

func decodeModel(b []byte) (*pb.ModelProto, error) {
	m := &pb.ModelProto{}
	if err := proto.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("onnx: not a valid model: %w", err)
	}
	if m.Graph == nil {
		return nil, errors.New("onnx: not a valid model: it has no graph")
	}
	return m, nil
}

// ReadModel reads and decodes the model file at path within the default
// Limits (see ReadModelWith).
func ReadModel(path string) (*pb.ModelProto, error) {
	return ReadModelWith(path, nil)
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
