package infer_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/tensor"
)

// x.view(x.size(0), -1) as an exporter writes it: the reshape target is
// computed from the input's shape, and inference follows it symbolically.
func ExampleModel() {
	b := builder.New(13)
	x := b.InputDims("x", tensor.Float, builder.Sym("N"), builder.Fixed(3), builder.Sym("H"), builder.Sym("W"))
	n := b.Op("Slice", b.Op("Shape", x), b.Ints64("start", 0), b.Ints64("end", 1))
	target := b.Op("Concat", n, b.Ints64("rest", -1), builder.Int("axis", 0))
	b.Output("y", b.Op("Reshape", x, target))
	m, err := b.ModelProto()
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := infer.Model(m, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	target2, _ := r.Value(target.Name())
	y, _ := r.Value("y")
	fmt.Println(target2)
	fmt.Println(y)

	// With the input's shape fixed, everything is a number.
	r, _ = infer.Model(m, &infer.Options{InputShapes: map[string][]infer.Dim{
		"x": {infer.Const(8), infer.Const(3), infer.Const(32), infer.Const(32)}}})
	y, _ = r.Value("y")
	fmt.Println(y)
	// Output:
	// int64[2]=[N,-1]
	// float[N,3*H*W]
	// float[8,3072]
}

// Folding the same model: the reshape gets a constant target ([0, -1]
// copies N), and the shape computation goes.
func ExampleFold() {
	b := builder.New(13)
	x := b.InputDims("x", tensor.Float, builder.Sym("N"), builder.Fixed(3), builder.Sym("H"), builder.Sym("W"))
	n := b.Op("Slice", b.Op("Shape", x), b.Ints64("start", 0), b.Ints64("end", 1))
	target := b.Op("Concat", n, b.Ints64("rest", -1), builder.Int("axis", 0))
	b.Output("y", b.Op("Reshape", x, target))
	m, err := b.ModelProto()
	if err != nil {
		fmt.Println(err)
		return
	}
	folded, r, stats, err := infer.Fold(m, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, node := range folded.Graph.Node {
		fmt.Println(node.GetOpType(), node.Input)
	}
	y, _ := r.Value("y")
	fmt.Println(y)
	fmt.Println(stats.NodesBefore, "->", stats.NodesAfter, "nodes")
	// Output:
	// Reshape [x Concat_3_const]
	// float[N,3*H*W]
	// 4 -> 1 nodes
}
