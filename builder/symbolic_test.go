package builder_test

import (
	"fmt"
	"github.com/onnxshape/onnxshape/graph"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

// A model with a symbolic batch and image size: Encode checks it by shape
// propagation and declares its outputs symbolically.
func ExampleBuilder_InputDims_batch() {
	b := builder.New(21)
	img := b.InputDims("image", tensor.Uint8, graph.Sym("N"), graph.Sym("H"), graph.Sym("W"), graph.Const(3))
	nchw := b.Op("Transpose", img, builder.Ints("perm", 0, 3, 1, 2))
	flat := b.Op("Flatten", nchw, builder.Int("axis", 2))
	b.Output("pixels", flat)
	m, err := b.ModelProto()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(onnx.DescribeType(m.Graph.Output[0].Type))
	// Output: tensor(uint8)[3*N,H*W]
}

func TestSymbolicInputs(t *testing.T) {
	b := builder.New(21)
	x := b.InputDims("x", tensor.Float, graph.Sym("N"), graph.Const(3), graph.Sym("H"), graph.Sym("W"))
	shape := b.Op("Shape", x)
	n := b.Op("Slice", shape, b.Ints64("s", 0), b.Ints64("e", 1))
	target := b.Op("Concat", n, b.Ints64("rest", -1), builder.Int("axis", 0))
	b.Output("y", b.Op("Reshape", x, target))
	m, err := b.ModelProto()
	if err != nil {
		t.Fatal(err)
	}
	if got := onnx.DescribeType(m.Graph.Output[0].Type); got != "tensor(float)[N,3*H*W]" {
		t.Errorf("output declared %s", got)
	}
	// Running on zeros needs numbers for every dimension.
	if _, err := b.ModelProto(builder.RunOnZeros()); err == nil || !strings.Contains(err.Error(), "symbolic") {
		t.Errorf("RunOnZeros with a symbolic input: %v", err)
	}

	bad := builder.New(21)
	y := bad.InputDims("y", tensor.Float, graph.Sym("N"), graph.Const(4))
	bad.Output("z", bad.Op("Reshape", y, bad.Ints64("shape", 3, -1)))
	if _, err := bad.Encode(); err != nil {
		t.Errorf("a reshape of N*4 elements to [3,-1] cannot be refused without N: %v", err)
	}
	bad2 := builder.New(21)
	y2 := bad2.InputDims("y", tensor.Float, graph.Const(2), graph.Const(4))
	bad2.Output("z", bad2.Op("Reshape", y2, bad2.Ints64("shape", 3, -1)))
	if _, err := bad2.Encode(); err == nil || !strings.Contains(err.Error(), "Reshape") {
		t.Errorf("8 elements reshaped to [3,-1]: %v", err)
	}
	if _, err := bad2.Encode(builder.RunOnZeros()); err == nil {
		t.Error("RunOnZeros accepted a Reshape the kernel refuses")
	}
}
