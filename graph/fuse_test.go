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
	"github.com/onnxshape/onnxshape/tensor"
)

// randTensor is a tensor of dt with elements uniform in [-1, 1).
func randTensor(r *rand.Rand, dt tensor.DataType, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	if dt == tensor.Double {
		v := make([]float64, n)
		for i := range v {
			v[i] = 2*r.Float64() - 1
		}
		return tensor.MustFromSlice(v, shape...)
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(2*r.Float64() - 1)
	}
	return tensor.MustFromSlice(v, shape...)
}

func scalarOf(dt tensor.DataType, v float64) *tensor.Tensor {
	if dt == tensor.Double {
		return tensor.Scalar(v)
	}
	return tensor.Scalar(float32(v))
}

// loadBoth loads the model fused (the default) and with NoFuse.
func loadBoth(t *testing.T, b *builder.Builder) (fused, plain *graph.Model) {
	t.Helper()
	data, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if fused, err = graph.LoadBytes(data, ""); err != nil {
		t.Fatal(err)
	}
	if plain, err = graph.LoadBytesWith(data, "", graph.LoadOptions{NoFuse: true}); err != nil {
		t.Fatal(err)
	}
	return fused, plain
}

func runY(t *testing.T, m *graph.Model, x *tensor.Tensor, o *graph.RunOptions) *tensor.Tensor {
	t.Helper()
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, o)
	if err != nil {
		t.Fatal(err)
	}
	return out.Map()["y"].(*tensor.Tensor)
}

// activation adds the activation act on v, named name.
func activation(b *builder.Builder, act string, dt tensor.DataType, v builder.Value, name string) builder.Value {
	switch act {
	case "LeakyRelu":
		return b.Op(act, v, builder.Float("alpha", 0.07), builder.Name(name))
	case "HardSigmoid":
		return b.Op(act, v, builder.Float("alpha", 0.3), builder.Float("beta", 0.4), builder.Name(name))
	case "Clip":
		return b.Op(act, v, b.Constant(name+"_min", scalarOf(dt, -0.25)), b.Constant(name+"_max", scalarOf(dt, 0.5)), builder.Name(name))
	}
	return b.Op(act, v, builder.Name(name))
}

// Every producer with every activation, fused, gives the bits of the pair
// unfused (float and double; the Conv shapes take the depthwise, the
// 1x1 and the im2col paths).
func TestFusedActivationIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 24))
	acts := []string{"Relu", "LeakyRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Clip"}
	producers := []string{"Conv3x3", "ConvDepthwise", "Conv1x1", "Gemm", "MatMul"}
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Double} {
		for _, prod := range producers {
			for _, act := range acts {
				b := builder.New(22)
				var x, y builder.Value
				var xin *tensor.Tensor
				switch prod {
				case "Conv3x3", "ConvDepthwise", "Conv1x1":
					c, m, k, g := 5, 7, 3, 1
					if prod == "ConvDepthwise" {
						c, m, g = 6, 6, 6
					}
					if prod == "Conv1x1" {
						k = 1
					}
					xin = randTensor(r, dt, 2, c, 9, 21)
					x = b.Input("x", dt, 2, c, 9, 21)
					w := b.Constant("w", randTensor(r, dt, m, c/g, k, k))
					bias := b.Constant("b", randTensor(r, dt, m))
					y = b.Op("Conv", x, w, bias, builder.Ints("pads", k/2, k/2, k/2, k/2), builder.Int("group", g), builder.Name("conv"))
				case "Gemm":
					xin = randTensor(r, dt, 13, 11)
					x = b.Input("x", dt, 13, 11)
					y = b.Op("Gemm", x, b.Constant("w", randTensor(r, dt, 11, 17)), b.Constant("c", randTensor(r, dt, 17)), builder.Name("gemm"))
				case "MatMul":
					xin = randTensor(r, dt, 3, 13, 11)
					x = b.Input("x", dt, 3, 13, 11)
					y = b.Op("MatMul", x, b.Constant("w", randTensor(r, dt, 11, 17)), builder.Name("matmul"))
				}
				b.Output("y", activation(b, act, dt, y, "act"))
				fused, plain := loadBoth(t, b)
				if fused.Fusions() != 1 || plain.Fusions() != 0 {
					t.Fatalf("%v %s+%s: %d fusions fused, %d with NoFuse", dt, prod, act, fused.Fusions(), plain.Fusions())
				}
				for _, threads := range []int{1, 2} {
					o := &graph.RunOptions{Threads: threads, Engine: graph.EngineFast}
					got, want := runY(t, fused, xin, o), runY(t, plain, xin, o)
					if !got.Equal(want) {
						t.Fatalf("%v %s+%s, %d threads: fused and unfused differ", dt, prod, act, threads)
					}
				}
			}
		}
	}
}

