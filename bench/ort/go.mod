module github.com/onnxshape/onnxshape/bench/ort

go 1.26.0

require (
	github.com/onnxshape/onnxshape v0.0.0
	github.com/yalue/onnxruntime_go v1.27.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/sbinet/npyio v0.6.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/image v0.48.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	gonum.org/v1/gonum v0.9.3 // indirect
)

replace github.com/onnxshape/onnxshape => ../..
