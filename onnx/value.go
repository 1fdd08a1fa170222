package onnx

import (
	"errors"
	"fmt"
	"strings"

	"github.com/onnxshape/onnxshape/internal/safefile"
	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// SequenceFromProto converts a SequenceProto of tensors. baseDir is as for
// TensorFromProto. The items must share one element type; an empty
// sequence has ElemType Undefined (DecodeValue fills it in from the type).
// Sequences of sparse tensors, sequences, maps or optionals are
// ErrUnsupported.
func SequenceFromProto(sp *pb.SequenceProto, baseDir string) (*tensor.Sequence, error) {
	if sp == nil {
		return nil, errors.New("onnx: nil SequenceProto")
	}
	s, err := sequenceFromProto(sp, baseDir)
	if err != nil {
		return nil, fmt.Errorf("onnx: sequence %q: %w", sp.GetName(), err)
	}
	return s, nil
}

func sequenceFromProto(sp *pb.SequenceProto, baseDir string) (*tensor.Sequence, error) {
	kind := pb.SequenceProto_DataType(sp.GetElemType())
	switch {
	case len(sp.SparseTensorValues) > 0 || kind == pb.SequenceProto_SPARSE_TENSOR:
		return nil, fmt.Errorf("%w: sequence of sparse tensors", ErrUnsupported)
	case len(sp.SequenceValues) > 0 || kind == pb.SequenceProto_SEQUENCE:
		return nil, fmt.Errorf("%w: sequence of sequences", ErrUnsupported)
	case len(sp.MapValues) > 0 || kind == pb.SequenceProto_MAP:
		return nil, fmt.Errorf("%w: sequence of maps", ErrUnsupported)
	case len(sp.OptionalValues) > 0 || kind == pb.SequenceProto_OPTIONAL:
		return nil, fmt.Errorf("%w: sequence of optionals", ErrUnsupported)
	case kind != pb.SequenceProto_TENSOR && kind != pb.SequenceProto_UNDEFINED:
		return nil, fmt.Errorf("%w: unknown elem_type %d", tensor.ErrType, sp.GetElemType())
	}
	s := &tensor.Sequence{Items: make([]*tensor.Tensor, len(sp.TensorValues))}
	for i, tp := range sp.TensorValues {
		t, err := TensorFromProto(tp, baseDir)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		if i == 0 {
			s.ElemType = t.DataType()
		} else if t.DataType() != s.ElemType {
			return nil, fmt.Errorf("%w: item %d is %v, item 0 is %v", tensor.ErrType, i, t.DataType(), s.ElemType)
		}
		s.Items[i] = t
	}
	return s, nil
}

// OptionalFromProto converts an OptionalProto holding a tensor, a sequence
// of tensors, or nothing (Value == nil).
func OptionalFromProto(op *pb.OptionalProto, baseDir string) (*tensor.Optional, error) {
	if op == nil {
		return nil, errors.New("onnx: nil OptionalProto")
	}
	o, err := optionalFromProto(op, baseDir)
	if err != nil {
		return nil, fmt.Errorf("onnx: optional %q: %w", op.GetName(), err)
	}
	return o, nil
}

func optionalFromProto(op *pb.OptionalProto, baseDir string) (*tensor.Optional, error) {
	kind := pb.OptionalProto_DataType(op.GetElemType())
	switch {
	case op.SparseTensorValue != nil || kind == pb.OptionalProto_SPARSE_TENSOR:
		return nil, fmt.Errorf("%w: optional sparse tensor", ErrUnsupported)
	case op.MapValue != nil || kind == pb.OptionalProto_MAP:
		return nil, fmt.Errorf("%w: optional map", ErrUnsupported)
	case op.OptionalValue != nil || kind == pb.OptionalProto_OPTIONAL:
		return nil, fmt.Errorf("%w: optional of an optional", ErrUnsupported)
	case op.TensorValue != nil && op.SequenceValue != nil:
		return nil, errors.New("both tensor_value and sequence_value are set")
	case op.TensorValue != nil && kind == pb.OptionalProto_SEQUENCE,
		op.SequenceValue != nil && kind == pb.OptionalProto_TENSOR:
		return nil, fmt.Errorf("%w: elem_type is %v but the value is not", tensor.ErrType, kind)
	case kind != pb.OptionalProto_TENSOR && kind != pb.OptionalProto_SEQUENCE && kind != pb.OptionalProto_UNDEFINED:
		return nil, fmt.Errorf("%w: unknown elem_type %d", tensor.ErrType, op.GetElemType())
	}
	switch {
	case op.TensorValue != nil:
		t, err := TensorFromProto(op.TensorValue, baseDir)
		if err != nil {
			return nil, err
		}
		return &tensor.Optional{Value: t, ElemType: "tensor(" + t.DataType().String() + ")"}, nil
	case op.SequenceValue != nil:
		s, err := SequenceFromProto(op.SequenceValue, baseDir)
		if err != nil {
			return nil, err
		}
		return &tensor.Optional{Value: s, ElemType: "seq(tensor(" + s.ElemType.String() + "))"}, nil
	case kind == pb.OptionalProto_SEQUENCE:
		return &tensor.Optional{ElemType: "seq"}, nil
	case kind == pb.OptionalProto_TENSOR:
		return &tensor.Optional{ElemType: "tensor"}, nil
	}
	return &tensor.Optional{}, nil
}

// SequenceToProto converts s into a SequenceProto of tensors named name.
func SequenceToProto(s *tensor.Sequence, name string) (*pb.SequenceProto, error) {
	if s == nil {
		return nil, errors.New("onnx: nil sequence")
	}
	sp := &pb.SequenceProto{ElemType: ptr(int32(pb.SequenceProto_TENSOR))}
	if name != "" {
		sp.Name = ptr(name)
	}
	sp.TensorValues = make([]*pb.TensorProto, len(s.Items))
	for i, t := range s.Items {
		tp, err := TensorToProto(t, "")
		if err != nil {
			return nil, fmt.Errorf("onnx: sequence %q item %d: %w", name, i, err)
		}
		sp.TensorValues[i] = tp
	}
	return sp, nil
}

// OptionalToProto converts o into an OptionalProto named name. An empty
// optional keeps the kind its ElemType names ("tensor(...)" or "seq(...)").
func OptionalToProto(o *tensor.Optional, name string) (*pb.OptionalProto, error) {
	if o == nil {
		return nil, errors.New("onnx: nil optional")
	}
	op := &pb.OptionalProto{}
	if name != "" {
		op.Name = ptr(name)
	}
	kind := pb.OptionalProto_UNDEFINED
	switch v := o.Value.(type) {
	case nil:
		if strings.HasPrefix(o.ElemType, "tensor") {
			kind = pb.OptionalProto_TENSOR
		} else if strings.HasPrefix(o.ElemType, "seq") {
			kind = pb.OptionalProto_SEQUENCE
		}
	case *tensor.Tensor:
		tp, err := TensorToProto(v, "")
		if err != nil {
			return nil, fmt.Errorf("onnx: optional %q: %w", name, err)
		}
		kind, op.TensorValue = pb.OptionalProto_TENSOR, tp
	case *tensor.Sequence:
		sp, err := SequenceToProto(v, "")
		if err != nil {
			return nil, fmt.Errorf("onnx: optional %q: %w", name, err)
		}
		kind, op.SequenceValue = pb.OptionalProto_SEQUENCE, sp
	default:
		return nil, fmt.Errorf("onnx: optional %q: %w: an optional of %T", name, ErrUnsupported, o.Value)
	}
	op.ElemType = ptr(int32(kind))
	return op, nil
}

// DecodeValue decodes a .pb file of the ONNX node tests: a TensorProto,
// SequenceProto (of tensors or of maps), OptionalProto or MapProto, as typ (the type of the graph input or
// output the file belongs to; nil means a tensor) says. It returns the
// value and the name stored in the file. External data is refused: such
// files have no model folder.
//
// DecodeValue works within the default Limits, as DecodeValueWith does.
func DecodeValue(b []byte, typ *pb.TypeProto) (tensor.Value, string, error) {
	return DecodeValueWith(b, typ, nil)
}

// ReadValueWith reads the .pb file at path, a regular file no larger than
// l's MaxModelBytes, and decodes it as DecodeValueWith does.
func ReadValueWith(path string, typ *pb.TypeProto, l *Limits) (tensor.Value, string, error) {
	b, err := safefile.Read(path, l.modelCap())
	if err != nil {
		return nil, "", err
	}
	v, name, err := DecodeValueWith(b, typ, l)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return v, name, nil
}

// DecodeValueWith is DecodeValue within l: the memory decoding takes is
// estimated from the encoded bytes and checked against l's MaxModelBytes
// before decoding, and the storage each tensor declares against
// MaxTensorBytes (their sum against MaxModelBytes) before it is built.
func DecodeValueWith(b []byte, typ *pb.TypeProto, l *Limits) (tensor.Value, string, error) {
	var m proto.Message
	switch typ.GetValue().(type) {
	case nil, *pb.TypeProto_TensorType:
		m = &pb.TensorProto{}
	case *pb.TypeProto_SequenceType:
		m = &pb.SequenceProto{}
	case *pb.TypeProto_OptionalType:
		m = &pb.OptionalProto{}
	case *pb.TypeProto_MapType:
		m = &pb.MapProto{}
	default:
		return nil, "", fmt.Errorf("onnx: %w: values of type %s", ErrUnsupported, DescribeType(typ))
	}
	budget := l.modelCap()
	if int64(len(b)) > budget {
		return nil, "", fmt.Errorf("onnx: %w: the value has %d bytes, above the limit of %d", ErrTooLarge, len(b), budget)
	}
	kind := m.ProtoReflect().Descriptor().Name()
	if _, err := estimateDecoded(b, m.ProtoReflect().Descriptor(), budget); err != nil {
		if errors.Is(err, ErrTooLarge) {
			return nil, "", fmt.Errorf("onnx: %w", err)
		}
		return nil, "", fmt.Errorf("onnx: not a %s: %w", kind, err)
	}
	if err := proto.Unmarshal(b, m); err != nil {
		return nil, "", fmt.Errorf("onnx: not a %s: %w", kind, err)
	}
	c := sizeCheck{perTensor: l.tensorCap(), total: budget}
	if err := c.value(m); err != nil {
		return nil, "", fmt.Errorf("onnx: %w", err)
	}
	return decodeValue(m, typ)
}

func decodeValue(m proto.Message, typ *pb.TypeProto) (tensor.Value, string, error) {
	switch v := typ.GetValue().(type) {
	case nil, *pb.TypeProto_TensorType:
		tp := m.(*pb.TensorProto)
		t, err := TensorFromProto(tp, "")
		if err != nil {
			return nil, "", err
		}
		return t, tp.GetName(), nil
	case *pb.TypeProto_MapType:
		mp := m.(*pb.MapProto)
		want, value := mapTypes(v.MapType)
		mv, err := MapFromProto(mp, value)
		if err != nil {
			return nil, "", err
		}
		if want != tensor.Undefined && mv.KeyType() != want {
			return nil, "", fmt.Errorf("onnx: map %q: %w: its keys are %v, the value's type has %v keys", mp.GetName(), tensor.ErrType, mv.KeyType(), want)
		}
		return mv, mp.GetName(), nil
	case *pb.TypeProto_SequenceType:
		sp := m.(*pb.SequenceProto)
		if mt := v.SequenceType.GetElemType().GetMapType(); mt != nil {
			key, value := mapTypes(mt)
			s, err := MapSequenceFromProto(sp, key, value)
			if err != nil {
				return nil, "", err
			}
			return s, sp.GetName(), nil
		}
		s, err := SequenceFromProto(sp, "")
		if err != nil {
			return nil, "", err
		}
		fillSequenceType(s, v.SequenceType.GetElemType())
		return s, sp.GetName(), nil
	case *pb.TypeProto_OptionalType:
		op := m.(*pb.OptionalProto)
		o, err := OptionalFromProto(op, "")
		if err != nil {
			return nil, "", err
		}
		inner := v.OptionalType.GetElemType()
		switch held := o.Value.(type) {
		case nil:
			o.ElemType = DescribeType(inner)
		case *tensor.Sequence:
			if st := inner.GetSequenceType(); st != nil {
				fillSequenceType(held, st.GetElemType())
				o.ElemType = "seq(tensor(" + held.ElemType.String() + "))"
			}
		}
		return o, op.GetName(), nil
	default:
		return nil, "", fmt.Errorf("onnx: %w: values of type %s", ErrUnsupported, DescribeType(typ))
	}
}

// fillSequenceType gives an empty sequence the element type its TypeProto
// names, which the SequenceProto itself does not record.
func fillSequenceType(s *tensor.Sequence, elem *pb.TypeProto) {
	if s.ElemType == tensor.Undefined {
		s.ElemType = tensor.DataType(elem.GetTensorType().GetElemType())
	}
}

// EncodeValue serializes v (a *tensor.Tensor, *tensor.Sequence,
// *tensor.Optional, *tensor.Map or *tensor.MapSequence) as DecodeValue
// reads it.
func EncodeValue(v tensor.Value, name string) ([]byte, error) {
	var m proto.Message
	var err error
	switch v := v.(type) {
	case *tensor.Tensor:
		m, err = TensorToProto(v, name)
	case *tensor.Sequence:
		m, err = SequenceToProto(v, name)
	case *tensor.Optional:
		m, err = OptionalToProto(v, name)
	case *tensor.Map:
		m, err = MapToProto(v, name)
	case *tensor.MapSequence:
		m, err = MapSequenceToProto(v, name)
	default:
		return nil, fmt.Errorf("onnx: %w: cannot encode a %T", ErrUnsupported, v)
	}
	if err != nil {
		return nil, err
	}
	return marshal(m)
}
