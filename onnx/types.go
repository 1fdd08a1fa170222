package onnx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// DescribeType renders a TypeProto the way ONNX writes types, with the
// shape after a tensor type when it is known: "tensor(float)[2,3]",
// "tensor(float)[N,3]" (a dim_param), "tensor(float)[?]" (a dimension with
// neither), "tensor(float)" (no shape), "seq(tensor(int64))",
// "optional(seq(tensor(float)))", "map(string,tensor(float))". A nil or
// empty TypeProto is "?".
func DescribeType(t *pb.TypeProto) string {
	switch v := t.GetValue().(type) {
	case *pb.TypeProto_TensorType:
		return "tensor(" + elemName(v.TensorType.GetElemType()) + ")" + describeShape(v.TensorType.GetShape())
	case *pb.TypeProto_SequenceType:
		return "seq(" + DescribeType(v.SequenceType.GetElemType()) + ")"
	case *pb.TypeProto_OptionalType:
		return "optional(" + DescribeType(v.OptionalType.GetElemType()) + ")"
	case *pb.TypeProto_MapType:
		return "map(" + elemName(v.MapType.GetKeyType()) + "," + DescribeType(v.MapType.GetValueType()) + ")"
	case *pb.TypeProto_SparseTensorType:
		return "sparse_tensor(" + elemName(v.SparseTensorType.GetElemType()) + ")" + describeShape(v.SparseTensorType.GetShape())
	}
	return "?"
}

func elemName(dt int32) string { return tensor.DataType(dt).String() }

func describeShape(s *pb.TensorShapeProto) string {
	if s == nil {
		return ""
	}
	dims := make([]string, len(s.GetDim()))
	for i, d := range s.GetDim() {
		dims[i] = describeDim(d)
	}
	return "[" + strings.Join(dims, ",") + "]"
}

func describeDim(d *pb.TensorShapeProto_Dimension) string {
	switch v := d.GetValue().(type) {
	case *pb.TensorShapeProto_Dimension_DimValue:
		return strconv.FormatInt(v.DimValue, 10)
	case *pb.TensorShapeProto_Dimension_DimParam:
		return v.DimParam
	}
	return "?"
}

// ValueMatchesType returns nil if v fits typ, or an error saying why not:
// the kind (tensor, sequence, optional, map), the element type (a map's key
// and value types), the rank and
// every dimension typ fixes with a dim_value. A dim_param, an undefined
// element type, a missing shape and a nil typ match anything; an empty
// optional matches any optional type.
func ValueMatchesType(v tensor.Value, typ *pb.TypeProto) error {
	if err := valueMatchesType(v, typ); err != nil {
		return fmt.Errorf("onnx: value does not fit %s: %w", DescribeType(typ), err)
	}
	return nil
}

