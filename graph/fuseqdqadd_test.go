package graph_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// A DequantizeLinear(a) + DequantizeLinear(b) [-> Relu] -> QuantizeLinear
// chain (a QDQ residual) runs as one int8 addition by default, within one
// quantum of the float chain, broadcast as Add broadcasts; ExactQDQ,
// NoFuse, the SONNX profile and the reference engine run it as written,
// bit for bit the reference's.
func TestFuseQDQAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, c := range []struct {
		relu   bool
		dt     tensor.DataType
		bShape []int
	}{{false, tensor.Uint8, []int{1, 4, 9, 9}}, {true, tensor.Uint8, []int{1, 4, 9, 9}}, {true, tensor.Int8, []int{4, 1, 1}}, {false, tensor.Int8, []int{1, 4, 9, 9}}} {
		f32 := func(v float32) *tensor.Tensor { t, _ := tensor.FromSlice([]float32{v}, 1); return t }
		zero := func(v int) *tensor.Tensor {
			t, _ := tensor.New(c.dt)
			t.Bytes()[0] = byte(v)
			return t
		}
		b := builder.New(21)
		x := b.Input("x", c.dt, 1, 4, 9, 9)
		xb := b.Input("b", c.dt, c.bShape...)
		da := b.Op("DequantizeLinear", x, b.Constant("as", f32(0.031)), b.Constant("az", zero(7)), builder.Name("dqa"))
		db := b.Op("DequantizeLinear", xb, b.Constant("bs", f32(0.017)), b.Constant("bz", zero(250)), builder.Name("dqb"))
		y := b.Op("Add", da, db, builder.Name("add"))
		if c.relu {
			y = b.Op("Relu", y, builder.Name("relu"))
		}
		b.Output("y", b.Op("QuantizeLinear", y, b.Constant("ys", f32(0.043)), b.Constant("yz", zero(12)), builder.Name("q")))
		data, err := b.Encode()
		if err != nil {
			t.Fatal(err)
		}
		load := func(o graph.LoadOptions) *graph.Model {
			m, err := graph.LoadBytesWith(data, "", o)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		fused, exact, plain := load(graph.LoadOptions{}), load(graph.LoadOptions{ExactQDQ: true}), load(graph.LoadOptions{NoFuse: true})
		want := 3 // two DequantizeLinear and the QuantizeLinear
		if c.relu {
			want++
		}
		if fused.Fusions() != want || exact.Fusions() != 0 || plain.Fusions() != 0 {
			t.Fatalf("%+v: %d fusions (want %d), %d with ExactQDQ, %d with NoFuse", c, fused.Fusions(), want, exact.Fusions(), plain.Fusions())
		}
		in := map[string]tensor.Value{}
		for name, shape := range map[string][]int{"x": {1, 4, 9, 9}, "b": c.bShape} {
			v, _ := tensor.New(c.dt, shape...)
			for i := range v.Bytes() {
				v.Bytes()[i] = byte(r.IntN(256))
			}
			in[name] = v
		}
		run := func(m *graph.Model, o *graph.RunOptions) *tensor.Tensor {
			out, err := m.Run(context.Background(), in, o)
			if err != nil {
				t.Fatal(err)
			}
			return out.Map()["y"].(*tensor.Tensor)
		}
		ref := run(plain, &graph.RunOptions{Engine: graph.EngineReference})
		for _, m := range []struct {
			m *graph.Model
			o *graph.RunOptions
		}{{exact, nil}, {plain, nil}, {fused, &graph.RunOptions{Profile: ops.ProfileSONNX}}, {fused, &graph.RunOptions{Engine: graph.EngineReference}}} {
			if m.o != nil && m.o.Profile == ops.ProfileSONNX && len(c.bShape) != 4 {
				continue // the profile does not broadcast
			}
			if got := run(m.m, m.o); !got.Equal(ref) {
				t.Fatalf("%+v: a run as written differs from the reference engine's", c)
			}
		}
		for _, threads := range []int{1, 2} {
			got := run(fused, &graph.RunOptions{Threads: threads})
			if got.DataType() != c.dt || !tensor.SameShape(got.Shape(), ref.Shape()) {
				t.Fatalf("fused %v%v, as written %v%v", got.DataType(), got.Shape(), ref.DataType(), ref.Shape())
			}
			differ := 0
			for i, g := range got.Bytes() {
				d, e := int(g), int(ref.Bytes()[i])
				if c.dt == tensor.Int8 {
					d, e = int(int8(g)), int(int8(ref.Bytes()[i]))
				}
				if d-e > 1 || e-d > 1 {
					t.Fatalf("%+v, output %d: fused %d, as written %d", c, i, d, e)
				}
				if d != e {
					differ++
				}
			}
			if threads == 1 {
				t.Logf("%+v: %d of %d outputs differ by one quantum", c, differ, got.Len())
			}
		}
	}
}
