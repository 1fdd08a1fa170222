package onnx

// Regenerates pb/onnx.pb.go from onnxshape/onnx.proto. The protobuf package
// is onnxshape.onnx and the file registers as onnxshape/onnx.proto, not
// ONNX's own onnx and onnx.proto: neither is on the wire, and a program
// that links onnxshape with another ONNX library (gonnx, onnx-go), whose
// generated code registers onnx.*, would otherwise panic at start-up. Needs protoc (Debian's
// protobuf-compiler) and protoc-gen-go on PATH:
//
//	go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
//	go generate ./onnx
//
//go:generate protoc --proto_path=. --go_out=. --go_opt=module=github.com/onnxshape/onnxshape/onnx onnxshape/onnx.proto
