// Package modelcheck is the one pass that decides whether a model is valid
// ONNX as onnxshape reads it, shared by the loader (package graph), which
// refuses a model that fails it in every mode, and the SONNX check
// (package profile), which reports each problem under the rule ONNX: so
// the check never places inside a model the loader refuses.
//
// It checks what the loader and the check would otherwise read
// differently: the IR version (set, and one onnxshape knows), attributes
// that carry a type but no value (read as 0), negative dimensions,
// declarations of one value that disagree (value_info against a graph
// input, an initializer or a graph output; a value declared twice in
// value_info or listed twice as an output, whatever the order), and
// model-local functions named like an operator of the default domain
// (which a runtime honouring local functions would call instead). It reads
// the protobuf message only, never tensor data, and never modifies it.
package modelcheck

import (
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/encoding/protowire"
)

// NewestIR is the newest IR version onnxshape reads (ONNX 1.20 to 1.22).
const NewestIR = 13

// Where a problem is.
const (
	Model     = "model"
	Input     = "input"
	Output    = "output"
	ValueInfo = "value"
	Node      = "node"
)

// Problem is one way the model is not valid ONNX.
type Problem struct {
	Kind  string // Model, Input, Output, ValueInfo or Node
	Name  string // the value's or node's name
	Index int    // the node's index in the main graph, -1 for values
	Msg   string
	Fix   string
}

func (p Problem) Error() string {
	if p.Kind == Model {
		return p.Msg
	}
	return fmt.Sprintf("%s %q: %s", p.Kind, p.Name, p.Msg)
}

// Check returns every problem of m, in a fixed order (the model, the
// graph's declarations, then the nodes), the same whatever the order of
// the declarations in the file.
func Check(m *pb.ModelProto) []Problem {
	var ps []Problem
	add := func(kind, name string, index int, fix, format string, args ...any) {
		ps = append(ps, Problem{Kind: kind, Name: name, Index: index, Msg: fmt.Sprintf(format, args...), Fix: fix})
	}
	switch ir := m.GetIrVersion(); {
	case ir <= 0:
		add(Model, "", -1, "set ir_version to the IR version the model was written for", "the model's ir_version is %d: unset or not a version", ir)
	case ir > NewestIR:
		add(Model, "", -1, fmt.Sprintf("write the model for IR version %d or older", NewestIR), "the model's ir_version %d is newer than %d, the newest onnxshape reads", ir, NewestIR)
	}
	for _, f := range m.GetFunctions() {
		d := f.GetDomain()
		if d != "" && d != "ai.onnx" {
			continue
		}
		if _, err := ops.Lookup("", f.GetName(), math.MaxInt32); err == nil {
			add(Model, "", -1, "rename the function or move it to a domain of its own",
				"the model-local function %q of the default domain has the name of an ONNX operator: a runtime that honours local functions computes it, onnxshape the operator", f.GetName())
		}
	}
	g := m.GetGraph()
	if g == nil {
		return ps
	}
	checkDeclarations(g, add)
	for i, np := range g.GetNode() {
		checkAttributes(np, i, 0, add)
	}
	return ps
}

type addFunc func(kind, name string, index int, fix, format string, args ...any)

// checkDeclarations compares every declaration of a value with the others.
func checkDeclarations(g *pb.GraphProto, add addFunc) {
	inputs := map[string]*pb.TypeProto{}
	for _, vi := range g.GetInput() {
		inputs[vi.GetName()] = vi.GetType()
		checkDims(Input, vi, add)
	}
	inits := map[string]*pb.TensorProto{}
	for _, tp := range g.GetInitializer() {
		inits[tp.GetName()] = tp
	}
	outputs := map[string]*pb.TypeProto{}
	for _, vi := range g.GetOutput() {
		if _, dup := outputs[vi.GetName()]; dup {
			add(Output, vi.GetName(), -1, "list every graph output once", "the graph output is listed twice")
		}
		outputs[vi.GetName()] = vi.GetType()
		checkDims(Output, vi, add)
	}
	seen := map[string]bool{}
	for _, vi := range g.GetValueInfo() {
		name := vi.GetName()
		if seen[name] {
			add(ValueInfo, name, -1, "declare every value once in value_info", "the value is declared twice in value_info")
		}
		seen[name] = true
		checkDims(ValueInfo, vi, add)
		t := vi.GetType()
		if in, ok := inputs[name]; ok {
			if why := disagree(t, in); why != "" {
				add(ValueInfo, name, -1, "make value_info agree with the graph input, or remove it", "value_info contradicts the graph input's declaration: %s", why)
			}
		}
		if out, ok := outputs[name]; ok {
			if why := disagree(t, out); why != "" {
				add(ValueInfo, name, -1, "make value_info agree with the graph output, or remove it", "value_info contradicts the graph output's declaration: %s", why)
			}
		}
		if tp, ok := inits[name]; ok {
			if why := disagree(t, initializerType(tp)); why != "" {
				add(ValueInfo, name, -1, "make value_info agree with the initializer, or remove it", "value_info contradicts the initializer: %s", why)
			}
		}
	}
	for name, tp := range inits {
		if in, ok := inputs[name]; ok {
			if why := disagree(in, initializerType(tp)); why != "" {
				add(Input, name, -1, "declare the graph input with the initializer's type and shape", "the graph input's declaration contradicts its initializer: %s", why)
			}
		}
	}
}

