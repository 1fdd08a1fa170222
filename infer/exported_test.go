package infer_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

var update = flag.Bool("update", false, "rewrite the exporter-style models in testdata")

// graphBuilder writes a GraphProto the way exporters do, one node at a
// time, including operators onnxshape does not run.
type graphBuilder struct {
	g *pb.GraphProto
	n int
}

func newGraph() *graphBuilder {
	return &graphBuilder{g: &pb.GraphProto{Name: proto.String("exported")}}
}

// input declares a float input; a string dimension is symbolic.
func (b *graphBuilder) input(name string, dims ...any) string {
	shape := &pb.TensorShapeProto{}
	for _, d := range dims {
		switch d := d.(type) {
		case int:
			shape.Dim = append(shape.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: int64(d)}})
		case string:
			shape.Dim = append(shape.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimParam{DimParam: d}})
		}
	}
	b.g.Input = append(b.g.Input, &pb.ValueInfoProto{Name: proto.String(name), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{
		TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(tensor.Float)), Shape: shape}}}})
	return name
}

func (b *graphBuilder) init(name string, t *tensor.Tensor) string {
	tp, err := onnx.TensorToProto(t, name)
	if err != nil {
		panic(err)
	}
	b.g.Initializer = append(b.g.Initializer, tp)
	return name
}

func (b *graphBuilder) ints(name string, v ...int64) string {
	return b.init(name, tensor.MustFromSlice(v))
}

func (b *graphBuilder) scalar(name string, v int64) string {
	return b.init(name, tensor.Scalar(v))
}

func (b *graphBuilder) weights(name string, shape ...int) string {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(i%7) / 7
	}
	return b.init(name, tensor.MustFromSlice(data, shape...))
}

// op adds a node with one output.
func (b *graphBuilder) op(op string, inputs []string, attrs ...*pb.AttributeProto) string {
	return b.opN(op, 1, inputs, attrs...)[0]
}

func (b *graphBuilder) opN(op string, n int, inputs []string, attrs ...*pb.AttributeProto) []string {
	b.n++
	name := op + "_" + itoa(b.n)
	node := &pb.NodeProto{OpType: proto.String(op), Name: proto.String(name), Input: inputs, Attribute: attrs}
	var outs []string
	for i := 0; i < n; i++ {
		o := name + "_out" + itoa(i)
		outs = append(outs, o)
	}
	node.Output = outs
	b.g.Node = append(b.g.Node, node)
	return outs
}

func (b *graphBuilder) output(names ...string) {
	for _, n := range names {
		b.g.Output = append(b.g.Output, &pb.ValueInfoProto{Name: proto.String(n)})
	}
}

func (b *graphBuilder) model(opset int64) *pb.ModelProto {
	return &pb.ModelProto{IrVersion: proto.Int64(8), ProducerName: proto.String("exporter-style test"),
		OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(opset)}}, Graph: b.g}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func mustProto(t *tensor.Tensor) *pb.TensorProto {
	tp, err := onnx.TensorToProto(t, "")
	if err != nil {
		panic(err)
	}
	return tp
}

func aInt(name string, v int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(v)}
}

func aInts(name string, v ...int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INTS.Enum(), Ints: v}
}

func aStr(name, v string) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_STRING.Enum(), S: []byte(v)}
}

// exportedModel is a model as an exporter writes it and the shapes
// inference must give its outputs.
type exportedModel struct {
	name  string
	model *pb.ModelProto
	want  map[string]string // output -> inferred value, as Value.String renders it
}