// convBN is x -> Conv (no bias or a bias) -> BatchNormalization -> Relu.
func convBN(r *rand.Rand, dt tensor.DataType, c, m, k, g, stride int, withBias bool) *builder.Builder {
	return convBNAt(r, dt, c, m, k, g, stride, withBias, 2, 12, 10)
}

// convBNAt is convBN over a batch of n h x w planes.
func convBNAt(r *rand.Rand, dt tensor.DataType, c, m, k, g, stride int, withBias bool, n, h, w int) *builder.Builder {
	b := builder.New(15)
	x := b.Input("x", dt, n, c, h, w)
	args := []builder.Arg{x, b.Constant("w", randTensor(r, dt, m, c/g, k, k))}
	if withBias {
		args = append(args, b.Constant("cb", randTensor(r, dt, m)))
	}
	args = append(args, builder.Ints("pads", k/2, k/2, k/2, k/2), builder.Int("group", g), builder.Ints("strides", stride, stride), builder.Name("conv"))
	y := b.Op("Conv", args...)
	pos := func(name string) builder.Value {
		t := randTensor(r, dt, m)
		if dt == tensor.Double {
			for i, v := range must(tensor.Data[float64](t)) {
				must(tensor.Data[float64](t))[i] = 0.5 + math.Abs(v)
			}
		} else {
			for i, v := range must(tensor.Data[float32](t)) {
				must(tensor.Data[float32](t))[i] = 0.5 + float32(math.Abs(float64(v)))
			}
		}
		return b.Constant(name, t)
	}
	y = b.Op("BatchNormalization", y, pos("scale"), b.Constant("bias", randTensor(r, dt, m)), b.Constant("mean", randTensor(r, dt, m)), pos("var"),
		builder.Float("epsilon", 1e-3), builder.Name("bn"))
	b.Output("y", b.Op("Relu", y, builder.Name("relu")))
	return b
}

// BatchNormalization folded into the Conv's weights stays within the
// bound ops/epilogue.go states of the reference engine's unfused pair:
// 2*(k+8)*eps*(k*M + B) + 4*eps*|y|, k the terms of an output (C/group
// times the taps), M max|X| times the largest folded weight, B the largest
// folded bias, eps float's or double's unit roundoff. The reference engine
// and a fused model under it never fuse.
func TestBatchNormFoldWithinBound(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 24))
	for iter := range 24 {
		dt := tensor.Float
		eps := 0x1p-24
		if iter%4 == 3 {
			dt, eps = tensor.Double, 0x1p-53
		}
		c, m, k, g := 1+r.IntN(6), 1+r.IntN(6), 1+2*r.IntN(2), 1
		if r.IntN(2) == 0 {
			m, g = c, c // depthwise
		}
		b := convBN(r, dt, c, m, k, g, 1+r.IntN(2), r.IntN(2) == 0)
		fused, plain := loadBoth(t, b)
		if fused.Fusions() != 2 {
			t.Fatalf("%d: %d fusions, want 2 (the BatchNormalization and the Relu)", iter, fused.Fusions())
		}
		if fused.PackedBytes() <= plain.PackedBytes() {
			t.Fatalf("%d: the folded weights are not counted (%d bytes, %d unfused)", iter, fused.PackedBytes(), plain.PackedBytes())
		}
		x := randTensor(r, dt, 2, c, 12, 10)
		ref := &graph.RunOptions{Engine: graph.EngineReference}
		want := runY(t, plain, x, ref)
		if !runY(t, fused, x, ref).Equal(want) {
			t.Fatalf("%d: the reference engine ran a fused model differently", iter)
		}
		got := runY(t, fused, x, &graph.RunOptions{Engine: graph.EngineFast})
		checkFoldBound(t, b, got, want, c, m, k, g, eps, fmt.Sprint(iter))
	}
}