// initializerType is the type an initializer has.
func initializerType(tp *pb.TensorProto) *pb.TypeProto {
	tt := &pb.TypeProto_Tensor{ElemType: tp.DataType, Shape: &pb.TensorShapeProto{}}
	for _, d := range tp.GetDims() {
		tt.Shape.Dim = append(tt.Shape.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: d}})
	}
	return &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: tt}}
}

// disagree says how two declarations of one tensor contradict each other,
// "" when they do not: another element type, another rank, or a dimension
// both give with different sizes.
func disagree(a, b *pb.TypeProto) string {
	ta, tb := a.GetTensorType(), b.GetTensorType()
	if ta == nil || tb == nil {
		return "" // a sequence, map or optional: not compared here
	}
	if ea, eb := ta.GetElemType(), tb.GetElemType(); ea != 0 && eb != 0 && ea != eb {
		return fmt.Sprintf("element type %v against %v", tensor.DataType(ea), tensor.DataType(eb))
	}
	sa, sb := ta.GetShape(), tb.GetShape()
	if sa == nil || sb == nil {
		return ""
	}
	if len(sa.GetDim()) != len(sb.GetDim()) {
		return fmt.Sprintf("rank %d against %d", len(sa.GetDim()), len(sb.GetDim()))
	}
	for k, da := range sa.GetDim() {
		db := sb.GetDim()[k]
		va, oka := da.GetValue().(*pb.TensorShapeProto_Dimension_DimValue)
		vb, okb := db.GetValue().(*pb.TensorShapeProto_Dimension_DimValue)
		if oka && okb && va.DimValue != vb.DimValue {
			return fmt.Sprintf("dimension %d is %d against %d", k, va.DimValue, vb.DimValue)
		}
	}
	return ""
}

// checkDims refuses a negative dim_value in a declaration.
func checkDims(kind string, vi *pb.ValueInfoProto, add addFunc) {
	for k, d := range vi.GetType().GetTensorType().GetShape().GetDim() {
		if v, ok := d.GetValue().(*pb.TensorShapeProto_Dimension_DimValue); ok && v.DimValue < 0 {
			add(kind, vi.GetName(), -1, "give the dimension's size (>= 0), or leave it unknown (dim_param)", "dimension %d has dim_value %d", k, v.DimValue)
		}
	}
}

// maxDepth bounds the walk into subgraphs.
const maxDepth = 64

// checkAttributes refuses an attribute that carries a single-value type
// and no value (a list type may be empty), in the node and in the nodes of
// its subgraphs; index is the main graph's node the problem is reported at.
func checkAttributes(np *pb.NodeProto, index, depth int, add addFunc) {
	if depth > maxDepth {
		return
	}
	for _, a := range np.GetAttribute() {
		if a.GetRefAttrName() != "" {
			continue // a reference to a function's attribute
		}
		missing := false
		switch a.GetType() {
		case pb.AttributeProto_FLOAT:
			missing = a.F == nil
		case pb.AttributeProto_INT:
			missing = a.I == nil
		case pb.AttributeProto_STRING:
			missing = a.S == nil
		case pb.AttributeProto_TENSOR:
			missing = a.T == nil
		case pb.AttributeProto_GRAPH:
			missing = a.G == nil
		case pb.AttributeProto_SPARSE_TENSOR:
			missing = a.SparseTensor == nil
		case pb.AttributeProto_TYPE_PROTO:
			missing = a.Tp == nil
		}
		if missing {
			add(Node, np.GetName(), index, "give the attribute its value, or leave it out",
				"attribute %s of %s has type %v and no value", a.GetName(), np.GetOpType(), a.GetType())
		}
		var subs []*pb.GraphProto
		if a.G != nil {
			subs = append(subs, a.G)
		}
		subs = append(subs, a.GetGraphs()...)
		for _, g := range subs {
			for _, sub := range g.GetNode() {
				checkAttributes(sub, index, depth+1, add)
			}
		}
	}
}

// NewestOpsetOfIR returns the newest default-domain opset a model of IR
// version ir can carry, as the ONNX releases paired them (IR 3: opset 8,
// IR 7: 14, IR 8: 18, IR 10: 22, IR 13: 28), and 0 for an IR version
// before opset imports (1, 2) or unknown.
func NewestOpsetOfIR(ir int64) int {
	newest := map[int64]int{3: 8, 4: 9, 5: 10, 6: 11, 7: 14, 8: 18, 9: 20, 10: 22, 11: 23, 12: 24, 13: 28}
	return newest[ir]
}

// trainingInfoField is ModelProto.training_info's field number, which
// onnxshape's reduced .proto leaves out (its bytes stay unknown fields).
const trainingInfoField = 20

// TrainingInfo counts the model's training_info entries.
func TrainingInfo(m *pb.ModelProto) int {
	b := m.ProtoReflect().GetUnknown()
	n := 0
	for len(b) > 0 {
		num, typ, l := protowire.ConsumeTag(b)
		if l < 0 {
			return n
		}
		b = b[l:]
		l = protowire.ConsumeFieldValue(num, typ, b)
		if l < 0 {
			return n
		}
		if num == trainingInfoField {
			n++
		}
		b = b[l:]
	}
	return n
}
