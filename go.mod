module github.com/onnxshape/onnxshape

go 1.26

require (
	github.com/x448/float16 v0.8.4
	google.golang.org/protobuf v1.36.12
)
