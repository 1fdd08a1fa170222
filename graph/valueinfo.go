package graph

import (
	"strings"

	"github.com/onnxshape/onnxshape/onnx"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// The declared type of a model's inputs and outputs as plain Go values, so
// that a caller reads an input's element type and shape without walking
// the generated protobuf types.

// Kind is what a value of a model is: a tensor, a sequence (of tensors or
// of maps), an optional, a map, or something onnxshape does not run. graph (declared types) and
// infer (inferred values) share it. The zero Kind is KindTensor.
type Kind int

const (
	// KindTensor: a tensor (tensor.Tensor).
	KindTensor Kind = iota
	// KindSequence: a sequence of tensors (tensor.Sequence).
	KindSequence
	// KindOptional: an optional value (tensor.Optional).
	KindOptional
	// KindOther: a sparse tensor, which onnxshape does not run.
	KindOther
	// KindUnknown: the model declares no type.
	KindUnknown
	// KindMap: a map of int64 or string keys to scalars (tensor.Map; a
	// sequence of maps is a tensor.MapSequence).
	KindMap
)

// String returns the kind's ONNX name: "tensor", "seq", "optional", "map".
func (k Kind) String() string {
	switch k {
	case KindTensor:
		return "tensor"
	case KindSequence:
		return "seq"
	case KindOptional:
		return "optional"
	case KindMap:
		return "map"
	case KindOther:
		return "other"
	}
	return "unknown"
}

// unknownDim is the dimension a model leaves undeclared.
var unknownDim = Sym("?")

// Type is a declared type of a model value: a tensor's element type and
// shape, what a sequence or an optional holds, or a map's key type and
// value type.
type Type struct {
	Kind Kind
	// DataType is a tensor's element type (tensor.Undefined when the model
	// leaves it out, or for another kind).
	DataType tensor.DataType
	// Shape is a tensor's declared shape, one Dim per axis, when Ranked.
	Shape []Dim
	// Ranked is true when the model declares a tensor's shape, at least its
	// rank; a rank-0 tensor is Ranked with no Shape.
	Ranked bool
	// Elem is what a sequence or an optional holds, or a map's values;
	// nil for other kinds.
	Elem *Type
	// Key is a map's key type (tensor.Int64 or tensor.String).
	Key tensor.DataType

	other string // how ONNX writes a sparse tensor type (KindOther)
}

// String returns the type as ONNX writes it, e.g. "tensor(float)[1,3,H,W]",
// "seq(tensor(int64))", "seq(map(int64,tensor(float)))"; "(no type)" when
// the model declares none.
func (t Type) String() string {
	switch t.Kind {
	case KindTensor:
		s := "tensor(" + t.DataType.String() + ")"
		if t.Ranked {
			dims := make([]string, len(t.Shape))
			for i, d := range t.Shape {
				dims[i] = d.String()
			}
			s += "[" + strings.Join(dims, ",") + "]"
		}
		return s
	case KindSequence, KindOptional:
		inner := "?"
		if t.Elem != nil {
			inner = t.Elem.String()
		}
		return t.Kind.String() + "(" + inner + ")"
	case KindMap:
		inner := "?"
		if t.Elem != nil {
			inner = t.Elem.String()
		}
		return "map(" + t.Key.String() + "," + inner + ")"
	case KindOther:
		return t.other
	}
	return "(no type)"
}

// tensorType returns the tensor type t declares, looking inside sequences,
// optionals and a map's values; nil when there is none.
func (t *Type) tensorType() *Type {
	for t != nil {
		switch t.Kind {
		case KindTensor:
			return t
		case KindSequence, KindOptional, KindMap:
			t = t.Elem
		default:
			return nil
		}
	}
	return nil
}

// typeFromProto returns the plain Type of a declaration (nil: none).
func typeFromProto(t *pb.TypeProto) Type {
	switch x := t.GetValue().(type) {
	case nil:
		return Type{Kind: KindUnknown}
	case *pb.TypeProto_TensorType:
		tt := x.TensorType
		out := Type{Kind: KindTensor, DataType: tensor.DataType(tt.GetElemType())}
		if !out.DataType.Valid() {
			out.DataType = tensor.Undefined
		}
		if sh := tt.GetShape(); sh != nil {
			out.Ranked = true
			out.Shape = make([]Dim, 0, len(sh.GetDim()))
			for _, d := range sh.GetDim() {
				dim := unknownDim
				switch v := d.GetValue().(type) {
				case *pb.TensorShapeProto_Dimension_DimValue:
					if v.DimValue >= 0 && v.DimValue <= int64(^uint(0)>>1) {
						dim = Const(v.DimValue)
					}
				case *pb.TensorShapeProto_Dimension_DimParam:
					if v.DimParam != "" {
						dim = Sym(v.DimParam)
					}
				}
				out.Shape = append(out.Shape, dim)
			}
		}
		return out
	case *pb.TypeProto_SequenceType:
		elem := typeFromProto(x.SequenceType.GetElemType())
		return Type{Kind: KindSequence, Elem: &elem}
	case *pb.TypeProto_OptionalType:
		elem := typeFromProto(x.OptionalType.GetElemType())
		return Type{Kind: KindOptional, Elem: &elem}
	case *pb.TypeProto_MapType:
		elem := typeFromProto(x.MapType.GetValueType())
		key := tensor.DataType(x.MapType.GetKeyType())
		if !key.Valid() {
			key = tensor.Undefined
		}
		return Type{Kind: KindMap, Key: key, Elem: &elem}
	}
	return Type{Kind: KindOther, other: onnx.DescribeType(t)}
}

// Kind returns what the value is declared to be.
func (v ValueInfo) Kind() Kind { return v.Type.Kind }

// ElemType returns the element type of a tensor value, of the tensors a
// sequence or an optional holds, or of a map's values; tensor.Undefined when the model does not
// declare one.
func (v ValueInfo) ElemType() tensor.DataType {
	if tt := v.Type.tensorType(); tt != nil {
		return tt.DataType
	}
	return tensor.Undefined
}

// Shape returns the declared shape of a tensor value (of the tensors a
// sequence or an optional holds), one Dim per axis. ok is false when the
// model declares no shape, not even a rank; a rank-0 tensor has an empty
// shape and ok true.
func (v ValueInfo) Shape() (dims []Dim, ok bool) {
	tt := v.Type.tensorType()
	if tt == nil || !tt.Ranked {
		return nil, false
	}
	return append([]Dim{}, tt.Shape...), true
}

// StaticShape returns the declared shape as sizes when every dimension is
// fixed; ok is false when the shape is undeclared or has a symbolic or
// unknown dimension.
func (v ValueInfo) StaticShape() (shape []int, ok bool) {
	dims, ok := v.Shape()
	if !ok {
		return nil, false
	}
	shape = make([]int, len(dims))
	for i, d := range dims {
		n, known := d.Value()
		if !known || n > int64(^uint(0)>>1) {
			return nil, false
		}
		shape[i] = int(n)
	}
	return shape, true
}

// Info is what a model file says about itself, as plain Go values.
type Info struct {
	IRVersion       int64
	Producer        string // producer_name, e.g. "pytorch"
	ProducerVersion string
	Domain          string
	ModelVersion    int64
	Doc             string
	GraphName       string
	// Opsets maps each imported domain ("" for ai.onnx) to its opset
	// version.
	Opsets map[string]int
	// Metadata holds the model's metadata_props.
	Metadata map[string]string
}

// Info returns what the model says about itself; the zero Info for a nil
// or zero Model.
func (m *Model) Info() Info {
	if m == nil || m.proto == nil {
		return Info{}
	}
	mp := m.proto
	info := Info{
		IRVersion: mp.GetIrVersion(), Producer: mp.GetProducerName(), ProducerVersion: mp.GetProducerVersion(),
		Domain: mp.GetDomain(), ModelVersion: mp.GetModelVersion(), Doc: mp.GetDocString(),
		GraphName: mp.GetGraph().GetName(), Opsets: map[string]int{}, Metadata: map[string]string{},
	}
	for _, imp := range mp.GetOpsetImport() {
		d := imp.GetDomain()
		if d == "ai.onnx" {
			d = ""
		}
		info.Opsets[d] = int(imp.GetVersion())
	}
	for _, kv := range mp.GetMetadataProps() {
		info.Metadata[kv.GetKey()] = kv.GetValue()
	}
	return info
}
