package graph_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// qdqModel is x (uint8) -> DequantizeLinear -> Conv(DequantizeLinear(w),
// DequantizeLinear(b)) [-> Relu] -> QuantizeLinear -> y, the weights int8
// per output channel, as torch.onnx exports a static int8 network; with
// shared, the Conv's float output is a graph output too.
func qdqModel(r *rand.Rand, relu, shared bool) *builder.Builder {
	const c, m = 6, 8
	f32 := func(v ...float32) *tensor.Tensor { t, _ := tensor.FromSlice(v, len(v)); return t }
	scalar := func(dt tensor.DataType, v byte) *tensor.Tensor {
		t, _ := tensor.New(dt)
		t.Bytes()[0] = v
		return t
	}
	w, _ := tensor.New(tensor.Int8, m, c, 3, 3)
	for i := range w.Bytes() {
		w.Bytes()[i] = byte(r.IntN(256))
	}
	ws, bs := make([]float32, m), make([]float32, m)
	bias := make([]int32, m)
	const xs = float32(0.02)
	for i := range ws {
		ws[i] = float32(0.001 + 0.01*r.Float64())
		bs[i] = xs * ws[i]
		bias[i] = int32(r.IntN(4001) - 2000)
	}
	bt, _ := tensor.FromSlice(bias, m)
	b := builder.New(21)
	x := b.Input("x", tensor.Uint8, 1, c, 10, 10)
	dx := b.Op("DequantizeLinear", x, b.Constant("xs", f32(xs)), b.Constant("xz", scalar(tensor.Uint8, 128)), builder.Name("dqx"))
	dw := b.Op("DequantizeLinear", b.Constant("w", w), b.Constant("ws", f32(ws...)), builder.Int("axis", 0), builder.Name("dqw"))
	db := b.Op("DequantizeLinear", b.Constant("b", bt), b.Constant("bs", f32(bs...)), builder.Int("axis", 0), builder.Name("dqb"))
	y := b.Op("Conv", dx, dw, db, builder.Ints("pads", 1, 1, 1, 1), builder.Name("conv"))
	conv := y
	if relu {
		y = b.Op("Relu", y, builder.Name("relu"))
	}
	y = b.Op("QuantizeLinear", y, b.Constant("ys", f32(0.05)), b.Constant("yz", scalar(tensor.Uint8, 10)), builder.Name("q"))
	b.Output("y", y)
	if shared {
		b.Output("conv_out", conv)
	}
	return b
}

