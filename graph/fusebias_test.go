package graph_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// biasModel is x -> producer -> Add(constant "c" of shape cs, on either
// side) [-> Relu]; the producer is a Conv (bias or not) or a Gemm (C or
// not, beta 0.5 or 1, B transposed or not).
func biasModel(r *rand.Rand, dt tensor.DataType, prod string, cs []int, withBias, swap, relu bool) (*builder.Builder, *tensor.Tensor) {
	b := builder.New(22)
	var x, y builder.Value
	var xin *tensor.Tensor
	switch prod {
	case "Conv":
		c, m := 1+r.IntN(5), 1+r.IntN(6)
		k := 1 + 2*r.IntN(2)
		xin = randTensor(r, dt, 2, c, 7, 9)
		x = b.Input("x", dt, 2, c, 7, 9)
		args := []builder.Arg{x, b.Constant("w", randTensor(r, dt, m, c, k, k))}
		if withBias {
			args = append(args, b.Constant("b", randTensor(r, dt, m)))
		}
		args = append(args, builder.Ints("pads", k/2, k/2, k/2, k/2), builder.Name("conv"))
		y = b.Op("Conv", args...)
		for i := range cs {
			if cs[i] == -1 {
				cs[i] = m
			}
		}
	case "Gemm":
		n := 1 + r.IntN(20)
		xin = randTensor(r, dt, 5, 11)
		x = b.Input("x", dt, 5, 11)
		tb := r.IntN(2)
		w := randTensor(r, dt, 11, n)
		if tb == 1 {
			w = randTensor(r, dt, n, 11)
		}
		args := []builder.Arg{x, b.Constant("w", w)}
		if withBias {
			args = append(args, b.Constant("b", randTensor(r, dt, n)))
		}
		args = append(args, builder.Int("transB", tb), builder.Float("beta", []float32{1, 0.5}[r.IntN(2)]), builder.Name("gemm"))
		y = b.Op("Gemm", args...)
		for i := range cs {
			if cs[i] == -1 {
				cs[i] = n
			}
		}
	}
	c := b.Constant("c", randTensor(r, dt, cs...))
	if swap {
		y = b.Op("Add", c, y, builder.Name("add"))
	} else {
		y = b.Op("Add", y, c, builder.Name("add"))
	}
	if relu {
		y = b.Op("Relu", y, builder.Name("relu"))
	}
	b.Output("y", y)
	return b, xin
}

// A constant Add after a Conv or a Gemm folds into its bias: the fused
// model's outputs lie within eps*(4|y| + 2|B| + 3|c|) of the unfused (the
// bound ops/epilogue.go states; checked at twice that, |B| and |c| the
// largest bias and constant), fused with the Relu after it; the reference
// engine, the SONNX profile and NoFuse run the nodes as written.
func TestBiasAddFoldWithinBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 24))
	convShapes := [][]int{{-1, 1, 1}, {1, -1, 1, 1}, {1}, {}, {1, 1, 1, 1}, {-1, 1, 1}}
	gemmShapes := [][]int{{-1}, {1, -1}, {1}, {}, {1, 1}}
	for iter := range 60 {
		dt, eps := tensor.Float, 0x1p-24
		if iter%3 == 2 {
			dt, eps = tensor.Double, 0x1p-53
		}
		prod, cs := "Conv", append([]int(nil), convShapes[r.IntN(len(convShapes))]...)
		if iter%2 == 1 {
			prod, cs = "Gemm", append([]int(nil), gemmShapes[r.IntN(len(gemmShapes))]...)
		}
		relu := r.IntN(2) == 0
		b, x := biasModel(r, dt, prod, cs, r.IntN(2) == 0, r.IntN(2) == 0, relu)
		fused, plain := loadBoth(t, b)
		want := 1
		if relu {
			want = 2
		}
		if fused.Fusions() != want || plain.Fusions() != 0 {
			t.Fatalf("%d: %s + Add %v (relu %v): %d fusions, want %d (NoFuse: %d)", iter, prod, cs, relu, fused.Fusions(), want, plain.Fusions())
		}
		fast := &graph.RunOptions{Engine: graph.EngineFast, Threads: 1 + r.IntN(2)}
		got, exp := values64t(runY(t, fused, x, fast)), values64t(runY(t, plain, x, fast))
		var maxB, maxC float64
		for _, v := range values64(b, "c") {
			maxC = max(maxC, math.Abs(v))
		}
		if _, err := b.ModelProto(); err == nil && strings.Contains(must(b.ModelProto()).String(), `name:"b"`) {
			for _, v := range values64(b, "b") {
				maxB = max(maxB, math.Abs(v))
			}
		}
		for i := range exp {
			bound := 2 * eps * (4*math.Abs(exp[i]) + 2*maxB + 3*maxC)
			if d := math.Abs(got[i] - exp[i]); d > bound {
				t.Fatalf("%d: %s %v element %d: fused %v, unfused %v: %g apart, bound %g", iter, prod, dt, i, got[i], exp[i], d, bound)
			}
		}
		if !runY(t, fused, x, &graph.RunOptions{Engine: graph.EngineReference}).Equal(runY(t, plain, x, &graph.RunOptions{Engine: graph.EngineReference})) {
			t.Fatalf("%d: the reference engine ran the fused model differently", iter)
		}
		// SONNX runs the nodes as written: the same outputs, or the same
		// error (its Add does not broadcast).
		sonnx := &graph.RunOptions{Profile: ops.ProfileSONNX}
		gf, errf := fused.Run(context.Background(), map[string]tensor.Value{"x": x}, sonnx)
		gp, errp := plain.Run(context.Background(), map[string]tensor.Value{"x": x}, sonnx)
		if (errf == nil) != (errp == nil) || (errf != nil && errf.Error() != errp.Error()) ||
			(errf == nil && !gf.Map()["y"].(*tensor.Tensor).Equal(gp.Map()["y"].(*tensor.Tensor))) {
			t.Fatalf("%d: SONNX ran the fused model differently: %v / %v", iter, errf, errp)
		}
	}
}

