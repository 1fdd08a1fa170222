package infer_test

import (
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

func declare(vi *pb.ValueInfoProto, dt tensor.DataType, dims ...int64) {
	s := &pb.TensorShapeProto{}
	for _, d := range dims {
		s.Dim = append(s.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: d}})
	}
	vi.Type = &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt)), Shape: s}}}
}

// TestDeclaredConflicts: a declared output or value_info that contradicts
// inference is a Conflict naming both shapes; one that says more than
// inference knows fills in.
func TestDeclaredConflicts(t *testing.T) {
	b := newGraph()
	x := b.input("x", "N", 6)
	y := b.op("Transpose", []string{x})
	z := b.op("Relu", []string{y})
	b.output(z)
	m := b.model(13)
	declare(m.Graph.Output[0], tensor.Float, 5, 4)
	r, err := infer.Proto(t.Context(), m, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) != 1 || r.Problems[0].Kind != infer.Conflict ||
		!strings.Contains(r.Problems[0].Msg, "declared float[5,4], inferred float[6,N]") {
		t.Errorf("problems %v", r.Problems)
	}

	// N is unknown: a declaration [6, 7] fills it in, for this value.
	m.Graph.ValueInfo = []*pb.ValueInfoProto{{Name: proto.String(y)}}
	declare(m.Graph.ValueInfo[0], tensor.Float, 6, 7)
	m.Graph.Output[0].Type = nil
	r, _ = infer.Proto(t.Context(), m, "", nil)
	if v, _ := r.Value(z); v.String() != "float[6,N]" || len(r.Problems) != 0 {
		t.Errorf("z is %v, problems %v", v, r.Problems)
	}
	b2 := newGraph()
	u := b2.op("NonZero", []string{b2.input("x", 3, 4)})
	b2.g.ValueInfo = []*pb.ValueInfoProto{{Name: proto.String(u)}}
	declare(b2.g.ValueInfo[0], tensor.Int64, 2, 9)
	b2.output(u)
	r, _ = infer.Proto(t.Context(), b2.model(13), "", nil)
	if v, _ := r.Value(u); v.String() != "int64[2,9]" || len(r.Problems) != 0 {
		t.Errorf("NonZero declared [2,9] is %v, problems %v", v, r.Problems)
	}
}