// exportedModels builds models in the patterns exporters write.
func exportedModels() []exportedModel {
	var out []exportedModel

	// x.view(x.size(0), -1), as torch.onnx writes it.
	{
		b := newGraph()
		x := b.input("x", "N", 3, "H", "W")
		s := b.op("Shape", []string{x})
		n := b.op("Gather", []string{s, b.scalar("zero", 0)}, aInt("axis", 0))
		u := b.op("Unsqueeze", []string{n, b.ints("axes0", 0)})
		c := b.op("Concat", []string{u, b.ints("minus1", -1)}, aInt("axis", 0))
		y := b.op("Reshape", []string{x, c})
		b.output(y)
		out = append(out, exportedModel{"flatten", b.model(13), map[string]string{y: "float[N,3*H*W]"}})
	}
	// The same with the ops onnxshape runs (Slice instead of Gather).
	{
		b := newGraph()
		x := b.input("x", "N", 3, "H", "W")
		s := b.op("Shape", []string{x})
		n := b.op("Slice", []string{s, b.ints("start", 0), b.ints("end", 1)})
		c := b.op("Concat", []string{n, b.ints("minus1", -1)}, aInt("axis", 0))
		r := b.op("Reshape", []string{x, c})
		y := b.op("Identity", []string{r})
		b.output(y)
		out = append(out, exportedModel{"flatten_slice", b.model(13), map[string]string{y: "float[N,3*H*W]"}})
	}
	// F.interpolate(x, scale_factor=2): the sizes computed from the shape.
	{
		b := newGraph()
		x := b.input("x", "N", "C", "H", "W")
		s := b.op("Shape", []string{x})
		hw := b.op("Slice", []string{s, b.ints("s2", 2), b.ints("s4", 4)})
		hwf := b.op("Cast", []string{hw}, aInt("to", int64(tensor.Float)))
		scaled := b.op("Mul", []string{hwf, b.init("two", tensor.MustFromSlice([]float32{2, 2}))})
		floor := b.op("Floor", []string{scaled})
		sz := b.op("Cast", []string{floor}, aInt("to", int64(tensor.Int64)))
		nc := b.op("Slice", []string{s, b.ints("s0", 0), b.ints("e2", 2)})
		sizes := b.op("Concat", []string{nc, sz}, aInt("axis", 0))
		y := b.op("Resize", []string{x, "", "", sizes}, aStr("mode", "nearest"))
		b.output(y)
		out = append(out, exportedModel{"interpolate", b.model(13), map[string]string{y: "float[N,C,2*H,2*W]"}})
	}
	// x.expand(x.size(0), 4, -1), as torch.onnx writes it: the -1 is
	// replaced by 1 through ConstantOfShape, Mul, Equal and Where.
	{
		b := newGraph()
		x := b.input("x", "N", 1, 5)
		n := b.op("Unsqueeze", []string{b.op("Gather", []string{b.op("Shape", []string{x}), b.scalar("zero", 0)}), b.ints("axes0", 0)})
		target := b.op("Concat", []string{n, b.ints("four", 4), b.ints("minus1", -1)}, aInt("axis", 0))
		ones := b.op("ConstantOfShape", []string{b.ints("three", 3)}, &pb.AttributeProto{Name: proto.String("value"),
			Type: pb.AttributeProto_TENSOR.Enum(), T: mustProto(tensor.MustFromSlice([]int64{1}))})
		minus := b.op("Mul", []string{ones, b.scalar("m1", -1)})
		eq := b.op("Equal", []string{target, minus})
		shape := b.op("Where", []string{eq, ones, target})
		y := b.op("Expand", []string{x, shape})
		b.output(y)
		out = append(out, exportedModel{"expand", b.model(13), map[string]string{shape: "int64[3]=[N,4,1]", y: "float[N,4,5]"}})
	}
	// Multi-head attention: heads split by a computed shape, merged back.
	{
		b := newGraph()
		x := b.input("x", "B", "S", 64)
		q := b.op("MatMul", []string{x, b.weights("wq", 64, 64)})
		s := b.op("Shape", []string{q})
		bsz := b.op("Unsqueeze", []string{b.op("Gather", []string{s, b.scalar("i0", 0)}), b.ints("ax0", 0)})
		seq := b.op("Unsqueeze", []string{b.op("Gather", []string{s, b.scalar("i1", 1)}), b.ints("ax0b", 0)})
		split := b.op("Concat", []string{bsz, seq, b.ints("heads", 4), b.ints("dh", 16)}, aInt("axis", 0))
		heads := b.op("Transpose", []string{b.op("Reshape", []string{q, split})}, aInts("perm", 0, 2, 1, 3))
		kt := b.op("Transpose", []string{heads}, aInts("perm", 0, 1, 3, 2))
		scores := b.op("Softmax", []string{b.op("MatMul", []string{heads, kt})}, aInt("axis", -1))
		ctx := b.op("Transpose", []string{b.op("MatMul", []string{scores, heads})}, aInts("perm", 0, 2, 1, 3))
		merge := b.op("Concat", []string{bsz, seq, b.ints("m1", -1)}, aInt("axis", 0))
		y := b.op("Reshape", []string{ctx, merge})
		b.output(y, scores)
		out = append(out, exportedModel{"attention", b.model(13), map[string]string{y: "float[B,S,64]", scores: "float[B,4,S,S]"}})
	}
	// Conv -> BatchNorm -> Relu -> MaxPool -> GlobalAveragePool -> Flatten -> Gemm.
	{
		b := newGraph()
		x := b.input("x", "N", 3, "H", "W")
		conv := b.op("Conv", []string{x, b.weights("w", 16, 3, 3, 3), b.weights("bias", 16)}, aInts("pads", 1, 1, 1, 1), aInts("strides", 2, 2))
		bn := b.op("BatchNormalization", []string{conv, b.weights("gamma", 16), b.weights("beta", 16), b.weights("mean", 16), b.weights("var", 16)})
		pool := b.op("MaxPool", []string{b.op("Relu", []string{bn})}, aInts("kernel_shape", 2, 2), aInts("strides", 2, 2))
		flat := b.op("Flatten", []string{b.op("GlobalAveragePool", []string{pool})})
		y := b.op("Gemm", []string{flat, b.weights("fc", 10, 16), b.weights("fcb", 10)}, aInt("transB", 1))
		b.output(pool, y)
		out = append(out, exportedModel{"convnet", b.model(13), map[string]string{
			pool: "float[N,16,floor((floor((H-1)/2)-1)/2)+1,floor((floor((W-1)/2)-1)/2)+1]",
			y:    "float[N,10]"}})
	}
	return out
}

// TestExportedModels: the exporter patterns infer to the symbolic shapes a
// reader would write by hand.
func TestExportedModels(t *testing.T) {
	for _, m := range exportedModels() {
		r, err := infer.Proto(t.Context(), m.model, "", nil)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		for _, p := range r.Problems {
			t.Errorf("%s: %v", m.name, p)
		}
		for name, want := range m.want {
			v, err := r.Value(name)
			if err != nil || v.String() != want {
				t.Errorf("%s: %s is %v, want %s", m.name, name, v, want)
			}
		}
		path := filepath.Join("testdata", m.name+".onnx")
		b, err := onnx.EncodeModel(m.model)
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		} else if old, err := os.ReadFile(path); err != nil || !bytes.Equal(old, b) {
			t.Errorf("%s is not the model this test builds: go test ./infer -run TestExportedModels -update", path)
		}
	}
}
