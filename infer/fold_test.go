package infer_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// fixedShapes are the input shapes the fold tests fix.
var fixedShapes = map[string]map[string][]graph.Dim{
	"flatten":       {"x": dims(2, 3, 5, 4)},
	"flatten_slice": {"x": dims(2, 3, 5, 4)},
	"interpolate":   {"x": dims(1, 2, 3, 4)},
	"expand":        {"x": dims(2, 1, 5)},
	"attention":     {"x": dims(2, 5, 64)},
	"convnet":       {"x": dims(1, 3, 16, 12)},
}

func dims(v ...int64) []graph.Dim {
	out := make([]graph.Dim, len(v))
	for i, d := range v {
		out[i] = graph.Const(d)
	}
	return out
}

// TestFoldExported folds the exporter-style models with their input shapes
// fixed: no shape computation is left, the outputs keep their shapes, and
// where onnxshape runs every operator the folded model gives the same
// outputs.
func TestFoldExported(t *testing.T) {
	shapeOps := map[string]bool{"Shape": true, "Gather": true, "Concat": true, "Unsqueeze": true, "Slice": true,
		"Cast": true, "Floor": true, "ConstantOfShape": true, "Equal": true, "Where": true}
	for _, m := range exportedModels() {
		opt := &infer.Options{InputShapes: fixedShapes[m.name]}
		folded, r, st, err := infer.FoldProto(t.Context(), m.model, "", opt)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		t.Logf("%s: %v", m.name, st)
		for _, n := range folded.Graph.Node {
			if shapeOps[n.GetOpType()] {
				t.Errorf("%s: a %s node is left after folding", m.name, n.GetOpType())
			}
		}
		hadShapeOps := false
		for _, n := range m.model.Graph.Node {
			hadShapeOps = hadShapeOps || shapeOps[n.GetOpType()]
		}
		if hadShapeOps && st.NodesAfter >= st.NodesBefore {
			t.Errorf("%s: folding removed no node: %v", m.name, st)
		}
		before, _ := infer.Proto(t.Context(), m.model, "", opt)
		for name := range m.want {
			a, _ := before.Value(name)
			b, err := r.Value(name)
			if err != nil || a.String() != b.String() {
				t.Errorf("%s: %s is %v after folding, %v before", m.name, name, b, a)
			}
			if _, static := b.Static(); !static {
				t.Errorf("%s: %s is %v with the input shapes fixed", m.name, name, b)
			}
		}
		sameOutputs(t, m.name, m.model, folded, fixedShapes[m.name])
	}
}

