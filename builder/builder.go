// Package builder assembles an ONNX model from onnxshape's operators in Go
// and writes it as a .onnx file that onnxshape and onnxruntime both load: a
// pre-processing pipeline built once and used from Go and from any ONNX
// runtime.
//
//	b := builder.New(21)
//	img := b.InputDims("image", tensor.Uint8, graph.Const(1), graph.Sym("H"), graph.Sym("W"), graph.Const(3))
//	nchw := b.Op("Transpose", img, builder.Ints("perm", 0, 3, 1, 2))
//	b.Output("pixels", nchw)
//	m, err := b.Build() // a *graph.Model; or b.Save(path), b.WriteTo(w), b.Encode()
//
// Input declares a fixed shape, InputDims one with symbolic dimensions.
// Build, Encode, Save and WriteTo check the finished graph by type and
// shape propagation (package infer), without running it: an error names
// the node; the graph outputs get their types and shapes, symbolic ones
// included, which ONNX requires. The RunOnZeros option also runs it once
// on zero-valued inputs. ModelProto gives the protobuf message for callers
// who work with the ONNX format itself.
package builder

import (
	"context"
	"fmt"
	"strings"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/internal/nodeproto"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// Value names a value of the graph being built: an input, a constant or a
// node's output. The zero Value, None, stands for an optional input left out.
type Value struct{ name string }

// None is an optional operator input left out.
var None Value

// Name returns the value's name in the model.
func (v Value) Name() string { return v.name }

// Name names the node of an Op or OpN call (and its output, when it has
// one and the name is free); by default nodes are named after their
// operator: Transpose_1, ...
type Name string

// Builder accumulates a graph. Its methods record the first error and make
// every later call a no-op; Build, Encode, Save, WriteTo and ModelProto
// return it.
type Builder struct {
	opset   int64
	g       *pb.GraphProto
	names   map[string]bool
	counter int
	err     error
	// nodeNames holds the node names in use (a namespace of their own).
	nodeNames map[string]bool
	// renamed maps a node output's first name to the graph output name
	// Output gave it, so that the Value still reads it.
	renamed map[string]string
}

// Describe sets the graph's name and documentation string.
func (b *Builder) Describe(name, doc string) {
	if !b.ready() {
		return
	}
	b.g.Name = proto.String(name)
	b.g.DocString = proto.String(doc)
}

// New returns a builder for a model importing the default ONNX domain at
// the given opset version (7 to graph.NewestOpset).
func New(opset int) *Builder {
	b := &Builder{opset: int64(opset), g: &pb.GraphProto{Name: proto.String("onnxshape")}, names: map[string]bool{}, nodeNames: map[string]bool{}}
	if _, ok := irVersion(b.opset); !ok {
		b.err = fmt.Errorf("builder: opset %d is not one onnxshape knows (7 to %d)", opset, graph.NewestOpset)
	}
	return b
}

// irVersion is the IR version ONNX releases write with each opset, so that
// runtimes of that release accept the model.
func irVersion(opset int64) (int64, bool) {
	switch {
	case opset < 7 || opset > graph.NewestOpset:
		return 0, false
	case opset <= 8:
		return 3, true
	case opset <= 9:
		return 4, true
	case opset <= 10:
		return 5, true
	case opset <= 11:
		return 6, true
	case opset <= 14:
		return 7, true
	case opset <= 18:
		return 8, true
	case opset <= 20:
		return 9, true
	case opset <= 22:
		return 10, true
	case opset <= 24:
		return opset - 12, true // 23: 11, 24: 12
	}
	return 13, true // 25 to 28 (ONNX 1.20 to 1.22 and the node tests of opset 28)
}

// ready reports whether b was made by New; a zero Builder records an
// error instead of panicking, and every later call is a no-op.
func (b *Builder) ready() bool {
	if b.g != nil {
		return true
	}
	if b.err == nil {
		b.err = fmt.Errorf("builder: the Builder is not initialised: make it with builder.New(opset)")
	}
	return false
}

func (b *Builder) fail(format string, args ...any) {
	if b.err == nil {
		b.err = fmt.Errorf("builder: "+format, args...)
	}
}

// claim registers a new value name, or records an error if it is taken.
func (b *Builder) claim(name string) Value {
	if !b.ready() {
		return Value{name}
	}
	switch {
	case name == "":
		b.fail("a value needs a name: the empty name is ONNX's absent optional input")
	case b.names[name]:
		b.fail("value name %q is used twice: an input, a constant or an output already has it", name)
	}
	b.names[name] = true
	return Value{name}
}

// fresh returns an unused name made from prefix.
func (b *Builder) fresh(prefix string) string {
	for {
		b.counter++
		name := fmt.Sprintf("%s_%d", prefix, b.counter)
		if !b.names[name] {
			return name
		}
	}
}

// Input declares a graph input of element type dt and a fixed shape.
func (b *Builder) Input(name string, dt tensor.DataType, shape ...int) Value {
	v := b.claim(name)
	if b.err != nil {
		return v
	}
	for _, d := range shape {
		if d < 0 {
			b.fail("input %q: dimension %d is negative (declare a symbolic dimension with InputDims and Sym)", name, d)
			return v
		}
	}
	b.g.Input = append(b.g.Input, onnx.TensorValueInfo(name, dt, shape))
	return v
}

// Constant adds t to the model as an initializer named name.
func (b *Builder) Constant(name string, t *tensor.Tensor) Value {
	v := b.claim(name)
	if b.err != nil {
		return v
	}
	tp, err := onnx.TensorToProto(t, name)
	if err != nil {
		b.fail("constant %q: %v", name, err)
		return v
	}
	b.g.Initializer = append(b.g.Initializer, tp)
	return v
}

// Ints64 adds a 1-D int64 initializer, the form of shapes, axes and pads.
func (b *Builder) Ints64(name string, v ...int64) Value {
	return b.Constant(name, tensor.MustFromSlice(append([]int64{}, v...)))
}

// Arg is an argument of Op and OpN: a Value (an input, None for an
// optional input left out), an Attr or a Name. Nothing else compiles: a
// slice, a tensor or a number passed by mistake is a compile error, not a
// failure of Encode.
type Arg interface{ arg() }

func (Value) arg() {}
func (Attr) arg()  {}
func (Name) arg()  {}

// Op adds a node of operator op with the given inputs (Values, None for an
// optional input left out) and attributes, and returns its one output.
func (b *Builder) Op(op string, args ...Arg) Value {
	out := b.OpN(op, 1, args...)
	if len(out) == 0 {
		return Value{}
	}
	return out[0]
}

// OpN is Op for an operator with n outputs (Split, MaxPool with indices).
// Among the arguments, a Name names the node.
func (b *Builder) OpN(op string, n int, args ...Arg) []Value {
	if !b.ready() || b.err != nil {
		return make([]Value, n)
	}
	node := &pb.NodeProto{OpType: proto.String(op)}
	for _, x := range args {
		switch x := x.(type) {
		case Name:
			if x == "" || b.nodeNames[string(x)] {
				b.fail("%s: node name %q is empty or used twice", op, x)
			}
			node.Name = proto.String(string(x))
		case Value:
			x = b.current(x)
			if x.name != "" && !b.names[x.name] {
				b.fail("%s: input %q is not a value of this builder", op, x.name)
			}
			node.Input = append(node.Input, x.name)
		case Attr:
			if x.err != nil {
				b.fail("%s: %v", op, x.err)
			}
			node.Attribute = append(node.Attribute, x.proto)
		default:
			b.fail("%s: %T is not a Value, an Attr or a Name", op, x) // only a nil Arg gets here
		}
	}
	// An attribute the operator version does not take is refused now, at
	// the call that adds it, as the loader would refuse the model.
	if schema, err := ops.Lookup("", op, int(b.opset)); err == nil && b.err == nil {
		if err := nodeproto.CheckAttributes(node, schema); err != nil {
			b.fail("%s: %v", op, err)
		}
	}
	// Trailing absent inputs are dropped, as ONNX writers do.
	for len(node.Input) > 0 && node.Input[len(node.Input)-1] == "" {
		node.Input = node.Input[:len(node.Input)-1]
	}
	if node.Name == nil {
		name := b.fresh(op)
		for b.nodeNames[name] {
			name = b.fresh(op)
		}
		node.Name = proto.String(name)
	}
	b.nodeNames[node.GetName()] = true
	outs := make([]Value, n)
	for i := range outs {
		name := node.GetName()
		if n > 1 || b.names[name] {
			name = b.fresh(node.GetName() + "_out")
		}
		outs[i] = b.claim(name)
		node.Output = append(node.Output, outs[i].name)
	}
	b.g.Node = append(b.g.Node, node)
	return outs
}

// Output makes v a graph output under the given name.
func (b *Builder) Output(name string, v Value) {
	if !b.ready() || b.err != nil {
		return
	}
	v = b.current(v)
	if v.name == "" {
		b.fail("output %q: the value is None, not a value of this builder", name)
		return
	}
	if !b.names[v.name] {
		b.fail("output %q: %q is not a value of this builder", name, v.name)
		return
	}
	if name != v.name && b.isOutput(v.name) {
		// A value that is already a graph output gets a second name
		// through an Identity node.
		v = b.current(b.Op("Identity", v))
		if b.err != nil {
			return
		}
	}
	if name != v.name {
		// Give the producing node's output the graph output's name.
		if b.names[name] {
			b.fail("output name %q is used twice", name)
			return
		}
		if !b.rename(v.name, name) {
			b.fail("output %q: an input or constant cannot be renamed; give it the output's name", name)
			return
		}
	}
	b.g.Output = append(b.g.Output, &pb.ValueInfoProto{Name: proto.String(name)})
}

// current returns v under the name it has now: Output renames a node's
// output to the graph output's name.
func (b *Builder) current(v Value) Value {
	for {
		to, ok := b.renamed[v.name]
		if !ok {
			return v
		}
		v.name = to
	}
}

// isOutput reports whether name is a graph output already.
func (b *Builder) isOutput(name string) bool {
	for _, o := range b.g.Output {
		if o.GetName() == name {
			return true
		}
	}
	return false
}

// rename renames a node output everywhere it is used.
func (b *Builder) rename(from, to string) bool {
	produced := false
	for _, n := range b.g.Node {
		for i, o := range n.Output {
			if o == from {
				n.Output[i], produced = to, true
			}
		}
		for i, in := range n.Input {
			if in == from {
				n.Input[i] = to
			}
		}
	}
	for _, o := range b.g.Output {
		if o.GetName() == from {
			o.Name = proto.String(to)
		}
	}
	if produced {
		delete(b.names, from)
		b.names[to] = true
		if b.renamed == nil {
			b.renamed = map[string]string{}
		}
		b.renamed[from] = to
	}
	return produced
}

// Option changes how Build, Encode and ModelProto check the graph.
type Option func(*options)

type options struct {
	runOnZeros   bool
	maxFoldBytes int64
}

// RunOnZeros makes Model also run the graph once on zero-valued inputs of
// the declared shapes, so that every kernel checks its node as it would at
// run time. The inputs' shapes must then be numbers.
func RunOnZeros() Option { return func(o *options) { o.runOnZeros = true } }

// MaxFoldBytes caps the size of any value whose contents the shape
// propagation computes (see infer.Options.MaxFoldBytes).
func MaxFoldBytes(n int64) Option { return func(o *options) { o.maxFoldBytes = n } }

// ModelProto returns the model as its protobuf message, for callers who
// work with the ONNX format itself; Build, Encode, Save and WriteTo are
// the usual ways out. It checks the graph as onnxshape's loader does
// (operators, versions, attributes, arity, order) and then by type and
// shape propagation (package infer), without running it: every node must
// accept its inputs' types and shapes, symbolic ones included, and the
// outputs and intermediate values are declared with the types and shapes
// inferred (value_info, which lets a checker see every node before a run).
func (b *Builder) ModelProto(opts ...Option) (*pb.ModelProto, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	if !b.ready() || b.err != nil {
		return nil, b.err
	}
	if len(b.g.Output) == 0 {
		return nil, fmt.Errorf("builder: the graph has no output")
	}
	ir, _ := irVersion(b.opset)
	m := &pb.ModelProto{
		IrVersion:    proto.Int64(ir),
		ProducerName: proto.String("onnxshape"),
		OpsetImport:  []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(b.opset)}},
		Graph:        proto.Clone(b.g).(*pb.GraphProto),
	}
	loaded, err := graph.FromProto(m, "")
	if err != nil {
		return nil, fmt.Errorf("builder: %w", err)
	}
	r, err := infer.Model(context.Background(), loaded, &infer.Options{MaxFoldBytes: o.maxFoldBytes})
	if err != nil {
		return nil, fmt.Errorf("builder: %w", err)
	}
	for _, p := range r.Problems {
		if p.Kind != infer.Note { // a note holds only if a branch that may not run runs
			return nil, fmt.Errorf("builder: %v", p)
		}
	}
	isOutput := map[string]bool{}
	for _, out := range m.Graph.Output {
		v, err := r.Value(out.GetName())
		if err != nil || v.Type == tensor.Undefined || v.Kind != graph.KindTensor {
			return nil, fmt.Errorf("builder: the type of output %q is unknown", out.GetName())
		}
		out.Type = typeOf(v)
		isOutput[out.GetName()] = true
	}
	for _, n := range m.Graph.Node {
		for _, name := range n.Output {
			if v, err := r.Value(name); err == nil && !isOutput[name] && v.Type != tensor.Undefined && v.Kind == graph.KindTensor {
				m.Graph.ValueInfo = append(m.Graph.ValueInfo, &pb.ValueInfoProto{Name: proto.String(name), Type: typeOf(v)})
			}
		}
	}
	if o.runOnZeros {
		if err := runOnZeros(m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// typeOf declares a tensor value as inference knows it: a symbolic
// dimension as its expression (dim_param), one known only at run time
// without a name.
func typeOf(v *infer.Value) *pb.TypeProto {
	tt := &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(v.Type))}
	if v.Ranked {
		tt.Shape = &pb.TensorShapeProto{Dim: []*pb.TensorShapeProto_Dimension{}}
		for _, d := range v.Shape {
			dim := &pb.TensorShapeProto_Dimension{}
			if n, ok := d.Value(); ok {
				dim.Value = &pb.TensorShapeProto_Dimension_DimValue{DimValue: n}
			} else if s := d.String(); !strings.HasPrefix(s, "unk__") {
				dim.Value = &pb.TensorShapeProto_Dimension_DimParam{DimParam: s}
			}
			tt.Shape.Dim = append(tt.Shape.Dim, dim)
		}
	}
	return &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: tt}}
}