// A DequantizeLinear -> Conv [-> Relu] -> QuantizeLinear chain runs as one
// int8 convolution by default, within one quantum of the float chain;
// ExactQDQ, NoFuse, the SONNX profile and the reference engine run it as
// written, bit for bit the reference's; a float intermediate that is a
// graph output keeps the chain apart.
func TestFuseQDQ(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 11))
	for _, relu := range []bool{false, true} {
		data, err := qdqModel(r, relu, false).Encode()
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
		want := 4 // three DequantizeLinear and the QuantizeLinear
		if relu {
			want++
		}
		wantExact := 0
		if relu {
			wantExact = 1 // the Relu, into the float Conv
		}
		if fused.Fusions() != want || exact.Fusions() != wantExact || plain.Fusions() != 0 {
			t.Fatalf("relu %v: %d fusions (want %d), %d with ExactQDQ, %d with NoFuse", relu, fused.Fusions(), want, exact.Fusions(), plain.Fusions())
		}
		// Fused, the int8 weights are packed; as written, the float
		// weights DequantizeLinear makes at load are counted.
		if fused.PackedBytes() == 0 || exact.PackedBytes() < 8*6*9*4 {
			t.Errorf("relu %v: %d packed bytes fused, %d exact", relu, fused.PackedBytes(), exact.PackedBytes())
		}
		x, _ := tensor.New(tensor.Uint8, 1, 6, 10, 10)
		for i := range x.Bytes() {
			x.Bytes()[i] = byte(r.IntN(256))
		}
		ref := runY(t, plain, x, &graph.RunOptions{Engine: graph.EngineReference})
		for _, c := range []struct {
			m *graph.Model
			o *graph.RunOptions
		}{{exact, nil}, {plain, nil}, {fused, &graph.RunOptions{Profile: ops.ProfileSONNX}}, {fused, &graph.RunOptions{Engine: graph.EngineReference}}} {
			if got := runY(t, c.m, x, c.o); !got.Equal(ref) {
				t.Fatalf("relu %v: a run as written differs from the reference engine's", relu)
			}
		}
		for _, threads := range []int{1, 2} {
			got := runY(t, fused, x, &graph.RunOptions{Threads: threads})
			if got.DataType() != tensor.Uint8 || !tensor.SameShape(got.Shape(), ref.Shape()) {
				t.Fatalf("fused %v%v, as written %v%v", got.DataType(), got.Shape(), ref.DataType(), ref.Shape())
			}
			differ := 0
			for i, g := range got.Bytes() {
				d := int(g) - int(ref.Bytes()[i])
				if d > 1 || d < -1 {
					t.Fatalf("relu %v, output %d: fused %d, as written %d", relu, i, g, ref.Bytes()[i])
				}
				if d != 0 {
					differ++
				}
			}
			if threads == 1 {
				t.Logf("relu %v: %d of %d outputs differ by one quantum", relu, differ, got.Len())
			}
		}
	}
	data, err := qdqModel(r, true, true).Encode()
	if err != nil {
		t.Fatal(err)
	}
	m, err := graph.LoadBytes(data, "")
	if err != nil {
		t.Fatal(err)
	}
	if m.Fusions() != 0 { // the Conv's output has two readers: not even the Relu
		t.Fatalf("a Conv whose float output is a graph output: %d fusions, want 0", m.Fusions())
	}
}