// What must not fold: a constant not along the channels (Conv) or the
// last axis (Gemm), a constant of rank above 1 or not of N values after a
// MatMul, an Add of two computed values, a Conv whose weights a graph
// input may override.
func TestBiasAddFoldLeavesOthersAlone(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 24))
	dt := tensor.Float
	for _, cs := range [][]int{{1, 1, 1, 9}, {1, 1, 7, 1}, {2, 1, 1, 1}, {1, 1, 1, 1, 1}} {
		b, _ := biasModel(r, dt, "Conv", cs, true, false, false)
		if fused, _ := loadBoth(t, b); fused.Fusions() != 0 {
			t.Fatalf("Conv + Add %v folded", cs)
		}
	}
	for _, cs := range [][]int{{5, 1}, {5, -1}} {
		b, _ := biasModel(r, dt, "Gemm", cs, true, false, false)
		if fused, _ := loadBoth(t, b); fused.Fusions() != 0 {
			t.Fatalf("Gemm + Add %v folded", cs)
		}
	}
	for _, cs := range [][]int{{1, 4}, {3, 4}, {1, 1, 4}} {
		b := builder.New(22)
		x := b.Input("x", dt, 3, 11)
		y := b.Op("MatMul", x, b.Constant("w", randTensor(r, dt, 11, 4)))
		b.Output("y", b.Op("Add", y, b.Constant("c", randTensor(r, dt, cs...))))
		if fused, _ := loadBoth(t, b); fused.Fusions() != 0 {
			t.Fatalf("MatMul + Add %v folded", cs)
		}
	}
	b := builder.New(22)
	x := b.Input("x", dt, 1, 2, 5, 5)
	conv := b.Op("Conv", x, b.Constant("w", randTensor(r, dt, 3, 2, 3, 3)))
	b.Output("y", b.Op("Add", conv, b.Op("Neg", conv)))
	if fused, _ := loadBoth(t, b); fused.Fusions() != 0 {
		t.Fatal("an Add of two computed values folded")
	}
}