// A Conv whose folded weights the model keeps only packed (on AVX-512:
// ops.PackConstants, conv.PackedOnly) reads them there, or unpacked where
// conv.PackedOnly cannot promise a run reads them packed alone (a block of
// one row on 2 cores: 25 channels over a 3x3 plane), never the stand-in
// of their shape, which holds the weights before the fold: within the
// fold's bound of the reference engine on 1-3 cores.
func TestFoldedWeightsPackedAlone(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 24))
	for _, tc := range []struct{ c, m, k, stride, h, w int }{
		{16, 64, 3, 1, 12, 10}, {24, 96, 1, 1, 12, 10}, {32, 72, 3, 2, 12, 10}, {8, 25, 1, 1, 3, 3},
		{8, 25, 3, 1, 3, 3}, {40, 130, 1, 2, 9, 7}, {16, 64, 1, 1, 7, 7}, {3, 64, 7, 2, 16, 16},
	} {
		b := convBNAt(r, tensor.Float, tc.c, tc.m, tc.k, 1, tc.stride, r.IntN(2) == 0, 1, tc.h, tc.w)
		fused, plain := loadBoth(t, b)
		x := randTensor(r, tensor.Float, 1, tc.c, tc.h, tc.w)
		want := runY(t, plain, x, &graph.RunOptions{Engine: graph.EngineReference})
		for th := 1; th <= 3; th++ {
			got := runY(t, fused, x, &graph.RunOptions{Engine: graph.EngineFast, Threads: th})
			checkFoldBound(t, b, got, want, tc.c, tc.m, tc.k, 1, 0x1p-24, fmt.Sprintf("%+v on %d cores", tc, th))
		}
	}
}

// checkFoldBound checks got, a fused run of convBN's model b, against
// want, the reference engine's, within the bound of
// TestBatchNormFoldWithinBound.
func checkFoldBound(t *testing.T, b *builder.Builder, got, want *tensor.Tensor, c, m, k, g int, eps float64, label string) {
	t.Helper()
	var maxW, maxB float64
	bn := func(name string) []float64 { return values64(b, name) }
	w, scale, vr, mean, bias := bn("w"), bn("scale"), bn("var"), bn("mean"), bn("bias")
	per := len(w) / m
	for i := range m {
		a := math.Abs(scale[i] / math.Sqrt(vr[i]+float64(float32(1e-3))))
		for _, v := range w[i*per : (i+1)*per] {
			maxW = max(maxW, math.Abs(v)*a)
		}
		maxB = max(maxB, math.Abs(bias[i])+math.Abs(mean[i])*a+2*a)
	}
	terms := float64(c / g * k * k)
	gv, wv := values64t(got), values64t(want)
	for i := range wv {
		bound := 2*(terms+8)*eps*(terms*maxW+maxB) + 4*eps*math.Abs(wv[i])
		if d := math.Abs(gv[i] - wv[i]); d > bound {
			t.Fatalf("%s: element %d: fused %v, reference %v: %g apart, bound %g", label, i, gv[i], wv[i], d, bound)
		}
	}
}

