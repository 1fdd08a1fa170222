package graph_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// shapeChain is an exporter's shape arithmetic over x[a,b]: the last dim
// taken by Shape -> Gather -> Unsqueeze -> Concat as Reshape's target,
// and a Range over it cast and added to the reshaped x:
// y = x (as [-1, b]) + [0, 1, ..., b-1].
func shapeChain() modelSpec {
	symbolic := &pb.ValueInfoProto{Name: proto.String("x"), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{
		TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(tensor.Float)), Shape: &pb.TensorShapeProto{Dim: []*pb.TensorShapeProto_Dimension{
			{Value: &pb.TensorShapeProto_Dimension_DimParam{DimParam: "a"}}, {Value: &pb.TensorShapeProto_Dimension_DimParam{DimParam: "b"}}}}}}}}
	return modelSpec{opset: 13,
		nodes: []*pb.NodeProto{
			node("shape", "Shape", []string{"x"}, []string{"s"}),
			node("one", "Constant", nil, []string{"one"}, tensorAttr("value", int64s("one", nil, 1))),
			node("gather", "Gather", []string{"s", "one"}, []string{"b"}),
			node("unsq", "Unsqueeze", []string{"b", "axes"}, []string{"b1"}),
			node("concat", "Concat", []string{"minus1", "b1"}, []string{"target"}, intAttr("axis", 0)),
			node("reshape", "Reshape", []string{"x", "target"}, []string{"r"}),
			node("range", "Range", []string{"zero", "b", "one"}, []string{"pos"}),
			node("cast", "Cast", []string{"pos"}, []string{"posf"}, intAttr("to", int64(tensor.Float))),
			node("add", "Add", []string{"r", "posf"}, []string{"y"}),
		},
		inits:   []*pb.TensorProto{int64s("axes", []int64{1}, 0), int64s("minus1", []int64{1}, -1), int64s("zero", nil, 0)},
		inputs:  []*pb.ValueInfoProto{symbolic},
		outputs: []*pb.ValueInfoProto{untyped("y", tensor.Float)},
	}
}

// randomFloats is a [a,b] tensor of values in [-1, 1).
func randomFloats(r *rand.Rand, a, b int) *tensor.Tensor {
	x := tensor.MustNew(tensor.Float, a, b)
	v, _ := tensor.Data[float32](x)
	for i := range v {
		v[i] = 2*r.Float32() - 1
	}
	return x
}

// sameBits fails unless got and want are tensors of one shape and bits.
func sameTensorBits(t *testing.T, what string, got, want tensor.Value) {
	t.Helper()
	g, w := got.(*tensor.Tensor), want.(*tensor.Tensor)
	gf, err1 := g.Float64s()
	wf, err2 := w.Float64s()
	if err1 != nil || err2 != nil || !tensor.SameShape(g.Shape(), w.Shape()) || g.DataType() != w.DataType() {
		t.Fatalf("%s: got %v %v, want %v %v (%v %v)", what, g.DataType(), g.Shape(), w.DataType(), w.Shape(), err1, err2)
	}
	for i := range gf {
		if math.Float64bits(gf[i]) != math.Float64bits(wf[i]) {
			t.Fatalf("%s: element %d is %v, want %v", what, i, gf[i], wf[i])
		}
	}
}

