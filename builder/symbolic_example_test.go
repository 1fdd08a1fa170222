package builder_test

import (
	"context"
	"fmt"
	"github.com/onnxshape/onnxshape/graph"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/tensor"
)

// One model for images of every size: height and width are symbolic.
func ExampleBuilder_InputDims() {
	b := builder.New(21)
	img := b.InputDims("image", tensor.Uint8, graph.Const(1), graph.Sym("H"), graph.Sym("W"), graph.Const(3))
	b.Output("pixels", b.Op("Transpose", img, builder.Ints("perm", 0, 3, 1, 2)))
	m, err := b.Build() // or b.Save("preprocess.onnx")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Outputs()[0].Describe())
	res, _ := m.Run(context.Background(), map[string]tensor.Value{"image": tensor.MustNew(tensor.Uint8, 1, 5, 7, 3)}, nil)
	pixels, _ := res.Tensor("pixels")
	fmt.Println(pixels.Shape())
	// Output:
	// tensor(uint8)[1,3,H,W]
	// [1 3 5 7]
}