// values64 is the constant name of the builder's model as float64s.
func values64(b *builder.Builder, name string) []float64 {
	mp, err := b.ModelProto()
	if err != nil {
		panic(err)
	}
	for _, init := range mp.GetGraph().GetInitializer() {
		if init.GetName() == name {
			if len(init.GetFloatData()) > 0 {
				out := make([]float64, len(init.GetFloatData()))
				for i, v := range init.GetFloatData() {
					out[i] = float64(v)
				}
				return out
			}
			if len(init.GetDoubleData()) > 0 {
				return init.GetDoubleData()
			}
			raw := init.GetRawData()
			if init.GetDataType() == int32(tensor.Double) {
				out := make([]float64, len(raw)/8)
				for i := range out {
					var u uint64
					for j := 7; j >= 0; j-- {
						u = u<<8 | uint64(raw[8*i+j])
					}
					out[i] = math.Float64frombits(u)
				}
				return out
			}
			out := make([]float64, len(raw)/4)
			for i := range out {
				u := uint32(raw[4*i]) | uint32(raw[4*i+1])<<8 | uint32(raw[4*i+2])<<16 | uint32(raw[4*i+3])<<24
				out[i] = float64(math.Float32frombits(u))
			}
			return out
		}
	}
	panic("no initializer " + name)
}

