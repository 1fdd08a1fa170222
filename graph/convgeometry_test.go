package graph_test

import (
	"context"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// A Conv node keeps the geometry of its last run for the next one with the
// same shapes: runs whose input lengths change from one to the next give
// what a fresh model gives (the same bits), on both the few-positions path
// and the usual one, and an input the node's attributes refuse is still
// refused after runs it accepted.
func TestConvKeepsGeometryPerShape(t *testing.T) {
	build := func() *graph.Model {
		b := builder.New(17)
		x := b.InputDims("x", tensor.Float, graph.Sym("N"), graph.Sym("C"), graph.Sym("L"))
		w := tensor.MustNew(tensor.Float, 8, 3, 3)
		wv, _ := tensor.Data[float32](w)
		for i := range wv {
			wv[i] = float32(i%5-2) / 8
		}
		y := b.Op("Conv", x, b.Constant("w", w), builder.Ints("kernel_shape", 3), builder.Ints("pads", 1, 1),
			builder.Ints("strides", 2))
		b.Output("y", y)
		m, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	input := func(n, l int) *tensor.Tensor {
		x := tensor.MustNew(tensor.Float, n, 3, l)
		v, _ := tensor.Data[float32](x)
		for i := range v {
			v[i] = float32((i*7)%11) - 5
		}
		return x
	}
	kept := build()
	for _, s := range [][2]int{{1, 8}, {1, 8}, {2, 40}, {1, 8}, {3, 5}, {2, 40}} {
		x := input(s[0], s[1])
		got, err := kept.Run(context.Background(), map[string]tensor.Value{"x": x}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := build().Run(context.Background(), map[string]tensor.Value{"x": x}, nil)
		if err != nil {
			t.Fatal(err)
		}
		g, w := got.Map()["y"].(*tensor.Tensor), want.Map()["y"].(*tensor.Tensor)
		if !tensor.SameShape(g.Shape(), w.Shape()) || !g.Equal(w) {
			t.Fatalf("x %v: a Conv run after others gives %v %v, a fresh one %v %v", x.Shape(), g.Shape(), g, w.Shape(), w)
		}
	}
	if _, err := kept.Run(context.Background(), map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 1, 4, 8)}, nil); err == nil {
		t.Error("X of 4 channels for W of 3: no error after runs that kept a geometry")
	}
}
