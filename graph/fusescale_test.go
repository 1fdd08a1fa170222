package graph_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// A squeeze-and-excitation block (a 1x1 expansion and a depthwise Conv,
// each with Relu, HardSwish or SiLU spelled x*Sigmoid(x), GlobalAveragePool, two
// 1x1 Convs, Sigmoid or HardSigmoid, the Mul of the depthwise output by the
// scale, in either order, and the 1x1 projection, with its bias or a folded
// BatchNormalization, with or without a residual Add) whose Mul runs the
// projection and whose expansion runs the depthwise Conv gives the bits of
// the same model with the Mul's output and the expansion's also returned
// (a second reader keeps them apart), pooled, 1 and 2 threads, on planes
// from 7x7 to 112x112 (by bands); and it stays within a float32 tolerance
// of the reference engine.
func TestFusedScaleIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 22))
	for iter, tc := range []struct {
		c, m, side, stride int
		gate, act          string
		bn, swap           bool
		residual           bool
	}{
		{96, 24, 56, 1, "Sigmoid", "SiLU", true, false, false},
		{96, 24, 112, 2, "Sigmoid", "SiLU", false, false, false},
		{144, 24, 40, 1, "Sigmoid", "Relu", false, true, true},
		{240, 40, 28, 1, "HardSigmoid", "HardSwish", true, false, true},
		{576, 96, 7, 1, "HardSigmoid", "SiLU", false, false, true},
		{120, 48, 14, 1, "Sigmoid", "Relu", true, true, false},
	} {
		dt := tensor.Float
		sq := max(tc.c/4, 1)
		wD, bD := randTensor(r, dt, tc.c, 1, 3, 3), randTensor(r, dt, tc.c)
		w1, b1 := randTensor(r, dt, sq, tc.c, 1, 1), randTensor(r, dt, sq)
		w2, b2 := randTensor(r, dt, tc.c, sq, 1, 1), randTensor(r, dt, tc.c)
		wP, bP := randTensor(r, dt, tc.m, tc.c, 1, 1), randTensor(r, dt, tc.m)
		bn := [4]*tensor.Tensor{randTensor(r, dt, tc.m), randTensor(r, dt, tc.m), randTensor(r, dt, tc.m), absTensor(randTensor(r, dt, tc.m))}
		xc := tc.c
		if tc.residual {
			xc = tc.m
		}
		// With a residual the block's input has m channels: a 1x1 Conv
		// makes the c the depthwise reads.
		wX := randTensor(r, dt, tc.c, xc, 1, 1)
		build := func(apart bool) *builder.Builder {
			b := builder.New(14)
			x := b.Input("x", dt, 1, xc, tc.side, tc.side)
			conv := func(name string, v builder.Value, w, bias *tensor.Tensor, attrs ...builder.Attr) builder.Value {
				args := []builder.Arg{v, b.Constant(name+"_w", w)}
				if bias != nil {
					args = append(args, b.Constant(name+"_b", bias))
				}
				return b.Op("Conv", append(append(args, builder.Name(name)), anyAttrs(attrs)...)...)
			}
			act := func(v builder.Value, name string) builder.Value {
				if tc.act == "SiLU" {
					return b.Op("Mul", v, b.Op("Sigmoid", v, builder.Name(name+"_sigmoid")), builder.Name(name))
				}
				return b.Op(tc.act, v, builder.Name(name))
			}
			e := act(conv("expand", x, wX, nil), "expand_act")
			d := act(conv("dw", e, wD, bD, builder.Ints("pads", 1, 1, 1, 1), builder.Int("group", tc.c), builder.Ints("strides", tc.stride, tc.stride)), "dw_act")
			p := b.Op("GlobalAveragePool", d, builder.Name("gap"))
			s := b.Op("Relu", conv("fc1", p, w1, b1), builder.Name("fc1_relu"))
			s = b.Op(tc.gate, conv("fc2", s, w2, b2), builder.Name("gate"))
			var scaled builder.Value
			if tc.swap {
				scaled = b.Op("Mul", s, d, builder.Name("scale"))
			} else {
				scaled = b.Op("Mul", d, s, builder.Name("scale"))
			}
			y := conv("project", scaled, wP, bP)
			if tc.bn {
				y = b.Op("BatchNormalization", y, b.Constant("bn_s", bn[0]), b.Constant("bn_b", bn[1]),
					b.Constant("bn_mean", bn[2]), b.Constant("bn_var", bn[3]), builder.Name("bn"))
			}
			if tc.residual && tc.stride == 1 {
				y = b.Op("Add", y, x, builder.Name("residual"))
			}
			b.Output("y", y)
			if apart {
				b.Output("scaled", scaled)
				b.Output("expanded", e)
			}
			return b
		}
		fused, _ := loadBoth(t, build(false))
		apart, plain := loadBoth(t, build(true))
		if fused.Fusions() != apart.Fusions()+2 {
			t.Fatalf("case %d: %d fusions, %d with the scale and the front apart", iter, fused.Fusions(), apart.Fusions())
		}
		oside := (tc.side-1)/tc.stride + 1
		x := randTensor(r, dt, 1, xc, tc.side, tc.side)
		xv := must(tensor.Data[float32](x))
		// No NaN or infinity: through the pool and the scale one would
		// reach every output (the engine's own test, package conv, has them).
		xv[0], xv[37] = float32(math.Copysign(0, -1)), 1e3
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
