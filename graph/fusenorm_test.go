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

// normModel is x [rows, width] through a residual Add of a second input
// when residual, then a LayerNorm spelled out as exporters below opset 17
// write it (ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div, Mul,
// Add), or an RMSNorm (Pow 2, ReduceMean, Add eps, Sqrt, then Reciprocal
// and Mul, or Div), at opset `opset` (ReduceMean's axes an attribute
// before 18, an input from 18; the exponent and epsilon Constant nodes
// before 18, initializers from 18).
func normModel(r *rand.Rand, opset, rows, width int, rms, reciprocal, residual bool) *builder.Builder {
	b := builder.New(opset)
	x := b.Input("x", tensor.Float, rows, width)
	if residual {
		x = b.Op("Add", b.Input("res", tensor.Float, rows, width), x, builder.Name("residual"))
	}
	mean := func(v builder.Value, name string) builder.Value {
		if opset >= 18 {
			return b.Op("ReduceMean", v, b.Constant(name+"_axes", tensor.MustFromSlice([]int64{-1}, 1)), builder.Name(name))
		}
		return b.Op("ReduceMean", v, builder.Ints("axes", -1), builder.Name(name))
	}
	c := func(name string, v float32) builder.Value {
		if opset < 18 {
			// As PyTorch's exporter writes the exponent and epsilon: the
			// outputs of Constant nodes, not initializers.
			return b.Op("Constant", builder.Tensor("value", tensor.Scalar(v)), builder.Name(name))
		}
		return b.Constant(name, tensor.Scalar(v))
	}
	centred := x
	if !rms {
		centred = b.Op("Sub", x, mean(x, "mean"), builder.Name("sub"))
	}
	variance := mean(b.Op("Pow", centred, c("two", 2), builder.Name("pow")), "var")
	std := b.Op("Sqrt", b.Op("Add", variance, c("eps", 1e-5), builder.Name("add_eps")), builder.Name("sqrt"))
	var y builder.Value
	if reciprocal {
		y = b.Op("Mul", centred, b.Op("Reciprocal", std, builder.Name("recip")), builder.Name("scale"))
	} else {
		y = b.Op("Div", centred, std, builder.Name("div"))
	}
	y = b.Op("Mul", y, b.Constant("gamma", randTensor(r, tensor.Float, width)), builder.Name("gamma"))
	if !rms {
		y = b.Op("Add", y, b.Constant("beta", randTensor(r, tensor.Float, width)), builder.Name("beta"))
	}
	b.Output("y", y)
	return b
}

// A decomposed LayerNorm or RMSNorm fused into one pass by rows gives the
// bits of the nodes run one by one, at 1 and 2 threads, for rows narrower
// and wider than the chain's group and of every length modulo the AVX
// loops' blocks; the residual Add before it stays out of the chain.
func TestFusedNormIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 25))
	for _, opset := range []int{13, 18} {
		for _, rms := range []bool{false, true} {
			for _, reciprocal := range []bool{false, true} {
				for _, residual := range []bool{false, true} {
					for _, width := range []int{1, 7, 256, 600, 3001} {
						rows := 5
						b := normModel(r, opset, rows, width, rms, reciprocal, residual)
						fused, plain := loadBoth(t, b)
						want := 8 // nine nodes, one chain
						if rms {
							want = 5
						}
						if reciprocal {
							want++
						}
						name := func() string {
							return fmt.Sprintf("opset %d rms %v reciprocal %v residual %v width %d", opset, rms, reciprocal, residual, width)
						}
						if fused.Fusions() != want || plain.Fusions() != 0 {
							t.Fatalf("%s: %d fusions (want %d), %d with NoFuse", name(), fused.Fusions(), want, plain.Fusions())
						}
						in := map[string]tensor.Value{}
						names := []string{"x"}
						if residual {
							names = append(names, "res")
						}
						for _, n := range names {
							v := randTensor(r, tensor.Float, rows, width)
							xv, _ := tensor.Data[float32](v)
							for i := range xv {
								xv[i] *= float32(1 + 100*r.Float64())
							}
							in[n] = v
						}
						xv, _ := tensor.Data[float32](in["x"].(*tensor.Tensor))
						if width > 1 {
							xv[0] = float32(math.NaN()) // row 0 all NaN
							for i := width; i < 2*width; i++ {
								xv[i] = 3 // row 1 constant: a variance of 0
							}
						}
						for _, o := range []*graph.RunOptions{
							{Threads: 1, Engine: graph.EngineFast},
							{Threads: 2, Engine: graph.EngineFast},
							{Engine: graph.EngineReference},
						} {
							got, exp := runIn(t, fused, in, o), runIn(t, plain, in, o)
							if !got.Equal(exp) {
								t.Fatalf("%s, %+v: fused and unfused differ", name(), *o)
							}
						}
						// The SONNX profile runs the nodes as written (and
						// refuses their broadcasts): the same error.
						sonnx := &graph.RunOptions{Profile: ops.ProfileSONNX}
						_, errF := fused.Run(context.Background(), in, sonnx)
						_, errP := plain.Run(context.Background(), in, sonnx)
						if fmt.Sprint(errF) != fmt.Sprint(errP) {
							t.Fatalf("%s, SONNX: %v fused, %v unfused", name(), errF, errP)
						}
					}
				}
			}
		}
	}
}