// Conv -> BatchNormalization -> Add(bias) -> Relu: all three fold into
// the Conv; its errors name it and the memory plan still names every
// node.
func TestBiasAddFoldAfterBatchNorm(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 24))
	dt := tensor.Float
	b := builder.New(15)
	x := b.Input("x", dt, 1, 3, 6, 6)
	y := b.Op("Conv", x, b.Constant("w", randTensor(r, dt, 4, 3, 3, 3)), builder.Ints("pads", 1, 1, 1, 1), builder.Name("conv"))
	one := tensor.MustFromSlice([]float32{1, 1.5, 0.75, 2}, 4)
	y = b.Op("BatchNormalization", y, b.Constant("scale", one), b.Constant("bias", randTensor(r, dt, 4)), b.Constant("mean", randTensor(r, dt, 4)), b.Constant("var", one), builder.Name("bn"))
	y = b.Op("Add", b.Constant("c", randTensor(r, dt, 4, 1, 1)), y, builder.Name("add"))
	b.Output("y", b.Op("Relu", y, builder.Name("relu")))
	fused, plain := loadBoth(t, b)
	if fused.Fusions() != 3 {
		t.Fatalf("%d fusions, want 3", fused.Fusions())
	}
	xin := randTensor(r, dt, 1, 3, 6, 6)
	got, exp := values64t(runY(t, fused, xin, nil)), values64t(runY(t, plain, xin, nil))
	for i := range exp {
		if math.Abs(got[i]-exp[i]) > 1e-5*(1+math.Abs(exp[i])) {
			t.Fatalf("element %d: fused %v, unfused %v", i, got[i], exp[i])
		}
	}
	// An error names the node that made it: the Conv, whose output passes
	// a small cap.
	_, err := fused.Run(context.Background(), map[string]tensor.Value{"x": xin}, &graph.RunOptions{MaxTensorBytes: 200})
	if err == nil || !strings.Contains(err.Error(), `"conv"`) {
		t.Fatalf("error %v, want one naming the Conv", err)
	}
	// The memory plan (the trace of a run) still lists every node.
	plan, err := fused.MemoryPlan(context.Background(), map[string][]int{"x": xin.Shape()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range plan.Steps {
		names = append(names, s.Node)
	}
	if j := strings.Join(names, ","); !strings.Contains(j, "conv") || !strings.Contains(j, "bn") || !strings.Contains(j, "add") || !strings.Contains(j, "relu") {
		t.Fatalf("the plan lists %v", names)
	}
}

// MatMul -> Add(constant of N or 1 values) [-> Relu] folds: the product
// adds the constant in place, the same bits as the nodes unfused, on a
// batch of A (stacked rows) or a 1-D A; NoFuse, the reference engine and
// the SONNX profile run the nodes as written; an error of the fused run
// names the MatMul.
func TestMatMulBiasFoldSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 24))
	for iter := range 40 {
		dt := tensor.Float
		if iter%4 == 3 {
			dt = tensor.Double
		}
		n, k := 1+r.IntN(100), 1+r.IntN(300)
		xs := [][]int{{k}, {5, k}, {3, 7, k}, {2, 1, 33, k}}[r.IntN(4)]
		cs := [][]int{{n}, {1}, {}}[r.IntN(3)]
		relu := r.IntN(2) == 0
		b := builder.New(17)
		x := b.Input("x", dt, xs...)
		y := b.Op("MatMul", x, b.Constant("w", randTensor(r, dt, k, n)), builder.Name("mm"))
		c := b.Constant("c", randTensor(r, dt, cs...))
		if r.IntN(2) == 0 {
			y = b.Op("Add", c, y, builder.Name("add"))
		} else {
			y = b.Op("Add", y, c, builder.Name("add"))
		}
		if relu {
			y = b.Op("Relu", y, builder.Name("relu"))
		}
		b.Output("y", y)
		fused, plain := loadBoth(t, b)
		want := 1
		if relu {
			want = 2
		}
		if fused.Fusions() != want || plain.Fusions() != 0 {
			t.Fatalf("%d: MatMul %v + Add %v (relu %v): %d fusions, want %d (NoFuse: %d)", iter, xs, cs, relu, fused.Fusions(), want, plain.Fusions())
		}
		xin := randTensor(r, dt, xs...)
		for _, opt := range []*graph.RunOptions{
			{Engine: graph.EngineFast, Threads: 1 + r.IntN(2)},
			{Engine: graph.EngineReference},
			{Profile: ops.ProfileSONNX},
		} {
			gf, errf := fused.Run(context.Background(), map[string]tensor.Value{"x": xin}, opt)
			gp, errp := plain.Run(context.Background(), map[string]tensor.Value{"x": xin}, opt)
			if (errf == nil) != (errp == nil) || (errf != nil && errf.Error() != errp.Error()) {
				t.Fatalf("%d: errors %v / %v", iter, errf, errp)
			}
			if errf == nil && !gf.Map()["y"].(*tensor.Tensor).Equal(gp.Map()["y"].(*tensor.Tensor)) {
				t.Fatalf("%d: MatMul %v + Add %v (relu %v), engine %v profile %v: fused and unfused differ", iter, xs, cs, relu, opt.Engine, opt.Profile)
			}
		}
		_, err := fused.Run(context.Background(), map[string]tensor.Value{"x": xin}, &graph.RunOptions{MaxTensorBytes: 4})
		if err == nil || !strings.Contains(err.Error(), `"mm"`) {
			t.Fatalf("error %v, want one naming the MatMul", err)
		}
	}
}