// The shape chain's nodes are skipped once their input dims have been
// seen: over runs whose shapes change (each seen twice: a miss, then a
// hit; then the ninth and later sets, which the full cache does not
// keep), the outputs are the reference engine's, bit for bit; the cache
// stops growing at eight sets. NoFuse and the reference engine skip
// nothing.
func TestShapeCacheChangingShapes(t *testing.T) {
	m := shapeChain().load(t)
	if got := m.ShapeCachedSteps(); got != 7 {
		t.Fatalf("ShapeCachedSteps = %d, want 7 (Shape, Constant, Gather, Unsqueeze, Concat, Range, Cast)", got)
	}
	plain, err := graph.FromProtoWith(shapeChain().proto(), "", graph.LoadOptions{NoFuse: true})
	if err != nil {
		t.Fatal(err)
	}
	if plain.ShapeCachedSteps() != 0 {
		t.Fatalf("NoFuse: ShapeCachedSteps = %d, want 0", plain.ShapeCachedSteps())
	}
	r := rand.New(rand.NewPCG(1, 2))
	pool := graph.NewPool()
	var full int64
	for k := range 12 {
		a, b := 1+k%3, 2+k
		for pass := range 3 {
			x := randomFloats(r, a, b)
			in := map[string]tensor.Value{"x": x}
			want, err := m.Run(context.Background(), in, &graph.RunOptions{Engine: graph.EngineReference})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range []*graph.RunOptions{nil, {Threads: 1, Pool: pool}} {
				got, err := m.Run(context.Background(), in, o)
				if err != nil {
					t.Fatal(err)
				}
				sameTensorBits(t, fmt.Sprintf("[%d,%d] pass %d", a, b, pass), at(got, 0), at(want, 0))
				if o != nil && o.Pool != nil {
					o.Pool.Release(at(got, 0))
				}
			}
			if got, err := plain.Run(context.Background(), in, nil); err != nil {
				t.Fatal(err)
			} else {
				sameTensorBits(t, "NoFuse", at(got, 0), at(want, 0))
			}
		}
		switch {
		case k < 8 && m.ShapeCacheBytes() == full:
			t.Fatalf("set %d: ShapeCacheBytes stayed %d", k+1, full)
		case k >= 8 && m.ShapeCacheBytes() != full:
			t.Fatalf("set %d: ShapeCacheBytes went from %d to %d past eight sets", k+1, full, m.ShapeCacheBytes())
		}
		full = m.ShapeCacheBytes()
	}
}

// A shape that depends on the data, Shape(NonZero(x)), is no function of
// the input's dims: nothing is cached, and runs whose x has one shape but
// different nonzeros count them anew.
func TestShapeCacheSkipsNonZero(t *testing.T) {
	spec := modelSpec{opset: 13,
		nodes: []*pb.NodeProto{
			node("nz", "NonZero", []string{"x"}, []string{"idx"}),
			node("shape", "Shape", []string{"idx"}, []string{"s"}),
			node("gather", "Gather", []string{"s", "one"}, []string{"n"}),
			node("range", "Range", []string{"zero", "n", "one"}, []string{"y"}),
		},
		inits:   []*pb.TensorProto{int64s("one", nil, 1), int64s("zero", nil, 0)},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 6)},
		outputs: []*pb.ValueInfoProto{untyped("y", tensor.Int64)},
	}
	m := spec.load(t)
	if got := m.ShapeCachedSteps(); got != 0 {
		t.Fatalf("ShapeCachedSteps = %d, want 0", got)
	}
	for n := range 6 {
		x := tensor.MustNew(tensor.Float, 6)
		v, _ := tensor.Data[float32](x)
		for i := range n {
			v[i] = 1
		}
		for range 2 {
			out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := at(out, 0).(*tensor.Tensor).Len(); got != n {
				t.Fatalf("%d nonzeros: Range of %d", n, got)
			}
		}
	}
}

// Concurrent runs of many shapes share the cache (go test -race): each
// gets its own shape's outputs.
func TestShapeCacheConcurrent(t *testing.T) {
	m := shapeChain().load(t)
	pool := graph.NewPool()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 3))
			for i := range 40 {
				a, b := 1+r.IntN(3), 2+r.IntN(12)
				x := randomFloats(r, a, b)
				o := &graph.RunOptions{Threads: 1}
				if i%2 == 1 {
					o.Pool = pool
				}
				out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, o)
				if err != nil {
					errs <- err
					return
				}
				y, _ := tensor.Data[float32](at(out, 0).(*tensor.Tensor))
				xs, _ := tensor.Data[float32](x)
				for k := range y {
					if y[k] != xs[k]+float32(k%b) {
						errs <- fmt.Errorf("[%d,%d]: y[%d] = %v, want %v", a, b, k, y[k], xs[k]+float32(k%b))
						return
					}
				}
				if o.Pool != nil {
					pool.Release(at(out, 0))
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// exportedModel loads one of torch.onnx.export's transformers
// (scripts/export-models.py), skipping without it.
func exportedModel(t *testing.T, name string) *graph.Model {
	t.Helper()
	dir := os.Getenv("ONNXSHAPE_EXPORTS")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "onnxshape-exports")
	}
	m, err := graph.Load(filepath.Join(dir, name+".onnx"))
	if err != nil {
		t.Skipf("%s: %v", name, err)
	}
	return m
}

