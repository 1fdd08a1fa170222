package graph_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// A DequantizeLinear -> MaxPool -> QuantizeLinear chain of one scale and
// zero point runs the MaxPool on the 8-bit values, bit for bit the float
// chain's (and the reference engine's), for strides, dilations, pads and
// rows shorter and longer than the vector width; a pad wider than the
// dilated kernel keeps the chain as written.
func TestFuseQDQPool(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		dt                        tensor.DataType
		h, w, k, stride, dil, pad int
		fuses                     bool
	}{
		{tensor.Uint8, 112, 112, 3, 2, 1, 1, true}, {tensor.Int8, 112, 112, 3, 2, 1, 1, true},
		{tensor.Uint8, 9, 13, 2, 2, 1, 0, true}, {tensor.Int8, 20, 150, 3, 1, 2, 2, true},
		{tensor.Uint8, 7, 70, 3, 3, 1, 1, true}, {tensor.Uint8, 8, 8, 2, 1, 1, 2, false},
	} {
		zero, _ := tensor.New(c.dt)
		zero.Bytes()[0] = byte(r.IntN(256))
		scale, _ := tensor.FromSlice([]float32{0.037}, 1)
		b := builder.New(21)
		x := b.Input("x", c.dt, 2, 3, c.h, c.w)
		d := b.Op("DequantizeLinear", x, b.Constant("s", scale), b.Constant("z", zero), builder.Name("dq"))
		p := b.Op("MaxPool", d, builder.Ints("kernel_shape", c.k, c.k), builder.Ints("strides", c.stride, c.stride),
			builder.Ints("dilations", c.dil, c.dil), builder.Ints("pads", c.pad, c.pad, c.pad, c.pad), builder.Name("pool"))
		b.Output("y", b.Op("QuantizeLinear", p, b.Constant("s2", scale), b.Constant("z2", zero), builder.Name("q")))
		data, err := b.Encode()
		if err != nil {
			t.Fatal(err)
		}
		fused, err := graph.LoadBytes(data, "")
		if err != nil {
			t.Fatal(err)
		}
		exact, err := graph.LoadBytesWith(data, "", graph.LoadOptions{ExactQDQ: true})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: 2, false: 0}[c.fuses]; fused.Fusions() != want || exact.Fusions() != 0 {
			t.Fatalf("%+v: %d fusions (want %d), %d with ExactQDQ", c, fused.Fusions(), want, exact.Fusions())
		}
		xin, _ := tensor.New(c.dt, 2, 3, c.h, c.w)
		for i := range xin.Bytes() {
			xin.Bytes()[i] = byte(r.IntN(256))
		}
		in := map[string]tensor.Value{"x": xin}
		run := func(m *graph.Model, o *graph.RunOptions) *tensor.Tensor {
			out, err := m.Run(context.Background(), in, o)
			if err != nil {
				t.Fatal(err)
			}
			return out.Map()["y"].(*tensor.Tensor)
		}
		ref := run(exact, &graph.RunOptions{Engine: graph.EngineReference})
		for _, threads := range []int{1, 2} {
			for _, m := range []*graph.Model{fused, exact} {
				if got := run(m, &graph.RunOptions{Threads: threads}); !got.Equal(ref) {
					t.Fatalf("%+v, %d threads: the fused MaxPool differs from the float chain", c, threads)
				}
			}
		}
	}
}