func valueMatchesType(v tensor.Value, typ *pb.TypeProto) error {
	if typ.GetValue() == nil {
		return nil
	}
	if v == nil {
		return fmt.Errorf("%w: no value", tensor.ErrType)
	}
	switch want := typ.GetValue().(type) {
	case *pb.TypeProto_TensorType:
		t, ok := v.(*tensor.Tensor)
		if !ok || t == nil {
			return fmt.Errorf("%w: got %s, not a tensor", tensor.ErrType, describeValue(v))
		}
		return tensorMatches(t, want.TensorType)
	case *pb.TypeProto_SequenceType:
		elem := want.SequenceType.GetElemType()
		if ms, ok := v.(*tensor.MapSequence); ok && ms != nil {
			return mapSequenceMatches(ms, elem)
		}
		s, ok := v.(*tensor.Sequence)
		if !ok || s == nil {
			return fmt.Errorf("%w: got %s, not a sequence", tensor.ErrType, describeValue(v))
		}
		if elem.GetValue() == nil {
			return nil
		}
		et := elem.GetTensorType()
		if et == nil {
			return fmt.Errorf("%w: got a sequence of tensors, not of %s", tensor.ErrType, DescribeType(elem))
		}
		if w := tensor.DataType(et.GetElemType()); w != tensor.Undefined && s.ElemType != tensor.Undefined && s.ElemType != w {
			return fmt.Errorf("%w: got a sequence of %v, not of %v", tensor.ErrType, s.ElemType, w)
		}
		for i, t := range s.Items {
			if t == nil {
				return fmt.Errorf("%w: item %d is nil", tensor.ErrType, i)
			}
			if err := tensorMatches(t, et); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
		return nil
	case *pb.TypeProto_MapType:
		m, ok := v.(*tensor.Map)
		if !ok || m == nil {
			return fmt.Errorf("%w: got %s, not a map", tensor.ErrType, describeValue(v))
		}
		return mapMatches(m.KeyType(), m.ValueType(), want.MapType)
	case *pb.TypeProto_OptionalType:
		o, ok := v.(*tensor.Optional)
		if !ok || o == nil {
			return fmt.Errorf("%w: got %s, not an optional", tensor.ErrType, describeValue(v))
		}
		if o.Value == nil {
			return nil
		}
		return valueMatchesType(o.Value, want.OptionalType.GetElemType())
	}
	return fmt.Errorf("%w: %s values", ErrUnsupported, DescribeType(typ))
}

// mapSequenceMatches checks a sequence of maps against the element type of
// a sequence type: a map type, or none.
func mapSequenceMatches(s *tensor.MapSequence, elem *pb.TypeProto) error {
	if elem.GetValue() == nil {
		return nil
	}
	mt := elem.GetMapType()
	if mt == nil {
		return fmt.Errorf("%w: got a sequence of maps, not of %s", tensor.ErrType, DescribeType(elem))
	}
	return mapMatches(s.KeyType, s.ValueType, mt)
}

// mapMatches checks a map's key and value types against a map type whose
// values are scalar tensors; an undefined type matches anything.
func mapMatches(key, value tensor.DataType, want *pb.TypeProto_Map) error {
	if w := tensor.DataType(want.GetKeyType()); w != tensor.Undefined && key != w {
		return fmt.Errorf("%w: map keys are %v, not %v", tensor.ErrType, key, w)
	}
	vt := want.GetValueType()
	if vt.GetValue() == nil {
		return nil
	}
	tt := vt.GetTensorType()
	if tt == nil {
		return fmt.Errorf("%w: map values are tensors, not %s", tensor.ErrUnsupported, DescribeType(vt))
	}
	if w := tensor.DataType(tt.GetElemType()); w != tensor.Undefined && value != w {
		return fmt.Errorf("%w: map values are %v, not %v", tensor.ErrType, value, w)
	}
	if len(tt.GetShape().GetDim()) > 0 {
		return fmt.Errorf("%w: map values are scalars, not %s", tensor.ErrUnsupported, DescribeType(vt))
	}
	return nil
}

func describeValue(v tensor.Value) string {
	switch v := v.(type) {
	case *tensor.Tensor:
		if v == nil {
			return "a nil tensor"
		}
	case *tensor.Sequence:
		if v == nil {
			return "a nil sequence"
		}
	case *tensor.Optional:
		if v == nil {
			return "a nil optional"
		}
	case *tensor.Map:
		if v == nil {
			return "a nil map"
		}
	case *tensor.MapSequence:
		if v == nil {
			return "a nil sequence"
		}
	}
	return v.Describe()
}

func tensorMatches(t *tensor.Tensor, want *pb.TypeProto_Tensor) error {
	if w := tensor.DataType(want.GetElemType()); w != tensor.Undefined && t.DataType() != w {
		return fmt.Errorf("%w: element type is %v, not %v", tensor.ErrType, t.DataType(), w)
	}
	s := want.GetShape()
	if s == nil {
		return nil
	}
	if len(s.GetDim()) != t.Rank() {
		return fmt.Errorf("%w: shape %v has rank %d, not %d", tensor.ErrShape, t.Shape(), t.Rank(), len(s.GetDim()))
	}
	for i, d := range s.GetDim() {
		if dv, ok := d.GetValue().(*pb.TensorShapeProto_Dimension_DimValue); ok && int64(t.Shape()[i]) != dv.DimValue {
			return fmt.Errorf("%w: shape %v has dimension %d = %d, not %d", tensor.ErrShape, t.Shape(), i, t.Shape()[i], dv.DimValue)
		}
	}
	return nil
}

// TensorValueInfo declares a tensor value of element type dt and a fixed shape,
// as graph inputs, outputs and value_info do.
func TensorValueInfo(name string, dt tensor.DataType, shape []int) *pb.ValueInfoProto {
	dims := make([]*pb.TensorShapeProto_Dimension, len(shape))
	for i, d := range shape {
		dims[i] = &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: int64(d)}}
	}
	return &pb.ValueInfoProto{
		Name: proto.String(name),
		Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{
			ElemType: proto.Int32(int32(dt)),
			Shape:    &pb.TensorShapeProto{Dim: dims},
		}}},
	}
}
