package graph_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// geluModel is x [rows, width] -> MatMul by a constant -> Add of a bias
// row -> GELU (in the tanh form when tanhForm, else with Erf), written as
// exporters write them, and the result y also read by a residual Add when
// residual.
func geluModel(r *rand.Rand, dt tensor.DataType, rows, width int, tanhForm, residual bool) *builder.Builder {
	b := builder.New(17)
	x := b.Input("x", dt, rows, width)
	scalar := func(name string, v float64) builder.Value { return b.Constant(name, scalarOf(dt, v)) }
	h := b.Op("MatMul", x, b.Constant("w", randTensor(r, dt, width, width)), builder.Name("matmul"))
	h = b.Op("Add", h, b.Constant("bias", randTensor(r, dt, width)), builder.Name("bias"))
	var g builder.Value
	if tanhForm {
		cube := b.Op("Mul", b.Op("Pow", h, scalar("three", 3), builder.Name("pow")), scalar("c1", 0.044715), builder.Name("mul_c1"))
		inner := b.Op("Mul", b.Op("Add", h, cube, builder.Name("add_cube")), scalar("c2", math.Sqrt(2/math.Pi)), builder.Name("mul_c2"))
		g = b.Op("Mul", b.Op("Mul", h, scalar("half", 0.5), builder.Name("mul_half")),
			b.Op("Add", scalar("one", 1), b.Op("Tanh", inner, builder.Name("tanh")), builder.Name("add_one")), builder.Name("gelu"))
	} else {
		g = b.Op("Mul", b.Op("Mul", h, b.Op("Add", b.Op("Erf", b.Op("Div", h, scalar("sqrt2", math.Sqrt2), builder.Name("div")), builder.Name("erf")),
			scalar("one", 1), builder.Name("add_one")), builder.Name("mul_h")), scalar("half", 0.5), builder.Name("gelu"))
	}
	if residual {
		g = b.Op("Add", x, g, builder.Name("residual"))
	}
	b.Output("y", g)
	return b
}

// GELU in both forms, with the bias before it, fused into one chain gives
// the bits of the nodes run one by one, at 1 and 2 threads, for rows that
// are not a multiple of the chain's block.
func TestFusedGeluIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 25))
	for _, tanhForm := range []bool{true, false} {
		for _, residual := range []bool{false, true} {
			for _, width := range []int{7, 600} {
				b := geluModel(r, tensor.Float, 5, width, tanhForm, residual)
				fused, plain := loadBoth(t, b)
				want := 8 // the bias Add and the eight nodes of the tanh form
				if !tanhForm {
					want = 5
				}
				if fused.Fusions() != want || plain.Fusions() != 0 {
					t.Fatalf("tanh %v residual %v: %d fusions (want %d), %d with NoFuse", tanhForm, residual, fused.Fusions(), want, plain.Fusions())
				}
				x := randTensor(r, tensor.Float, 5, width)
				xv, _ := tensor.Data[float32](x)
				for i := range xv {
					xv[i] *= 4
				}
				xv[0], xv[1] = float32(math.NaN()), float32(math.Inf(-1))
				for _, threads := range []int{1, 2} {
					o := &graph.RunOptions{Threads: threads, Engine: graph.EngineFast}
					got, exp := runY(t, fused, x, o), runY(t, plain, x, o)
					if !got.Equal(exp) {
						t.Fatalf("tanh %v residual %v width %d, %d threads: fused and unfused differ", tanhForm, residual, width, threads)
					}
					ref := runY(t, fused, x, &graph.RunOptions{Engine: graph.EngineReference})
					if !ref.Equal(runY(t, plain, x, &graph.RunOptions{Engine: graph.EngineReference})) {
						t.Fatal("the reference engine's run changed with fusion")
					}
				}
			}
		}
	}
}

// A chain whose X the chain does not take (float16) runs its nodes one by
// one: the bits of the unfused graph.
func TestFusedChainFallsBack(t *testing.T) {
	b := builder.New(17)
	x := b.Input("x", tensor.Float16, 3, 4)
	b.Output("y", b.Op("Mul", b.Op("Sigmoid", b.Op("Tanh", x)), x))
	fused, plain := loadBoth(t, b)
	if fused.Fusions() != 2 {
		t.Fatalf("%d fusions, want 2", fused.Fusions())
	}
	xt := tensor.MustNew(tensor.Float16, 3, 4)
	for i, raw := 0, xt.Bytes(); i < 12; i++ {
		v := 0x3000 + 0x111*i
		raw[2*i], raw[2*i+1] = byte(v), byte(v>>8)
	}
	in := map[string]tensor.Value{"x": xt}
	got, err := fused.Run(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := plain.Run(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Map()["y"].(*tensor.Tensor).Equal(want.Map()["y"].(*tensor.Tensor)) {
		t.Fatal("the chain run node by node differs from the unfused graph")
	}
}

// The errors of a fused chain name its nodes: a run's cap refused at the
// chain names the sink and lists the others.
func TestFusedChainErrorNamesNodes(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 25))
	fused, _ := loadBoth(t, geluModel(r, tensor.Float, 64, 64, true, false))
	x := randTensor(r, tensor.Float, 64, 64)
	_, err := fused.Run(context.Background(), map[string]tensor.Value{"x": x}, &graph.RunOptions{MaxRunBytes: 64 * 64 * 4 * 2})
	if err == nil || !strings.Contains(err.Error(), "gelu") || !strings.Contains(err.Error(), "tanh") {
		t.Fatalf("error %v, want one naming the fused nodes", err)
	}
}

