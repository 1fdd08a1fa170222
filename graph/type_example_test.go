package graph_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// A declared type in plain Go: its kind, element type and shape, a
// symbolic dimension by its name.
func ExampleType() {
	b := builder.New(21)
	img := b.InputDims("image", tensor.Uint8, graph.Const(1), graph.Sym("H"), graph.Sym("W"), graph.Const(3))
	b.Output("pixels", b.Op("Transpose", img, builder.Ints("perm", 0, 3, 1, 2)))
	m, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	in := m.Inputs()[0].Type
	fmt.Println(in.Kind, in.DataType, in.Ranked, len(in.Shape))
	for _, d := range in.Shape {
		n, known := d.Value()
		name, symbolic := d.Symbol()
		fmt.Printf("%v: size %d known %v, symbol %q %v\n", d, n, known, name, symbolic)
	}
	fmt.Println(m.Outputs()[0].Type)
	// Output:
	// tensor uint8 true 4
	// 1: size 1 known true, symbol "" false
	// H: size 0 known false, symbol "H" true
	// W: size 0 known false, symbol "W" true
	// 3: size 3 known true, symbol "" false
	// tensor(uint8)[1,3,H,W]
}
