package builder_test

import (
	"context"
	"fmt"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// Build an image pre-processing model (NHWC uint8 to a 2x larger NCHW),
// save its bytes, and run them.
func Example() {
	b := builder.New(21)
	img := b.Input("image", tensor.Uint8, 1, 2, 2, 3)
	nchw := b.Op("Transpose", img, builder.Ints("perm", 0, 3, 1, 2))
	big := b.Op("Resize", nchw, builder.None, b.Constant("scales", tensor.MustFromSlice([]float32{1, 1, 2, 2})),
		builder.String("mode", "nearest"))
	b.Output("pixels", big)
	data, err := b.Encode() // write it to a .onnx file for any ONNX runtime
	if err != nil {
		fmt.Println(err)
		return
	}

	m, _ := graph.LoadBytes(data, "")
	x := tensor.MustFromSlice([]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 1, 2, 2, 3)
	out, _ := m.Run(context.Background(), map[string]tensor.Value{"image": x}, nil)
	fmt.Println(out.Map()["pixels"].Describe())
	fmt.Println(m.Outputs()[0].Describe())
	// Output:
	// tensor(uint8)[1 3 4 4]
	// tensor(uint8)[1,3,4,4]
}
