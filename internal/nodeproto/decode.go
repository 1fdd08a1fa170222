// Package nodeproto turns the NodeProtos of a model file into what the
// rest of onnxshape works with: the ops.Node a kernel reads (Decode), the
// check of a node's attributes against its operator version
// (CheckAttributes) and the order in which a graph's nodes run (Sort).
// The model runner (graph), shape inference (infer), the profile checker
// (profile) and the builder share them; they are internal because their
// signatures carry generated protobuf types.
package nodeproto

import (
	"fmt"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
)

// Decode converts a NodeProto into the ops.Node its kernel reads:
// the operator, version (the since-version resolved from the model's opset
// imports), the attributes (tensor attributes decoded with
// onnx.TensorFromProto, external data relative to baseDir) and the number
// of outputs the node declares, unused ones included.
//
// A graph attribute is left with a nil Graph, for the model runner to
// fill in. Attributes that no operator takes (lists of graphs, sparse
// tensors, lists of tensors) and references to a function's attributes are
// errors that name the attribute.
func Decode(np *pb.NodeProto, version int, baseDir string) (*ops.Node, error) {
	n := &ops.Node{
		Name:       np.GetName(),
		OpType:     np.GetOpType(),
		Domain:     np.GetDomain(),
		Version:    version,
		Attrs:      make(map[string]ops.Attribute, len(np.GetAttribute())),
		NumOutputs: len(np.GetOutput()),
	}
	for _, ap := range np.GetAttribute() {
		name := ap.GetName()
		if name == "" {
			return nil, fmt.Errorf("an attribute has no name")
		}
		if _, dup := n.Attrs[name]; dup {
			return nil, fmt.Errorf("attribute %s is set twice", name)
		}
		a, err := attributeFromProto(ap, baseDir)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		n.Attrs[name] = a
	}
	return n, nil
}

func attributeFromProto(ap *pb.AttributeProto, baseDir string) (ops.Attribute, error) {
	if ap.RefAttrName != nil {
		return ops.Attribute{}, fmt.Errorf("refers to function attribute %q, and onnxshape runs no functions", ap.GetRefAttrName())
	}
	typ := ops.AttrType(ap.GetType())
	if typ == ops.AttrUndefined {
		typ = guessAttrType(ap)
	}
	a := ops.Attribute{Type: typ}
	switch typ {
	case ops.AttrFloat:
		a.Float = ap.GetF()
	case ops.AttrInt:
		a.Int = ap.GetI()
	case ops.AttrString:
		a.String = string(ap.GetS())
	case ops.AttrFloats:
		a.Floats = append([]float32{}, ap.GetFloats()...)
	case ops.AttrInts:
		a.Ints = append([]int64{}, ap.GetInts()...)
	case ops.AttrStrings:
		a.Strings = make([]string, len(ap.GetStrings()))
		for i, s := range ap.GetStrings() {
			a.Strings[i] = string(s)
		}
	case ops.AttrTensor:
		if ap.GetT() == nil {
			return a, fmt.Errorf("is of type tensor but holds no tensor")
		}
		t, err := onnx.TensorFromProto(ap.GetT(), baseDir)
		if err != nil {
			return a, err
		}
		a.Tensor = t
	case ops.AttrGraph: // the model runner makes the ops.Subgraph (graph.Load)
		if ap.GetG() == nil {
			return a, fmt.Errorf("is of type graph but holds no graph")
		}
	case ops.AttrTypeProto: // ops knows no protobuf: the type as ONNX writes it, "tensor(float)"
		a.String = onnx.DescribeType(ap.GetTp())
	case ops.AttrUndefined:
		return a, fmt.Errorf("has no type and no value")
	default:
		return a, fmt.Errorf("is of type %v, which no onnxshape operator takes", typ)
	}
	return a, nil
}

// guessAttrType reads the type of an attribute from the field it sets, for
// files written before AttributeProto had a type (IR version 1).
func guessAttrType(ap *pb.AttributeProto) ops.AttrType {
	switch {
	case ap.F != nil:
		return ops.AttrFloat
	case ap.I != nil:
		return ops.AttrInt
	case ap.S != nil:
		return ops.AttrString
	case ap.T != nil:
		return ops.AttrTensor
	case ap.G != nil:
		return ops.AttrGraph
	case len(ap.Floats) > 0:
		return ops.AttrFloats
	case len(ap.Ints) > 0:
		return ops.AttrInts
	case len(ap.Strings) > 0:
		return ops.AttrStrings
	case len(ap.Tensors) > 0:
		return ops.AttrTensors
	case len(ap.Graphs) > 0:
		return ops.AttrGraphs
	}
	return ops.AttrUndefined
}
