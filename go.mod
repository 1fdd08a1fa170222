module github.com/onnxshape/onnxshape

go 1.26.0

require (
	github.com/sbinet/npyio v0.6.0
	github.com/x448/float16 v0.8.4
	golang.org/x/image v0.48.0
	golang.org/x/sys v0.50.0
	google.golang.org/protobuf v1.36.12
)

require gonum.org/v1/gonum v0.9.3 // indirect