// TestDataDependent: data-dependent sizes get fresh symbols, distinct from
// the model's own.
func TestDataDependent(t *testing.T) {
	b := newGraph()
	x := b.input("x", "unk__1", 4)
	nz := b.op("NonZero", []string{x})
	k := b.op("ReduceMax", []string{b.op("Cast", []string{x}, aInt("to", int64(tensor.Int64)))}, aInt("keepdims", 0))
	topk := b.opN("TopK", 2, []string{x, b.op("Reshape", []string{k, b.ints("one", 1)})})
	b.output(nz, topk[0])
	r, err := infer.Proto(t.Context(), b.model(13), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := r.Value(nz)
	if v.Rank() != 2 || v.Shape[0].String() != "2" || v.Shape[1].String() == "unk__1" || v.Shape[1].IsKnown() {
		t.Errorf("NonZero is %v", v)
	}
	w, _ := r.Value(topk[0])
	if w.Rank() != 2 || w.Shape[0].String() != "unk__1" || w.Shape[1].IsKnown() {
		t.Errorf("TopK is %v", w)
	}
}

// TestOverridableInitializers: from IR version 4 an initializer also listed
// as a graph input is a default the caller may replace: nothing is folded
// from it. Before 4 every initializer was listed so and is a constant.
func TestOverridableInitializers(t *testing.T) {
	for _, ir := range []int64{3, 8} {
		b := newGraph()
		x := b.input("x", 2, 6)
		s := b.ints("s", 3, 4)
		b.g.Input = append(b.g.Input, &pb.ValueInfoProto{Name: proto.String(s)})
		declare(b.g.Input[1], tensor.Int64, 2)
		y := b.op("Reshape", []string{x, s})
		b.output(y)
		m := b.model(13)
		m.IrVersion = proto.Int64(ir)
		r, err := infer.Proto(t.Context(), m, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := r.Value(y)
		_, static := v.Static()
		if static != (ir < 4) {
			t.Errorf("IR %d: the reshape is %v", ir, v)
		}
	}
}

// TestLargeInitializersNotRead: an initializer larger than inference
// computes with is known by its dims alone; its data is never read.
func TestLargeInitializersNotRead(t *testing.T) {
	b := newGraph()
	b.g.Initializer = append(b.g.Initializer, &pb.TensorProto{Name: proto.String("w"), Dims: []int64{1 << 20, 1 << 20},
		DataType: proto.Int32(int32(tensor.Float))})
	y := b.op("Transpose", []string{"w"})
	b.output(y)
	r, err := infer.Proto(t.Context(), b.model(13), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Value(y); v.String() != "float[1048576,1048576]" || len(r.Problems) != 0 {
		t.Errorf("the transpose is %v, problems %v", v, r.Problems)
	}
}

// TestNoFolding: with folding off (MaxFoldBytes < 0) a Constant node's
// value is still known, and shape arithmetic on dimensions still done.
func TestNoFolding(t *testing.T) {
	b := newGraph()
	x := b.input("x", "N", 3, 4)
	shape := b.op("Constant", nil, &pb.AttributeProto{Name: proto.String("value_ints"), Type: pb.AttributeProto_INTS.Enum(), Ints: []int64{0, -1}})
	y := b.op("Reshape", []string{x, shape})
	b.output(y)
	r, err := infer.Proto(t.Context(), b.model(13), "", &infer.Options{MaxFoldBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Value(y); v.String() != "float[N,12]" {
		t.Errorf("the reshape is %v (%v)", v, r.Problems)
	}
}

// TestLoopTripCount: a loop whose condition cannot turn false runs M
// times: its scan outputs are M long; a condition computed from a
// loop-carried value could stop it early.
func TestLoopTripCount(t *testing.T) {
	for _, early := range []bool{false, true} {
		b := newGraph()
		x := b.input("x", 2)
		body := &pb.GraphProto{Name: proto.String("body"),
			Input: []*pb.ValueInfoProto{{Name: proto.String("i")}, {Name: proto.String("c")}, {Name: proto.String("v")}}}
		declare(body.Input[0], tensor.Int64)
		declare(body.Input[1], tensor.Bool)
		declare(body.Input[2], tensor.Float, 2)
		condOut := &pb.NodeProto{OpType: proto.String("Identity"), Input: []string{"c"}, Output: []string{"c_out"}}
		if early {
			condOut = &pb.NodeProto{OpType: proto.String("Greater"), Input: []string{"v", "v"}, Output: []string{"c_out"}}
		}
		body.Node = []*pb.NodeProto{condOut,
			{OpType: proto.String("Identity"), Input: []string{"v"}, Output: []string{"v_out"}},
			{OpType: proto.String("Unsqueeze"), Input: []string{"i", "axes"}, Output: []string{"scan"}}}
		body.Initializer = []*pb.TensorProto{mustProto(tensor.MustFromSlice([]int64{0}))}
		body.Initializer[0].Name = proto.String("axes")
		body.Output = []*pb.ValueInfoProto{{Name: proto.String("c_out")}, {Name: proto.String("v_out")}, {Name: proto.String("scan")}}
		outs := b.opN("Loop", 2, []string{b.scalar("m", 5), b.init("t", tensor.Scalar(true)), x},
			&pb.AttributeProto{Name: proto.String("body"), Type: pb.AttributeProto_GRAPH.Enum(), G: body})
		b.output(outs...)
		r, err := infer.Proto(t.Context(), b.model(13), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := r.Value(outs[1])
		if got := v.String(); (got == "int64[5,1]") == early || v.Rank() != 2 {
			t.Errorf("early stop %v: the scan output is %v (%v)", early, v, r.Problems)
		}
	}
}

// TestSwiGLUDoesNotBroadcast: SwiGLU's output has A's shape; a B whose
// known shape differs is refused, where Mul would broadcast it.
func TestSwiGLUDoesNotBroadcast(t *testing.T) {
	b := newGraph()
	y := b.op("SwiGLU", []string{b.input("a", "N", 4), b.input("b", "N", 4)})
	b.output(y)
	r, err := infer.Proto(t.Context(), b.model(28), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Value(y); v.String() != "float[N,4]" || len(r.Problems) != 0 {
		t.Errorf("SwiGLU of [N,4] and [N,4] is %v, problems %v", v, r.Problems)
	}
	b = newGraph()
	b.output(b.op("SwiGLU", []string{b.input("a", 2, 4), b.input("b", 1, 4)}))
	r, _ = infer.Proto(t.Context(), b.model(28), "", nil)
	if len(r.Problems) != 1 || r.Problems[0].Kind != infer.Refused || !strings.Contains(r.Problems[0].Msg, "does not broadcast") {
		t.Errorf("SwiGLU of [2,4] and [1,4]: problems %v", r.Problems)
	}
}