// A DequantizeLinear whose 8-bit input other nodes read too passes it to
// the Conv only when one of them reads it at or after the Conv (the run
// lets a value go after its last reader): the input here is a Cast's
// output, read by a second DequantizeLinear before or after the Conv.
// Both models give the nodes' results within one quantum, run after run
// in a pool.
func TestFuseQDQSharedInput(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, late := range []bool{false, true} {
		b := builder.New(21)
		x := b.Input("x", tensor.Uint8, 1, 6, 10, 10)
		xc := b.Op("Cast", x, builder.Int("to", int(tensor.Uint8)), builder.Name("copy"))
		xs, _ := tensor.FromSlice([]float32{0.02}, 1)
		xz, _ := tensor.New(tensor.Uint8)
		side := func() {
			b.Output("side", b.Op("DequantizeLinear", xc, b.Constant("xs2", xs), b.Constant("xz2", xz), builder.Name("side")))
		}
		if !late {
			side()
		}
		w, _ := tensor.New(tensor.Int8, 4, 6, 1, 1)
		for i := range w.Bytes() {
			w.Bytes()[i] = byte(r.IntN(256))
		}
		ys, _ := tensor.FromSlice([]float32{0.01}, 1)
		dx := b.Op("DequantizeLinear", xc, b.Constant("xs", xs), b.Constant("xz", xz), builder.Name("dqx"))
		dw := b.Op("DequantizeLinear", b.Constant("w", w), b.Constant("ws", ys), builder.Name("dqw"))
		y := b.Op("Conv", dx, dw, builder.Name("conv"))
		b.Output("y", b.Op("QuantizeLinear", y, b.Constant("ys", ys), b.Constant("yz", xz), builder.Name("q")))
		if late {
			side()
		}
		fused, plain := loadBoth(t, b)
		want := 0
		if late {
			want = 3
		}
		if fused.Fusions() != want {
			t.Fatalf("late %v: %d fusions, want %d", late, fused.Fusions(), want)
		}
		pool := graph.NewPool()
		for range 3 {
			xin, _ := tensor.New(tensor.Uint8, 1, 6, 10, 10)
			for i := range xin.Bytes() {
				xin.Bytes()[i] = byte(r.IntN(256))
			}
			in := map[string]tensor.Value{"x": xin}
			ref, err := plain.Run(context.Background(), in, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := fused.Run(context.Background(), in, &graph.RunOptions{Pool: pool})
			if err != nil {
				t.Fatal(err)
			}
			if !got.Map()["side"].(*tensor.Tensor).Equal(ref.Map()["side"].(*tensor.Tensor)) {
				t.Fatalf("late %v: the second reader's value differs", late)
			}
			g, e := got.Map()["y"].(*tensor.Tensor).Bytes(), ref.Map()["y"].(*tensor.Tensor).Bytes()
			for i := range g {
				if d := int(g[i]) - int(e[i]); d > 1 || d < -1 {
					t.Fatalf("late %v, output %d: fused %d, as written %d", late, i, g[i], e[i])
				}
			}
		}
	}
}

// The static QDQ ResNet-18 (scripts/export-models.py, when present): how
// many logits the fused int8 convolutions change from the float chain's,
// by at most a few quanta of the last layer.
func TestFuseQDQResNet18(t *testing.T) {
	dir := "/tmp/exp/resnet18_qdq"
	if testing.Short() {
		t.Skip("a whole model")
	}
	if _, err := os.Stat(filepath.Join(dir, "model.onnx")); err != nil {
		t.Skip("no exported model at ", dir)
	}
	fused, err := graph.Load(filepath.Join(dir, "model.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	exact, err := graph.LoadWith(filepath.Join(dir, "model.onnx"), graph.LoadOptions{ExactQDQ: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := bench.ReadCase(dir)
	if err != nil {
		t.Skip(err)
	}
	run := func(m *graph.Model) []float32 {
		out, err := m.Run(context.Background(), c.Inputs, &graph.RunOptions{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		v, _ := tensor.Data[float32](out.At(0).(*tensor.Tensor))
		return v
	}
	a, b := run(fused), run(exact)
	differ, worst := 0, float32(0)
	for i := range a {
		if a[i] != b[i] {
			differ++
			worst = max(worst, a[i]-b[i], b[i]-a[i])
		}
	}
	t.Logf("%d fusions; %d of %d logits differ from the float chain's, by at most %g", fused.Fusions(), differ, len(a), worst)
}

// A DequantizeLinear of constant weights runs once, at load: the float
// weights are the model's (PackedBytes), the results the bits of the same
// model whose weights are an input (DequantizeLinear run at every run).
func TestDequantizedWeightsFoldAtLoad(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	w, _ := tensor.New(tensor.Int8, 64, 32)
	for i := range w.Bytes() {
		w.Bytes()[i] = byte(r.IntN(256))
	}
	ws, _ := tensor.FromSlice([]float32{0.0123}, 1)
	wz, _ := tensor.FromSlice([]int8{3}, 1)
	build := func(input bool) *builder.Builder {
		b := builder.New(21)
		x := b.Input("x", tensor.Float, 5, 64)
		var wv builder.Value
		if input {
			wv = b.Input("w", tensor.Int8, 64, 32)
		} else {
			wv = b.Constant("w", w)
		}
		dw := b.Op("DequantizeLinear", wv, b.Constant("ws", ws), b.Constant("wz", wz), builder.Name("dqw"))
		b.Output("y", b.Op("MatMul", x, dw, builder.Name("mm")))
		return b
	}
	folded, _ := loadBoth(t, build(false))
	asInput, _ := loadBoth(t, build(true))
	if folded.PackedBytes() < 4*int64(w.Len()) {
		t.Fatalf("%d bytes held beyond the initializers, want the %d of the float weights at least", folded.PackedBytes(), 4*w.Len())
	}
	xin := randTensor(r, tensor.Float, 5, 64)
	for _, threads := range []int{1, 2} {
		got := runY(t, folded, xin, &graph.RunOptions{Threads: threads})
		out, err := asInput.Run(context.Background(), map[string]tensor.Value{"x": xin, "w": w}, &graph.RunOptions{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(out.Map()["y"].(*tensor.Tensor)) {
			t.Fatal("the folded weights give other bits")
		}
	}
}