// HardSwish spelled out as opsets before 14 export it, x * Clip(x + 3, 0,
// 6) / 6, then a scale and a shift (PP-LCNet's learnable affine block),
// Relu, a Clip with its lower bound left out, HardSigmoid, and the same
// HardSwish with Clip-6's attributes: one chain, with the bits of the
// nodes run one by one (NaN, infinities, values on both sides of every
// bound), for blocks that are not a multiple of the chain's.
func TestFusedHardSwishIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 26))
	for _, opset := range []int{17, 9} {
		b := builder.New(opset)
		x := b.Input("x", tensor.Float, 3, 700)
		c := func(name string, v float32) builder.Value { return b.Constant(name, tensor.Scalar(v)) }
		clip := func(v builder.Value, lo, hi float32, name string) builder.Value {
			if opset < 11 {
				return b.Op("Clip", v, builder.Float("min", lo), builder.Float("max", hi), builder.Name(name))
			}
			return b.Op("Clip", v, c(name+"_lo", lo), c(name+"_hi", hi), builder.Name(name))
		}
		h := b.Op("Div", b.Op("Mul", x, clip(b.Op("Add", x, c("three", 3)), 0, 6, "clip"), builder.Name("mul_x")), c("six", 6))
		h = b.Op("Add", b.Op("Mul", h, c("scale", 0.25)), c("shift", -0.5))
		h = b.Op("Relu", h)
		want := 7
		if opset >= 11 {
			h = b.Op("Clip", h, builder.None, c("top", 2.5), builder.Name("clip_top"))
			want++
		}
		h = b.Op("HardSigmoid", h, builder.Float("alpha", 0.3), builder.Float("beta", 0.4))
		h = b.Op("Div", b.Op("Mul", h, clip(b.Op("Add", h, c("three2", 3)), 0, 6, "clip2")), c("six2", 6))
		want += 4
		b.Output("y", h)
		fused, plain := loadBoth(t, b)
		if fused.Fusions() != want || plain.Fusions() != 0 {
			t.Fatalf("opset %d: %d fusions (want %d), %d with NoFuse", opset, fused.Fusions(), want, plain.Fusions())
		}
		xt := randTensor(r, tensor.Float, 3, 700)
		xv, _ := tensor.Data[float32](xt)
		for i := range xv {
			xv[i] *= 8
		}
		xv[0], xv[1], xv[2], xv[3], xv[4] = float32(math.NaN()), float32(math.Inf(-1)), float32(math.Inf(1)), -3, float32(math.Copysign(0, -1))
		for _, threads := range []int{1, 2} {
			o := &graph.RunOptions{Threads: threads, Engine: graph.EngineFast}
			got, exp := runY(t, fused, xt, o), runY(t, plain, xt, o)
			gv, _ := tensor.Data[float32](got)
			ev, _ := tensor.Data[float32](exp)
			for i := range gv {
				if math.Float32bits(gv[i]) != math.Float32bits(ev[i]) {
					t.Fatalf("opset %d, %d threads: element %d is %v fused, %v unfused", opset, threads, i, gv[i], ev[i])
				}
			}
		}
	}
}

// HardSwish spelled out and PP-LCNet's affine block after it on a
// 96x40x40 map (PP-OCRv4's detector), fused and node by node, one core:
//
//	go test ./graph -run XXX -bench FusedHardSwish
func BenchmarkFusedHardSwish(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 27))
	bl := builder.New(11)
	x := bl.Input("x", tensor.Float, 1, 96, 40, 40)
	c := func(name string, v float32) builder.Value { return bl.Constant(name, tensor.Scalar(v)) }
	h := bl.Op("Div", bl.Op("Mul", x, bl.Op("Clip", bl.Op("Add", x, c("three", 3)), c("zero", 0), c("six", 6))), c("six2", 6))
	bl.Output("y", bl.Op("Add", bl.Op("Mul", h, c("scale", 1.25)), c("shift", -0.5)))
	fused, plain := loadBoth(&testing.T{}, bl)
	in := map[string]tensor.Value{"x": randTensor(r, tensor.Float, 1, 96, 40, 40)}
	for _, c := range []struct {
		name string
		m    *graph.Model
	}{{"fused", fused}, {"unfused", plain}} {
		b.Run(c.name, func(b *testing.B) {
			pool := graph.NewPool()
			o := &graph.RunOptions{Threads: 1, Pool: pool}
			for b.Loop() {
				out, err := c.m.Run(context.Background(), in, o)
				if err != nil {
					b.Fatal(err)
				}
				if err := pool.Release(out.Map()["y"]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