// Conv [-> BatchNormalization] -> Add(residual R) [-> Relu] fuses when R
// is computed before the Conv: the Conv adds R to each finished block and
// then runs the Relu, the same bits as the nodes unfused (float and
// double, R on either side, one or two threads; R of another shape, which
// the Add broadcasts, through the Add's own kernel); the reference
// engine, SONNX and NoFuse run the nodes as written; R computed after the
// Conv leaves the pair apart; errors name the Conv.
func TestResidualAddFusedSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 24))
	for iter := range 40 {
		dt := tensor.Float
		if iter%4 == 3 {
			dt = tensor.Double
		}
		c, m := 1+r.IntN(6), 1+r.IntN(9)
		h, w := 3+r.IntN(20), 3+r.IntN(20)
		bcast := iter%5 == 4
		late := iter%7 == 6
		bn, relu, swap := r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0
		b := builder.New(17)
		x := b.Input("x", dt, 2, c, h, w)
		rs := []int{2, m, h, w}
		if bcast {
			rs = []int{1, m, 1, 1}
		}
		rin := b.Input("r", dt, rs...)
		var res builder.Value
		if !late {
			res = b.Op("Neg", rin, builder.Name("neg"))
		}
		y := b.Op("Conv", x, b.Constant("w", randTensor(r, dt, m, c, 3, 3)), b.Constant("b", randTensor(r, dt, m)), builder.Ints("pads", 1, 1, 1, 1), builder.Name("conv"))
		if bn {
			pos := make([]float64, m)
			for i := range pos {
				pos[i] = 0.5 + r.Float64()
			}
			one := tensor.MustFromSlice(pos, m)
			if dt == tensor.Float {
				f := make([]float32, m)
				for i, v := range pos {
					f[i] = float32(v)
				}
				one = tensor.MustFromSlice(f, m)
			}
			y = b.Op("BatchNormalization", y, b.Constant("scale", one), b.Constant("bias", randTensor(r, dt, m)), b.Constant("mean", randTensor(r, dt, m)), b.Constant("var", one), builder.Name("bn"))
		}
		if late {
			res = b.Op("Neg", rin, builder.Name("neg"))
		}
		b.Output("y", residualAdd(b, y, res, swap, relu))
		fused, plain := loadBoth(t, b)
		want := 0
		if !late {
			want = 1
			if relu {
				want++
			}
		}
		if bn {
			want++
		}
		if fused.Fusions() != want || plain.Fusions() != 0 {
			t.Fatalf("%d: bn %v late %v relu %v: %d fusions, want %d", iter, bn, late, relu, fused.Fusions(), want)
		}
		in := map[string]tensor.Value{"x": randTensor(r, dt, 2, c, h, w), "r": randTensor(r, dt, rs...)}
		for _, opt := range []*graph.RunOptions{
			{Engine: graph.EngineFast, Threads: 1 + r.IntN(2)},
			{Engine: graph.EngineReference},
			{Profile: ops.ProfileSONNX},
		} {
			if bn && opt.Engine == graph.EngineFast {
				// The folded BatchNormalization rounds differently: compare
				// with the same fold and no residual fusion instead.
				continue
			}
			sameFusedPlain(t, fused, plain, in, opt, fmt.Sprintf("%d: bcast %v relu %v swap %v", iter, bcast, relu, swap))
		}
		if bn {
			// Against the same model with the residual computed by a
			// separate Add: the Neg moved after the Conv keeps the pair
			// apart but folds the BatchNormalization the same way.
			continue
		}
		_, err := fused.Run(context.Background(), in, &graph.RunOptions{MaxTensorBytes: 64})
		if err == nil || (!late && !strings.Contains(err.Error(), `"conv"`) && !strings.Contains(err.Error(), `"neg"`)) {
			t.Fatalf("%d: error %v, want one naming the Conv (or the Neg before it)", iter, err)
		}
	}
}