func values64t(t *tensor.Tensor) []float64 {
	if t.DataType() == tensor.Double {
		return must(tensor.Data[float64](t))
	}
	v := must(tensor.Data[float32](t))
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// What fusion must leave alone: a value read twice or returned, a Conv
// whose weights a graph input may override, and a run that asks for the
// value fusion changes (RunOptions.Outputs).
func TestFusionLeavesSharedValuesAlone(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 24))
	dt := tensor.Float
	x := randTensor(r, dt, 1, 2, 5, 5)
	// conv read by Relu and by Neg.
	b := builder.New(22)
	xv := b.Input("x", dt, 1, 2, 5, 5)
	conv := b.Op("Conv", xv, b.Constant("w", randTensor(r, dt, 3, 2, 3, 3)), builder.Ints("pads", 1, 1, 1, 1), builder.Name("conv"))
	b.Output("y", b.Op("Relu", conv))
	b.Output("z", b.Op("Neg", conv))
	if fused, _ := loadBoth(t, b); fused.Fusions() != 0 {
		t.Fatalf("a value read twice fused")
	}
	// conv returned.
	b = builder.New(22)
	xv = b.Input("x", dt, 1, 2, 5, 5)
	conv = b.Op("Conv", xv, b.Constant("w", randTensor(r, dt, 3, 2, 3, 3)), builder.Ints("pads", 1, 1, 1, 1), builder.Name("conv"))
	b.Output("c", conv)
	b.Output("y", b.Op("Relu", conv))
	if fused, _ := loadBoth(t, b); fused.Fusions() != 0 {
		t.Fatalf("a graph output fused")
	}
	// Outputs naming the Conv's value: the run does not fuse.
	b = builder.New(22)
	xv = b.Input("x", dt, 1, 2, 5, 5)
	conv = b.Op("Conv", xv, b.Constant("w", randTensor(r, dt, 3, 2, 3, 3)), builder.Ints("pads", 1, 1, 1, 1), builder.Name("conv"))
	b.Output("y", b.Op("Relu", conv, builder.Name("relu")))
	fused, plain := loadBoth(t, b)
	if fused.Fusions() != 1 {
		t.Fatalf("%d fusions, want 1", fused.Fusions())
	}
	name := conv.Name()
	o := &graph.RunOptions{Outputs: []string{name, "y"}}
	got, err := fused.Run(context.Background(), map[string]tensor.Value{"x": x}, o)
	if err != nil {
		t.Fatal(err)
	}
	want, err := plain.Run(context.Background(), map[string]tensor.Value{"x": x}, o)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Map()[name].(*tensor.Tensor).Equal(want.Map()[name].(*tensor.Tensor)) || !got.Map()["y"].(*tensor.Tensor).Equal(want.Map()["y"].(*tensor.Tensor)) {
		t.Fatal("a run asking for the Conv's value got the fused one")
	}
	// The memory plan (the trace of a run) still lists both nodes.
	plan, err := fused.MemoryPlan(context.Background(), map[string][]int{"x": x.Shape()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range plan.Steps {
		names = append(names, s.Node)
	}
	if j := strings.Join(names, ","); !strings.Contains(j, "conv") || !strings.Contains(j, "relu") {
		t.Fatalf("the plan lists %v", names)
	}
}

// An error of the fused activation names it, inside the producer's node
// error: Clip's bounds of another type than its input.
func TestFusedActivationErrorNamesIt(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 24))
	b := builder.New(22)
	xv := b.Input("x", tensor.Float, 1, 2, 5, 5)
	conv := b.Op("Conv", xv, b.Constant("w", randTensor(r, tensor.Float, 3, 2, 3, 3)), builder.Name("conv"))
	b.Output("y", b.Op("Clip", conv, b.Constant("lo", tensor.Scalar(0.0)), builder.Name("clip6")))
	data, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	m, err := graph.LoadBytes(data, "")
	if err != nil {
		t.Skipf("refused at load: %v", err)
	}
	_, err = m.Run(context.Background(), map[string]tensor.Value{"x": randTensor(r, tensor.Float, 1, 2, 5, 5)}, nil)
	if err == nil || !strings.Contains(err.Error(), "clip6") || !strings.Contains(err.Error(), "bounds") {
		t.Fatalf("error %v, want one naming clip6 and its rule", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A Conv's fused Relu or Clip on float32 runs in the product's kernels,
// with the bias (conv.Config.Clamp32): the bits are still those of the
// pair unfused, with NaN, infinities and signed zeros in the input and the
// bias, bounds absent or crossed, and products of more rows than the
// kernels take in place (the 1x1 and the implicit 3x3 paths).
func TestFusedClampInTheProductIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 26))
	inf := float32(math.Inf(1))
	special := []float32{float32(math.NaN()), inf, -inf, float32(math.Copysign(0, -1)), 0, 6, -6}
	type clip struct {
		name   string
		lo, hi *float32
	}
	f := func(v float32) *float32 { return &v }
	acts := []clip{{name: "Relu"}, {"Clip", f(0), f(6)}, {"Clip", f(-0.5), nil}, {"Clip", nil, f(0.25)}, {"Clip", f(1), f(-1)}, {"Clip", nil, nil}}
	for _, k := range []int{1, 3} {
		for _, act := range acts {
			for _, c := range []int{5, 70} {
				m := 64 + r.IntN(40)
				b := builder.New(22)
				sprinkled := func(n, every int) []float32 {
					v := make([]float32, n)
					for i := range v {
						v[i] = float32(2*r.Float64() - 1)
					}
					for i := 0; i < n; i += 1 + r.IntN(every) {
						v[i] = special[r.IntN(len(special))]
					}
					return v
				}
				xin := tensor.MustFromSlice(sprinkled(c*11*13, 97), 1, c, 11, 13)
				bias := tensor.MustFromSlice(sprinkled(m, 13), m)
				x := b.Input("x", tensor.Float, 1, c, 11, 13)
				y := b.Op("Conv", x, b.Constant("w", randTensor(r, tensor.Float, m, c, k, k)), b.Constant("b", bias), builder.Ints("pads", k/2, k/2, k/2, k/2), builder.Name("conv"))
				var out builder.Value
				if act.name == "Relu" {
					out = b.Op("Relu", y, builder.Name("act"))
				} else {
					args := []builder.Arg{y}
					for i, v := range []*float32{act.lo, act.hi} {
						if v == nil {
							args = append(args, builder.None)
						} else {
							args = append(args, b.Constant(fmt.Sprintf("bound%d", i), tensor.Scalar(*v)))
						}
					}
					out = b.Op("Clip", append(args, builder.Name("act"))...)
				}
				b.Output("y", out)
				fused, plain := loadBoth(t, b)
				if fused.Fusions() != 1 {
					t.Fatalf("%dx%d %s: %d fusions, want 1", k, k, act.name, fused.Fusions())
				}
				for _, threads := range []int{1, 2} {
					o := &graph.RunOptions{Threads: threads, Engine: graph.EngineFast}
					got, want := runY(t, fused, xin, o), runY(t, plain, xin, o)
					if !got.Equal(want) {
						t.Fatalf("%dx%d, %d channels, %s %v %v, %d threads: fused and unfused differ", k, k, c, act.name, act.lo, act.hi, threads)
					}
				}
			}
		}
	}
}
