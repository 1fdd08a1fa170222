package onnx

// Regenerates pb/onnx.pb.go from onnx.proto. Needs protoc (Debian's
// protobuf-compiler) and protoc-gen-go on PATH:
//
//	go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
//	go generate ./onnx
//
//go:generate protoc --go_out=pb --go_opt=paths=source_relative onnx.proto