// sameOutputs runs both models on the same inputs when onnxshape runs
// every operator of the original.
func sameOutputs(t *testing.T, name string, a, b *pb.ModelProto, shapes map[string][]graph.Dim) {
	t.Helper()
	ma, err := graph.FromProto(a, "")
	if errors.Is(err, ops.ErrUnsupported) {
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	mb, err := graph.FromProto(b, "")
	if err != nil {
		t.Fatalf("%s: the folded model does not load: %v", name, err)
	}
	inputs := map[string]tensor.Value{}
	for in, d := range shapes {
		shape := make([]int, len(d))
		n := 1
		for i, x := range d {
			v, _ := x.Value()
			shape[i] = int(v)
			n *= int(v)
		}
		data := make([]float32, n)
		for i := range data {
			data[i] = float32(i%13) - 6
		}
		inputs[in] = tensor.MustFromSlice(data, shape...)
	}
	oa, err := ma.Run(context.Background(), inputs, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ob, err := mb.Run(context.Background(), inputs, nil)
	if err != nil {
		t.Fatalf("%s: the folded model does not run: %v", name, err)
	}
	for k, v := range oa.Map() {
		if !v.(*tensor.Tensor).Equal(ob.Map()[k].(*tensor.Tensor)) {
			t.Errorf("%s: output %s differs after folding", name, k)
		}
	}
	t.Logf("%s: the folded model gives the same outputs", name)
}

// TestFoldKeepsLargeConstants: a computed constant over MaxFoldBytes stays
// computed.
func TestFoldKeepsLargeConstants(t *testing.T) {
	b := newGraph()
	w := b.weights("w", 64, 64) // 16 KiB
	y := b.op("Transpose", []string{w})
	b.output(y)
	m := b.model(13)
	folded, _, st, err := infer.FoldProto(t.Context(), m, "", &infer.Options{MaxFoldBytes: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if len(folded.Graph.Node) != 1 || st.Folded != 0 {
		t.Errorf("a 16 KiB Transpose was folded under a 1 KiB cap: %v", st)
	}
	folded, _, st, err = infer.FoldProto(t.Context(), m, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(folded.Graph.Node) != 0 || st.Folded != 1 {
		t.Errorf("a 16 KiB Transpose was not folded under the default cap: %v", st)
	}
	if _, err := onnx.EncodeModel(folded); err != nil {
		t.Fatal(err)
	}
	sameOutputs(t, "transpose", m, folded, nil)
}

// TestAnnotate: the annotated model declares every value's inferred shape.
func TestAnnotate(t *testing.T) {
	m := exportedModels()[0]
	folded, r, _, err := infer.FoldProto(t.Context(), m.model, "", &infer.Options{MaxFoldBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	infer.AnnotateProto(folded, r)
	declared := map[string]string{}
	for _, vi := range append(folded.Graph.ValueInfo, folded.Graph.Output...) {
		declared[vi.GetName()] = onnx.DescribeType(vi.GetType())
	}
	for _, n := range folded.Graph.Node {
		for _, o := range n.Output {
			if declared[o] == "" {
				t.Errorf("%s has no declared type", o)
			}
		}
	}
	out := folded.Graph.Output[0].GetName()
	if got := declared[out]; got != "tensor(float)[N,3*H*W]" {
		t.Errorf("output declared %s", got)
	}
}

// TestFoldSymbolic: with the input shapes left symbolic, a Reshape to a
// computed shape still gets a constant target (0 copies a dimension, -1
// takes the rest), and its Shape chain goes.
func TestFoldSymbolic(t *testing.T) {
	for _, m := range exportedModels() {
		if m.name != "flatten" && m.name != "flatten_slice" && m.name != "attention" && m.name != "expand" {
			continue
		}
		folded, r, st, err := infer.FoldProto(t.Context(), m.model, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range folded.Graph.Node {
			if n.GetOpType() == "Shape" || n.GetOpType() == "Concat" {
				t.Errorf("%s: a %s node is left: %v", m.name, n.GetOpType(), st)
			}
		}
		outputs := map[string]bool{}
		for _, o := range m.model.Graph.Output {
			outputs[o.GetName()] = true
		}
		for name, want := range m.want {
			if !outputs[name] {
				continue
			}
			if v, err := r.Value(name); err != nil || v.String() != want {
				t.Errorf("%s: %s is %v after folding, want %s", m.name, name, v, want)
			}
		}
		sameOutputs(t, m.name, m.model, folded, fixedShapes[m.name])
	}
}

// TestFoldNodeTests folds every node test model onnxshape runs: the folded
// model loads and gives the original's outputs on the test's inputs.
func TestFoldNodeTests(t *testing.T) {
	folded := 0
	for _, dir := range nodeTestDirs(t) {
		m, err := onnx.ReadModel(filepath.Join(dir, "model.onnx"))
		if err != nil {
			continue
		}
		gm0, err := graph.FromProto(m, dir)
		if err != nil {
			continue // an operator onnxshape does not run
		}
		if unseededRandom(m) {
			continue // draws anew at every run: two runs differ
		}
		f, _, st, err := infer.FoldProto(t.Context(), m, dir, nil)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(dir), err)
			continue
		}
		if st.NodesAfter < st.NodesBefore {
			folded++
		}
		gm, err := graph.FromProto(f, dir)
		if err != nil {
			t.Errorf("%s: the folded model does not load: %v", filepath.Base(dir), err)
			continue
		}
		inputs := map[string]tensor.Value{}
		for k, in := range gm.Inputs() {
			b, err := os.ReadFile(filepath.Join(dir, "test_data_set_0", "input_"+strconv.Itoa(k)+".pb"))
			if err != nil {
				break
			}
			v, _, err := onnx.DecodeValue(b, in.TypeProto())
			if err != nil {
				break
			}
			inputs[in.Name] = v
		}
		if len(inputs) != len(gm.Inputs()) {
			continue
		}
		want, err := gm0.Run(context.Background(), inputs, nil)
		if err != nil {
			continue // a case onnxshape refuses (it expects an error)
		}
		got, err := gm.Run(context.Background(), inputs, nil)
		if err != nil {
			t.Errorf("%s: the folded model fails: %v", filepath.Base(dir), err)
			continue
		}
		for name, w := range want.Map() {
			wt, ok1 := w.(*tensor.Tensor)
			gt, ok2 := got.Map()[name].(*tensor.Tensor)
			if ok1 != ok2 || (ok1 && !gt.Equal(wt)) {
				t.Errorf("%s: output %s differs after folding", filepath.Base(dir), name)
			}
		}
	}
	t.Logf("%d node test models got smaller", folded)
}

// TestFoldInlinesIf: an If whose condition the shapes decide is replaced by
// the branch it takes.
func TestFoldInlinesIf(t *testing.T) {
	b := newGraph()
	x := b.input("x", "N", 3, "H", "W")
	c := b.op("Gather", []string{b.op("Shape", []string{x}), b.scalar("one", 1)})
	cond := b.op("Equal", []string{c, b.scalar("three", 3)})
	branch := func(op string, attrs ...*pb.AttributeProto) *pb.GraphProto {
		return &pb.GraphProto{Name: proto.String(op),
			Node:   []*pb.NodeProto{{OpType: proto.String(op), Name: proto.String("inner"), Input: []string{x}, Output: []string{"y"}, Attribute: attrs}},
			Output: []*pb.ValueInfoProto{{Name: proto.String("y")}}}
	}
	thenG := branch("Flatten", aInt("axis", 1))
	elseG := branch("Identity")
	out := b.op("If", []string{cond},
		&pb.AttributeProto{Name: proto.String("then_branch"), Type: pb.AttributeProto_GRAPH.Enum(), G: thenG},
		&pb.AttributeProto{Name: proto.String("else_branch"), Type: pb.AttributeProto_GRAPH.Enum(), G: elseG})
	b.output(out)
	m := b.model(13)
	folded, r, st, err := infer.FoldProto(t.Context(), m, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, n := range folded.Graph.Node {
		ops = append(ops, n.GetOpType())
	}
	if len(ops) != 2 || ops[0] != "Flatten" || ops[1] != "Identity" {
		t.Errorf("folded nodes %v (%v)", ops, st)
	}
	if v, _ := r.Value(out); v.String() != "float[N,3*H*W]" {
		t.Errorf("the output is %v", v)
	}
	gm, err := graph.FromProto(folded, "")
	if err != nil {
		t.Fatalf("the folded model does not load: %v", err)
	}
	x0 := tensor.MustFromSlice(make([]float32, 2*3*2*2), 2, 3, 2, 2)
	res, err := gm.Run(context.Background(), map[string]tensor.Value{"x": x0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Map()[out].(*tensor.Tensor).Shape(); !tensor.SameShape(got, []int{2, 12}) {
		t.Errorf("the folded model gives shape %v", got)
	}
}

// unseededRandom reports whether a model has a random generator without
// a seed.
func unseededRandom(m *pb.ModelProto) bool {
	for _, n := range m.GetGraph().GetNode() {
		switch n.GetOpType() {
		case "RandomUniform", "RandomNormal", "RandomUniformLike", "RandomNormalLike", "Bernoulli", "Multinomial":
			seeded := false
			for _, a := range n.GetAttribute() {
				seeded = seeded || a.GetName() == "seed"
			}
			if !seeded {
				return true
			}
		}
	}
	return false
}

// TestFoldSliceToAConstantEnd: a detector keeps at most 300 boxes of the N
// it found (keep[:300]), so the length is min(N,300) and its Shape is not
// folded: folding it to 300 would turn a run on 5 boxes from [5] to [300].
func TestFoldSliceToAConstantEnd(t *testing.T) {
	for _, c := range []struct {
		start, end int64
		want       string
	}{
		{0, 300, "float[min(300,N)]"},
		{-3, math.MaxInt64, "float[N-max(0,N-3)]"},
	} {
		b := newGraph()
		x := b.input("x", "N")
		y := b.op("Slice", []string{x, b.ints("start", c.start), b.ints("end", c.end)})
		n := b.op("Shape", []string{y})
		b.output(y, n)
		m := b.model(13)
		folded, r, _, err := infer.FoldProto(t.Context(), m, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := r.Value(y); err != nil || v.String() != c.want {
			t.Errorf("x[%d:%d] is %v, want %s", c.start, c.end, v, c.want)
		}
		if len(folded.Graph.Node) != 2 {
			t.Errorf("x[%d:%d]: %d nodes left after folding, want Slice and Shape", c.start, c.end, len(folded.Graph.Node))
		}
		sameOutputs(t, "slice", m, folded, map[string][]graph.Dim{"x": dims(2)})
	}
}
