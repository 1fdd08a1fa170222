package graph_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// An inverted residual block (1x1 expand, depthwise 3x3 stride 1 or 2, 1x1
// project, with or without the residual Add, each Conv with its bias or a
// folded BatchNormalization and Relu6 (Clip), HardSwish or none) fused
// into the projection gives the bits of the same model with the block
// kept apart (the expansion's activation also returned: a second reader),
// on planes that run by bands (the expanded tensor of 1 MB or more) and
// planes that do not, pooled, 1 and 2 threads; and it stays within a
// float32 tolerance of the reference engine.
func TestFusedBlockIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 21))
	for iter, tc := range []struct {
		c, e, m, side, stride int
		act                   string
		bn, residual          bool
	}{
		{16, 96, 24, 56, 2, "Clip", true, false},
		{24, 144, 24, 40, 1, "Clip", true, true},
		{24, 144, 24, 40, 1, "HardSwish", false, true},
		{16, 96, 16, 52, 1, "Relu", false, false},
		{32, 192, 32, 14, 1, "Clip", true, true},
		{24, 144, 32, 45, 2, "HardSwish", true, false},
	} {
		dt := tensor.Float
		oside := (tc.side+2-3)/tc.stride + 1
		wE, bE := randTensor(r, dt, tc.e, tc.c, 1, 1), randTensor(r, dt, tc.e)
		wD, bD := randTensor(r, dt, tc.e, 1, 3, 3), randTensor(r, dt, tc.e)
		wP, bP := randTensor(r, dt, tc.m, tc.e, 1, 1), randTensor(r, dt, tc.m)
		bns := make([][4]*tensor.Tensor, 3)
		for k, ch := range []int{tc.e, tc.e, tc.m} {
			bns[k] = [4]*tensor.Tensor{randTensor(r, dt, ch), randTensor(r, dt, ch), randTensor(r, dt, ch), absTensor(randTensor(r, dt, ch))}
		}
		build := func(apart bool) *builder.Builder {
			b := builder.New(14)
			x := b.Input("x", dt, 1, tc.c, tc.side, tc.side)
			conv := func(k int, v builder.Value, w, bias *tensor.Tensor, attrs ...builder.Attr) builder.Value {
				name := fmt.Sprint("conv", k)
				y := b.Op("Conv", append([]builder.Arg{v, b.Constant(name+"_w", w), b.Constant(name+"_b", bias), builder.Name(name)}, anyAttrs(attrs)...)...)
				if tc.bn {
					p := bns[k]
					y = b.Op("BatchNormalization", y, b.Constant(name+"_s", p[0]), b.Constant(name+"_bb", p[1]),
						b.Constant(name+"_mean", p[2]), b.Constant(name+"_var", p[3]), builder.Name(name+"_bn"))
				}
				return y
			}
			act := func(v builder.Value, name string) builder.Value {
				if tc.act == "Clip" {
					return b.Op("Clip", v, b.Constant(name+"_min", scalarOf(dt, 0)), b.Constant(name+"_max", scalarOf(dt, 6)), builder.Name(name))
				}
				return b.Op(tc.act, v, builder.Name(name))
			}
			e := act(conv(0, x, wE, bE), "act0")
			d := act(conv(1, e, wD, bD, builder.Ints("pads", 1, 1, 1, 1), builder.Int("group", tc.e), builder.Ints("strides", tc.stride, tc.stride)), "act1")
			y := conv(2, d, wP, bP)
			if tc.residual {
				y = b.Op("Add", y, x, builder.Name("residual"))
			}
			b.Output("y", y)
			if apart {
				b.Output("expanded", e)
			}
			return b
		}
		fused, _ := loadBoth(t, build(false))
		apart, plain := loadBoth(t, build(true))
		if fused.Fusions() != apart.Fusions()+2 {
			t.Fatalf("case %d: %d fusions, %d with the block apart", iter, fused.Fusions(), apart.Fusions())
		}
		x := randTensor(r, dt, 1, tc.c, tc.side, tc.side)
		xv := must(tensor.Data[float32](x))
		xv[0], xv[77], xv[301] = float32(math.Inf(1)), float32(math.Copysign(0, -1)), float32(math.NaN())
		ref := runY(t, plain, x, &graph.RunOptions{Engine: graph.EngineReference})
		pool := graph.NewPool()
		for _, threads := range []int{1, 2} {
			for run := range 2 {
				o := &graph.RunOptions{Threads: threads, Engine: graph.EngineFast, Pool: pool}
				got, want := runY(t, fused, x, o), runY(t, apart, x, &graph.RunOptions{Threads: threads, Engine: graph.EngineFast})
				gv, wv, rv := values64t(got), values64t(want), values64t(ref)
				if len(gv) != tc.m*oside*oside {
					t.Fatalf("case %d: %d elements", iter, len(gv))
				}
				for i := range gv {
					if !sameBits(dt, gv[i], wv[i]) {
						t.Fatalf("case %d (%+v), %d threads, run %d: element %d is %v fused, %v apart", iter, tc, threads, run, i, gv[i], wv[i])
					}
					if !tc.bn && !(math.IsNaN(gv[i]) && math.IsNaN(rv[i])) && math.Abs(gv[i]-rv[i]) > 1e-3*(1+math.Abs(rv[i])) {
						t.Fatalf("case %d, %d threads: element %d is %v fused, %v by the reference engine", iter, threads, i, gv[i], rv[i])
					}
				}
			}
		}
	}
}

func anyAttrs(a []builder.Attr) []builder.Arg {
	out := make([]builder.Arg, len(a))
	for i, v := range a {
		out[i] = v
	}
	return out
}