// A fused norm whose ReduceMean is over another axis than X's last, or
// whose X is not float32, runs its nodes one by one: the unfused bits;
// keepdims 0 is never fused.
func TestFusedNormFallsBack(t *testing.T) {
	b := builder.New(13)
	x := b.Input("x", tensor.Float, 4, 6)
	m := b.Op("ReduceMean", x, builder.Ints("axes", 0))
	b.Output("y", b.Op("Sub", x, m))
	fused, plain := loadBoth(t, b)
	if fused.Fusions() != 1 {
		t.Fatalf("%d fusions, want 1", fused.Fusions())
	}
	r := rand.New(rand.NewPCG(8, 25))
	in := map[string]tensor.Value{"x": randTensor(r, tensor.Float, 4, 6)}
	if !runIn(t, fused, in, nil).Equal(runIn(t, plain, in, nil)) {
		t.Fatal("a mean over axis 0 run node by node differs from the unfused graph")
	}

	b = builder.New(13)
	x = b.Input("x", tensor.Float, 4, 6)
	m = b.Op("ReduceMean", x, builder.Ints("axes", -1), builder.Int("keepdims", 0))
	b.Output("y", b.Op("Sub", x, b.Op("Unsqueeze", m, b.Constant("ax", tensor.MustFromSlice([]int64{1}, 1)))))
	if fused, _ = loadBoth(t, b); fused.Fusions() != 0 {
		t.Fatalf("keepdims 0: %d fusions, want 0", fused.Fusions())
	}
}

// The errors of a fused norm name its nodes.
func TestFusedNormErrorNamesNodes(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 25))
	fused, _ := loadBoth(t, normModel(r, 18, 64, 64, false, false, false))
	x := randTensor(r, tensor.Float, 64, 64)
	_, err := fused.Run(context.Background(), map[string]tensor.Value{"x": x}, &graph.RunOptions{MaxRunBytes: 64 * 64 * 4})
	if err == nil || !strings.Contains(err.Error(), `"beta"`) || !strings.Contains(err.Error(), `"sqrt"`) {
		t.Fatalf("error %v, want one naming the fused nodes", err)
	}
}

func runIn(t *testing.T, m *graph.Model, in map[string]tensor.Value, o *graph.RunOptions) *tensor.Tensor {
	t.Helper()
	out, err := m.Run(context.Background(), in, o)
	if err != nil {
		t.Fatal(err)
	}
	return out.Map()["y"].(*tensor.Tensor)
}

// BenchmarkFusedNorm runs a decomposed LayerNorm of [128, 256] (BERT's
// rows) fused and with NoFuse, pooled, at one thread.
func BenchmarkFusedNorm(b *testing.B) {
	r := rand.New(rand.NewPCG(10, 25))
	t := &testing.T{}
	fused, plain := loadBoth(t, normModel(r, 13, 128, 256, false, false, true))
	in := map[string]tensor.Value{"x": randTensor(r, tensor.Float, 128, 256), "res": randTensor(r, tensor.Float, 128, 256)}
	for _, c := range []struct {
		name string
		m    *graph.Model
	}{{"fused", fused}, {"unfused", plain}} {
		b.Run(c.name, func(b *testing.B) {
			pool := graph.NewPool()
			o := &graph.RunOptions{Threads: 1, Pool: pool}
			b.ReportAllocs()
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

// torch.onnx.export writes a weight it deduplicates once and each other
// use of it as an Identity of it (the equal gammas and betas of an
// encoder's LayerNorms): an Identity of a constant, or of such a copy, is
// as constant, and the LayerNorm reading it fuses whole.
func TestFusedNormThroughIdentity(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 25))
	const rows, width = 5, 33
	b := builder.New(13)
	gamma := b.Constant("gamma", randTensor(r, tensor.Float, width))
	beta := b.Constant("beta", randTensor(r, tensor.Float, width))
	x := b.Input("x", tensor.Float, rows, width)
	norm := func(x, gamma, beta builder.Value, p string) builder.Value {
		c := func(name string, v float32) builder.Value {
			return b.Op("Constant", builder.Tensor("value", tensor.Scalar(v)), builder.Name(p+name))
		}
		centred := b.Op("Sub", x, b.Op("ReduceMean", x, builder.Ints("axes", -1), builder.Name(p+"mean")), builder.Name(p+"sub"))
		variance := b.Op("ReduceMean", b.Op("Pow", centred, c("two", 2), builder.Name(p+"pow")), builder.Ints("axes", -1), builder.Name(p+"var"))
		std := b.Op("Sqrt", b.Op("Add", variance, c("eps", 1e-5), builder.Name(p+"add_eps")), builder.Name(p+"sqrt"))
		y := b.Op("Mul", b.Op("Div", centred, std, builder.Name(p+"div")), gamma, builder.Name(p+"gamma"))
		return b.Op("Add", y, beta, builder.Name(p+"beta"))
	}
	y := norm(x, gamma, b.Op("Identity", beta, builder.Name("beta_copy")), "ln1_")
	y = b.Op("Neg", y, builder.Name("neg")) // in no chain: two norms
	y = norm(y, b.Op("Identity", gamma, builder.Name("gamma_copy")),
		b.Op("Identity", b.Op("Identity", beta, builder.Name("beta_copy2")), builder.Name("beta_copy3")), "ln2_")
	b.Output("y", y)
	fused, plain := loadBoth(t, b)
	if fused.Fusions() != 2*8 || plain.Fusions() != 0 {
		t.Fatalf("%d fusions (want %d), %d with NoFuse", fused.Fusions(), 2*8, plain.Fusions())
	}
	in := map[string]tensor.Value{"x": randTensor(r, tensor.Float, rows, width)}
	for _, o := range []*graph.RunOptions{
		{Threads: 1, Engine: graph.EngineFast},
		{Threads: 2, Engine: graph.EngineFast},
		{Engine: graph.EngineReference},
	} {
		if !runIn(t, fused, in, o).Equal(runIn(t, plain, in, o)) {
			t.Fatalf("%+v: fused and unfused differ", *o)
		}
	}
}