// runOnZeros runs m once on zero-valued inputs of its declared shapes.
func runOnZeros(m *pb.ModelProto) error {
	gm, err := graph.FromProto(m, "")
	if err != nil {
		return fmt.Errorf("builder: %w", err)
	}
	inputs := map[string]tensor.Value{}
	for _, in := range m.Graph.Input {
		tt := in.GetType().GetTensorType()
		shape := make([]int, len(tt.GetShape().GetDim()))
		for i, d := range tt.GetShape().GetDim() {
			if d.GetDimParam() != "" {
				return fmt.Errorf("builder: input %q has the symbolic dimension %s: it cannot run on zeros", in.GetName(), d.GetDimParam())
			}
			shape[i] = int(d.GetDimValue())
		}
		z, err := tensor.New(tensor.DataType(tt.GetElemType()), shape...)
		if err != nil {
			return fmt.Errorf("builder: input %q: %w", in.GetName(), err)
		}
		inputs[in.GetName()] = z
	}
	if _, err := gm.Run(context.Background(), inputs, nil); err != nil {
		return fmt.Errorf("builder: the graph does not run on zero inputs of the declared shapes: %w", err)
	}
	return nil
}

// Encode returns the model's bytes, ready to be written as a .onnx file;
// it checks the graph as Model does.
func (b *Builder) Encode(opts ...Option) ([]byte, error) {
	m, err := b.ModelProto(opts...)
	if err != nil {
		return nil, err
	}
	return onnx.EncodeModel(m)
}
