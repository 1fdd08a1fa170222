package infer_test

import (
	"context"
	"fmt"
	"github.com/onnxshape/onnxshape/graph"
	"log"
	"os"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/tensor"
)

// The attention block of the README (the README shows this body, with
// paths from the repository's root): its heads are split by a shape the
// model computes, which inference follows symbolically; an input's shape
// given, the symbols it fixes become numbers.
func ExampleFile() {
	ctx := context.Background() // or a request's: a cancelled one stops inference with its error
	r, err := infer.File(ctx, "testdata/attention.onnx", &infer.Options{
		InputShapes: map[string][]graph.Dim{"x": {graph.Sym("B"), graph.Const(10), graph.Const(64)}},
	})
	if err != nil {
		log.Fatal(err) // no model, no graph or opset, or the context's error
	}
	for _, p := range r.Problems {
		fmt.Println(p) // a node refusing its inputs, a declaration inference contradicts, ...
	}
	heads, _ := r.Value("Transpose_9_out0") // a *infer.Value: Type, Shape []graph.Dim, known contents
	n, known := heads.Shape[2].Value()
	fmt.Println(heads, heads.Shape[0], n, known) // float[B,4,10,16] B 10 true

	model, err := os.ReadFile("testdata/attention.onnx")
	if err != nil {
		log.Fatal(err)
	}
	folded, _, stats, err := infer.Fold(ctx, model, "testdata", nil) // folded: the encoded model, for os.WriteFile
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(stats, len(folded) == stats.BytesAfter) // nodes 16 -> 9 (... 7 removed), bytes 17771 -> 17289 true
	// Output:
	// float[B,4,10,16] B 10 true
	// nodes 16 -> 9 (0 folded into constants, 7 removed), bytes 17771 -> 17289 true
}

// flatten builds x.view(x.size(0), -1) as an exporter writes it: the
// reshape target is computed from the input's shape.
func flatten() (*builder.Builder, builder.Value) {
	b := builder.New(13)
	x := b.InputDims("x", tensor.Float, graph.Sym("N"), graph.Const(3), graph.Sym("H"), graph.Sym("W"))
	n := b.Op("Slice", b.Op("Shape", x), b.Ints64("start", 0), b.Ints64("end", 1))
	target := b.Op("Concat", n, b.Ints64("rest", -1), builder.Int("axis", 0))
	b.Output("y", b.Op("Reshape", x, target))
	return b, target
}

// Inference follows the reshape target of x.view(x.size(0), -1)
// symbolically.
func ExampleBytes() {
	b, target := flatten()
	model, err := b.Encode() // or read from a file (infer.File)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	r, err := infer.Bytes(ctx, model, "", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	t, _ := r.Value(target.Name())
	y, _ := r.Value("y")
	fmt.Println(t)
	fmt.Println(y)

	// With the input's shape fixed, everything is a number.
	r, _ = infer.Bytes(ctx, model, "", &infer.Options{InputShapes: map[string][]graph.Dim{
		"x": {graph.Const(8), graph.Const(3), graph.Const(32), graph.Const(32)}}})
	y, _ = r.Value("y")
	fmt.Println(y)
	// Output:
	// int64[2]=[N,-1]
	// float[N,3*H*W]
	// float[8,3072]
}

// A model package graph has loaded is inferred as it stands.
func ExampleModel() {
	b, _ := flatten()
	m, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := infer.Model(context.Background(), m, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range r.Values {
		if v.Name == "x" || v.Name == "y" {
			fmt.Println(v.Name, v.Value)
		}
	}
	// Output:
	// x float[N,3,H,W]
	// y float[N,3*H*W]
}

// Folding the same model: the reshape gets a constant target ([0, -1]
// copies N), and the shape computation goes.
func ExampleFold() {
	b, _ := flatten()
	model, err := b.Encode()
	if err != nil {
		fmt.Println(err)
		return
	}
	folded, r, stats, err := infer.Fold(context.Background(), model, "", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	y, _ := r.Value("y")
	fmt.Println(y)
	fmt.Println(stats.NodesBefore, "->", stats.NodesAfter, "nodes;", stats.BytesAfter == len(folded))
	// Output:
	// float[N,3*H*W]
	// 4 -> 1 nodes; true
}

// The protobuf form, for a caller who works with the ONNX format itself:
// the folded model's nodes can be read directly.
func ExampleFoldProto() {
	b, _ := flatten()
	m, err := b.ModelProto()
	if err != nil {
		fmt.Println(err)
		return
	}
	folded, _, _, err := infer.FoldProto(context.Background(), m, "", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, node := range folded.Graph.Node {
		fmt.Println(node.GetOpType(), node.Input)
	}
	// Output:
	// Reshape [x Concat_3_const]
}
