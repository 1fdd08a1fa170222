package graph_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/tensor"
)

// A declared type in plain Go: its kind, element type and shape, a
// symbolic dimension by its name.
func ExampleType() {
	b := builder.New(21)
	img := b.InputDims("image", tensor.Uint8, builder.Fixed(1), builder.Sym("H"), builder.Sym("W"), builder.Fixed(3))
	b.Output("pixels", b.Node("Transpose", []builder.Value{img}, builder.Ints("perm", 0, 3, 1, 2)))
	m, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	in := m.Inputs()[0].Type
	fmt.Println(in.Kind, in.DataType, in.Ranked, len(in.Shape))
	for _, d := range in.Shape {
		fmt.Printf("size %d name %q static %v\n", d.Size, d.Name, d.Static())
	}
	fmt.Println(m.Outputs()[0].Type)
	// Output:
	// tensor uint8 true 4
	// size 1 name "" static true
	// size -1 name "H" static false
	// size -1 name "W" static false
	// size 3 name "" static true
	// tensor(uint8)[1,3,H,W]
}
