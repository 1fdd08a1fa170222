package graph

import (
	"strconv"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// The declared type of a model's inputs and outputs as plain Go values, so
// that a caller reads an input's element type and shape without walking
// the generated protobuf types.

// Kind is what a value of a model is: a tensor, a sequence of tensors, an
// optional, or something onnxshape does not run.
type Kind int

const (
	// KindUnknown: the model declares no type.
	KindUnknown Kind = iota
	// KindTensor: a tensor (tensor.Tensor).
	KindTensor
	// KindSequence: a sequence of tensors (tensor.Sequence).
	KindSequence
	// KindOptional: an optional value (tensor.Optional).
	KindOptional
	// KindOther: a map or a sparse tensor, which onnxshape does not run.
	KindOther
)

// String returns the kind's ONNX name: "tensor", "seq", "optional".
func (k Kind) String() string {
	switch k {
	case KindTensor:
		return "tensor"
	case KindSequence:
		return "seq"
	case KindOptional:
		return "optional"
	case KindOther:
		return "other"
	}
	return "unknown"
}

// Dim is one dimension of a declared shape: a size, a symbolic name (the
// model's dim_param, such as "N" or "height"), or neither when the model
// leaves it unknown.
type Dim struct {
	// Size is the dimension's length; -1 when it is symbolic or unknown.
	Size int
	// Name is the symbolic name; "" for a fixed or unknown dimension.
	Name string
}

// Static reports whether the dimension has a fixed size.
func (d Dim) Static() bool { return d.Size >= 0 }

// String returns the size, the name, or "?" for an unknown dimension.
func (d Dim) String() string {
	switch {
	case d.Size >= 0:
		return strconv.Itoa(d.Size)
	case d.Name != "":
		return d.Name
	}
	return "?"
}

// Kind returns what the value is declared to be.
func (v ValueInfo) Kind() Kind {
	switch v.Type.GetValue().(type) {
	case nil:
		return KindUnknown
	case *pb.TypeProto_TensorType:
		return KindTensor
	case *pb.TypeProto_SequenceType:
		return KindSequence
	case *pb.TypeProto_OptionalType:
		return KindOptional
	}
	return KindOther
}

// ElemType returns the element type of a tensor value, or of the tensors a
// sequence or an optional holds; tensor.Undefined when the model does not
// declare one.
func (v ValueInfo) ElemType() tensor.DataType {
	tt := tensorType(v.Type)
	if tt == nil {
		return tensor.Undefined
	}
	dt := tensor.DataType(tt.GetElemType())
	if !dt.Valid() {
		return tensor.Undefined
	}
	return dt
}

// Shape returns the declared shape of a tensor value (of the tensors a
// sequence or an optional holds), one Dim per axis. ok is false when the
// model declares no shape, not even a rank; a rank-0 tensor has an empty
// shape and ok true.
func (v ValueInfo) Shape() (dims []Dim, ok bool) {
	tt := tensorType(v.Type)
	if tt == nil || tt.GetShape() == nil {
		return nil, false
	}
	dims = make([]Dim, 0, len(tt.GetShape().GetDim()))
	for _, d := range tt.GetShape().GetDim() {
		dim := Dim{Size: -1}
		switch x := d.GetValue().(type) {
		case *pb.TensorShapeProto_Dimension_DimValue:
			if x.DimValue >= 0 && x.DimValue <= int64(^uint(0)>>1) {
				dim.Size = int(x.DimValue)
			}
		case *pb.TensorShapeProto_Dimension_DimParam:
			dim.Name = x.DimParam
		}
		dims = append(dims, dim)
	}
	return dims, true
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
		if !d.Static() {
			return nil, false
		}
		shape[i] = d.Size
	}
	return shape, true
}

// tensorType returns the tensor type t declares, looking inside sequences
// and optionals; nil when there is none.
func tensorType(t *pb.TypeProto) *pb.TypeProto_Tensor {
	for t != nil {
		switch x := t.GetValue().(type) {
		case *pb.TypeProto_TensorType:
			return x.TensorType
		case *pb.TypeProto_SequenceType:
			t = x.SequenceType.GetElemType()
		case *pb.TypeProto_OptionalType:
			t = x.OptionalType.GetElemType()
		default:
			return nil
		}
	}
	return nil
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