// The exported BERT and GPT skip their shape arithmetic once a shape has
// been seen: a hit gives the miss's outputs bit for bit, and both are the
// reference engine's within the products' bound.
func TestShapeCacheExportedTransformers(t *testing.T) {
	for _, name := range []string{"bert_like_encoder", "gpt_like_decoder"} {
		t.Run(name, func(t *testing.T) {
			m := exportedModel(t, name)
			if m.ShapeCachedSteps() < 100 {
				t.Fatalf("ShapeCachedSteps = %d, want the shape arithmetic's (over 100)", m.ShapeCachedSteps())
			}
			r := rand.New(rand.NewPCG(4, 5))
			for _, dims := range [][2]int{{1, 7}, {2, 9}, {1, 7}, {3, 16}, {2, 9}} {
				in := map[string]tensor.Value{}
				for _, vi := range m.Inputs() {
					vocab := int64(1000)
					switch vi.Name {
					case "attention_mask":
						vocab = 1
					case "token_type_ids":
						vocab = 2
					}
					x := tokens(r, vocab, dims[0], dims[1])
					if vi.Name == "attention_mask" {
						v, _ := tensor.Data[int64](x)
						for i := range v {
							v[i] = 1
						}
						v[len(v)-1] = 0 // the last token is padding
					}
					in[vi.Name] = x
				}
				want, err := m.Run(context.Background(), in, &graph.RunOptions{Engine: graph.EngineReference})
				if err != nil {
					t.Fatal(err)
				}
				var first graph.Result
				for pass := range 2 {
					got, err := m.Run(context.Background(), in, &graph.RunOptions{Threads: 1})
					if err != nil {
						t.Fatal(err)
					}
					for n := range got.Len() {
						if pass == 1 {
							sameTensorBits(t, fmt.Sprintf("%v output %d hit", dims, n), got.At(n), first.At(n))
						}
						withinBound(t, fmt.Sprintf("%v output %d", dims, n), got.At(n), want.At(n), 1e-4, 1e-3)
					}
					first = got
				}
			}
		})
	}
}

// at is the result's output #i.
func at(r graph.Result, i int) tensor.Value { return r.At(i) }

// tokens is a [rows, cols] tensor of int64 ids below vocab.
func tokens(r *rand.Rand, vocab int64, rows, cols int) *tensor.Tensor {
	x := tensor.MustNew(tensor.Int64, rows, cols)
	v, _ := tensor.Data[int64](x)
	for i := range v {
		v[i] = r.Int64N(vocab)
	}
	return x
}

// close fails unless got is want within abs + rel*|want| everywhere.
func withinBound(t *testing.T, what string, got, want tensor.Value, abs, rel float64) {
	t.Helper()
	g, _ := got.(*tensor.Tensor).Float64s()
	w, _ := want.(*tensor.Tensor).Float64s()
	if len(g) != len(w) {
		t.Fatalf("%s: %d values, want %d", what, len(g), len(w))
	}
	for i := range g {
		if d := math.Abs(g[i] - w[i]); !(d <= abs+rel*math.Abs(w[i])) {
			t.Fatalf("%s: element %d is %v, want %v", what, i, g[i], w[i])
		}
	}
}

// A run whose cap on one tensor a skipped node's output passes fails as
// that node would, though the cache holds what follows it: Range's 600
// positions (4800 bytes) under a 4096-byte cap.
func TestShapeCacheKeepsTensorCap(t *testing.T) {
	m := shapeChain().load(t)
	in := map[string]tensor.Value{"x": randomFloats(rand.New(rand.NewPCG(6, 7)), 1, 600)}
	for range 2 {
		if _, err := m.Run(context.Background(), in, nil); err != nil {
			t.Fatal(err)
		}
	}
	if m.ShapeCacheBytes() == 0 {
		t.Fatal("nothing cached")
	}
	if _, err := m.Run(context.Background(), in, &graph.RunOptions{MaxTensorBytes: 4096}); !errors.Is(err, graph.ErrLimit) {
		t.Fatalf("under a 4096-byte cap: %v, want ErrLimit", err)
	}
}