// TestMatMulResidualFusedSameBits checks that a MatMul (with its bias, a
// Transpose folded before it, an activation after) that fused the
// residual Add after it gives the bits of the nodes run one by one, on
// every engine, for a residual of the product's shape (added in place),
// a broadcast one and a large one (both through the Add's kernel).
func TestMatMulResidualFusedSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 25))
	for iter := range 24 {
		dt := tensor.Float
		if iter%4 == 3 {
			dt = tensor.Double
		}
		s, k, n := 1+r.IntN(40), 1+r.IntN(40), 1+r.IntN(40)
		if iter == 5 {
			s, k, n = 520, 8, 512 // past maxSerialResidual
		}
		bcast, late := iter%5 == 4, iter%7 == 6
		bias, relu, swap, trans := r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(3) == 0
		b := builder.New(17)
		xs := []int{2, s, k}
		if trans {
			xs = []int{s, 2, k} // a perm that keeps the last axis folds
		}
		x := b.Input("x", dt, xs...)
		rs := []int{2, s, n}
		if bcast {
			rs = []int{1, 1, n}
		}
		rin := b.Input("r", dt, rs...)
		var res builder.Value
		if !late {
			res = b.Op("Neg", rin, builder.Name("neg"))
		}
		if trans {
			x = b.Op("Transpose", x, builder.Ints("perm", 1, 0, 2), builder.Name("tr"))
		}
		y := b.Op("MatMul", x, b.Constant("w", randTensor(r, dt, k, n)), builder.Name("matmul"))
		if bias {
			y = b.Op("Add", y, b.Constant("bias", randTensor(r, dt, n)), builder.Name("bias"))
		}
		if late {
			res = b.Op("Neg", rin, builder.Name("neg"))
		}
		b.Output("y", residualAdd(b, y, res, swap, relu))
		fused, plain := loadBoth(t, b)
		want := 0
		for _, f := range []bool{bias, !late, !late && relu, trans} {
			if f {
				want++
			}
		}
		if fused.Fusions() != want || plain.Fusions() != 0 {
			t.Fatalf("%d: bias %v late %v relu %v trans %v: %d fusions, want %d", iter, bias, late, relu, trans, fused.Fusions(), want)
		}
		in := map[string]tensor.Value{"x": randTensor(r, dt, xs...), "r": randTensor(r, dt, rs...)}
		for _, opt := range []*graph.RunOptions{
			{Engine: graph.EngineFast, Threads: 1 + r.IntN(2)},
			{Engine: graph.EngineReference},
			{Profile: ops.ProfileSONNX},
		} {
			sameFusedPlain(t, fused, plain, in, opt, fmt.Sprintf("%d: bcast %v relu %v swap %v", iter, bcast, relu, swap))
		}
		if _, err := fused.Run(context.Background(), in, &graph.RunOptions{MaxTensorBytes: 64}); err == nil {
			t.Fatalf("%d: no error under a 64-byte cap", iter)
		}
	}
}

// residualAdd ends a residual test model: the Add of y and res (res
// first when swap), then a Relu when relu.
func residualAdd(b *builder.Builder, y, res builder.Value, swap, relu bool) builder.Value {
	if swap {
		y = b.Op("Add", res, y, builder.Name("add"))
	} else {
		y = b.Op("Add", y, res, builder.Name("add"))
	}
	if relu {
		y = b.Op("Relu", y, builder.Name("relu"))
	}
	return y
}

// sameFusedPlain runs the fused and the plain model on in under opt and
// fails unless both fail with the same error or give the same y.
func sameFusedPlain(t *testing.T, fused, plain *graph.Model, in map[string]tensor.Value, opt *graph.RunOptions, what string) {
	t.Helper()
	gf, errf := fused.Run(context.Background(), in, opt)
	gp, errp := plain.Run(context.Background(), in, opt)
	if (errf == nil) != (errp == nil) || (errf != nil && errf.Error() != errp.Error()) {
		t.Fatalf("%s: errors %v / %v", what, errf, errp)
	}
	if errf == nil && !gf.Map()["y"].(*tensor.Tensor).Equal(gp.Map()["y"].(*tensor.Tensor)) {
		t.Fatalf("%s, engine %v profile %v: fused and unfused differ", what, opt.Engine, opt.Profile)
	}
}
