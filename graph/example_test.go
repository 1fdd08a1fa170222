package graph_test

import (
	"context"
	"fmt"
	"log"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// Load the bundled example model and run it on a 6x8 RGB image.
func ExampleModel_Run() {
	m, err := graph.Load("../examples/letterbox.onnx")
	if err != nil {
		log.Fatal(err)
	}
	img := tensor.MustNew(tensor.Uint8, 1, 6, 8, 3) // NHWC, all black
	out, err := m.Run(context.Background(), map[string]tensor.Value{"image": img}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out["pixels"].Describe())
	// Output: tensor(uint8)[1 4 12 12]
}

// Run checks each input against the type the model declares.
func ExampleModel_Run_wrongInput() {
	m, err := graph.Load("../examples/letterbox.onnx")
	if err != nil {
		log.Fatal(err)
	}
	img := tensor.MustNew(tensor.Uint8, 1, 6, 8) // the channel axis is missing
	_, err = m.Run(context.Background(), map[string]tensor.Value{"image": img}, nil)
	fmt.Println(err)
	// Output: input "image": onnx: value does not fit tensor(uint8)[1,6,8,3]: invalid shape: shape [1 6 8] has rank 3, not 4
}
