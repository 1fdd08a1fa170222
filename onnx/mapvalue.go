package onnx

import (
	"errors"
	"fmt"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// Maps in .pb files: a MapProto holds its keys (int64 keys, or string keys
// as bytes) and its values as a SequenceProto of tensors, one per key, in
// the keys' order; onnx.numpy_helper.from_dict writes each value as a
// scalar tensor. A tensor.Map holds one scalar per key, so a value must be
// a tensor of one element. A sequence of maps (ZipMap's output) is a
// SequenceProto whose map_values are MapProtos.

// MapFromProto converts a MapProto whose keys are int64 or strings and
// whose values are tensors of one element each. valueType is the values'
// element type when the map is empty (the MapProto does not record it);
// Undefined takes it from the values.
func MapFromProto(mp *pb.MapProto, valueType tensor.DataType) (*tensor.Map, error) {
	if mp == nil {
		return nil, errors.New("onnx: nil MapProto")
	}
	m, err := mapFromProto(mp, valueType)
	if err != nil {
		return nil, fmt.Errorf("onnx: map %q: %w", mp.GetName(), err)
	}
	return m, nil
}

func mapFromProto(mp *pb.MapProto, valueType tensor.DataType) (*tensor.Map, error) {
	var keys *tensor.Tensor
	var err error
	switch kt := tensor.DataType(mp.GetKeyType()); kt {
	case tensor.Int64:
		if len(mp.StringKeys) > 0 {
			return nil, fmt.Errorf("%w: key_type is int64 but string_keys are set", tensor.ErrType)
		}
		keys, err = tensor.FromSlice(mp.Keys, len(mp.Keys))
	case tensor.String:
		if len(mp.Keys) > 0 {
			return nil, fmt.Errorf("%w: key_type is string but int64 keys are set", tensor.ErrType)
		}
		s := make([]string, len(mp.StringKeys))
		for i, b := range mp.StringKeys {
			s[i] = string(b)
		}
		keys, err = tensor.FromSlice(s, len(s))
	default:
		if kt.Valid() {
			return nil, fmt.Errorf("%w: maps with %v keys (int64 and string keys are read)", ErrUnsupported, kt)
		}
		return nil, fmt.Errorf("%w: unknown key_type %d", tensor.ErrType, mp.GetKeyType())
	}
	if err != nil {
		return nil, err
	}
	sp := mp.GetValues()
	switch kind := pb.SequenceProto_DataType(sp.GetElemType()); {
	case len(sp.GetSequenceValues()) > 0 || len(sp.GetMapValues()) > 0 || len(sp.GetOptionalValues()) > 0 || len(sp.GetSparseTensorValues()) > 0,
		kind != pb.SequenceProto_TENSOR && kind != pb.SequenceProto_UNDEFINED:
		return nil, fmt.Errorf("%w: map values other than tensors", ErrUnsupported)
	}
	items := sp.GetTensorValues()
	if len(items) != keys.Len() {
		return nil, fmt.Errorf("%w: %d keys but %d values", tensor.ErrShape, keys.Len(), len(items))
	}
	scalars := make([]*tensor.Tensor, len(items))
	for i, tp := range items {
		t, err := TensorFromProto(tp, "")
		if err != nil {
			return nil, fmt.Errorf("value %d: %w", i, err)
		}
		if t.Len() != 1 {
			return nil, fmt.Errorf("%w: value %d has shape %v: a map's values are read as one element each", ErrUnsupported, i, t.Shape())
		}
		if valueType == tensor.Undefined {
			valueType = t.DataType()
		}
		if t.DataType() != valueType {
			return nil, fmt.Errorf("%w: value %d is %v, the map's values are %v", tensor.ErrType, i, t.DataType(), valueType)
		}
		if scalars[i], err = t.View(); err != nil {
			return nil, err
		}
	}
	var values *tensor.Tensor
	if len(scalars) == 0 {
		if valueType == tensor.Undefined {
			return nil, fmt.Errorf("%w: an empty map whose value type is not known", tensor.ErrType)
		}
		values, err = tensor.New(valueType, 0)
	} else {
		values, err = tensor.Stack(scalars...)
	}
	if err != nil {
		return nil, err
	}
	return tensor.NewMap(keys, values)
}

// MapToProto converts m into a MapProto named name: its keys in m's order,
// and each value a scalar tensor, as onnx.numpy_helper.from_dict writes.
func MapToProto(m *tensor.Map, name string) (*pb.MapProto, error) {
	if err := m.Check(); err != nil {
		return nil, fmt.Errorf("onnx: map %q %w", name, err)
	}
	mp := &pb.MapProto{KeyType: ptr(int32(m.KeyType()))}
	if name != "" {
		mp.Name = ptr(name)
	}
	if keys := m.StringKeys(); keys != nil {
		mp.StringKeys = make([][]byte, len(keys))
		for i, k := range keys {
			mp.StringKeys[i] = []byte(k)
		}
	} else {
		mp.Keys = append([]int64(nil), m.Int64Keys()...)
	}
	values, err := tensor.Unstack(m.Values)
	if err != nil {
		return nil, fmt.Errorf("onnx: map %q: %w", name, err)
	}
	mp.Values = &pb.SequenceProto{ElemType: ptr(int32(pb.SequenceProto_TENSOR)), TensorValues: make([]*pb.TensorProto, len(values))}
	for i, v := range values {
		if mp.Values.TensorValues[i], err = TensorToProto(v, ""); err != nil {
			return nil, fmt.Errorf("onnx: map %q value %d: %w", name, i, err)
		}
	}
	return mp, nil
}

// MapSequenceFromProto converts a SequenceProto of maps, seq(map(K, V)).
// keyType and valueType are the maps' types from the value's TypeProto,
// which an empty sequence needs; Undefined takes them from the items.
func MapSequenceFromProto(sp *pb.SequenceProto, keyType, valueType tensor.DataType) (*tensor.MapSequence, error) {
	if sp == nil {
		return nil, errors.New("onnx: nil SequenceProto")
	}
	s, err := mapSequenceFromProto(sp, keyType, valueType)
	if err != nil {
		return nil, fmt.Errorf("onnx: sequence %q: %w", sp.GetName(), err)
	}
	return s, nil
}

func mapSequenceFromProto(sp *pb.SequenceProto, keyType, valueType tensor.DataType) (*tensor.MapSequence, error) {
	kind := pb.SequenceProto_DataType(sp.GetElemType())
	if len(sp.GetTensorValues()) > 0 || len(sp.GetSequenceValues()) > 0 || len(sp.GetOptionalValues()) > 0 || len(sp.GetSparseTensorValues()) > 0 ||
		(kind != pb.SequenceProto_MAP && kind != pb.SequenceProto_UNDEFINED) {
		return nil, fmt.Errorf("%w: a sequence of maps holds other values", tensor.ErrType)
	}
	s := &tensor.MapSequence{KeyType: keyType, ValueType: valueType, Items: make([]*tensor.Map, len(sp.GetMapValues()))}
	for i, mp := range sp.GetMapValues() {
		m, err := mapFromProto(mp, s.ValueType)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		if s.KeyType == tensor.Undefined {
			s.KeyType = m.KeyType()
		}
		s.ValueType = m.ValueType()
		s.Items[i] = m
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("sequence %w", err)
	}
	return s, nil
}

// MapSequenceToProto converts s into a SequenceProto of maps named name.
func MapSequenceToProto(s *tensor.MapSequence, name string) (*pb.SequenceProto, error) {
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("onnx: sequence %q %w", name, err)
	}
	sp := &pb.SequenceProto{ElemType: ptr(int32(pb.SequenceProto_MAP)), MapValues: make([]*pb.MapProto, len(s.Items))}
	if name != "" {
		sp.Name = ptr(name)
	}
	for i, m := range s.Items {
		mp, err := MapToProto(m, "")
		if err != nil {
			return nil, fmt.Errorf("onnx: sequence %q item %d: %w", name, i, err)
		}
		sp.MapValues[i] = mp
	}
	return sp, nil
}

// mapTypes returns the key and value types a map TypeProto names
// (Undefined where it names none, or a value that is not a tensor).
func mapTypes(mt *pb.TypeProto_Map) (key, value tensor.DataType) {
	return tensor.DataType(mt.GetKeyType()), tensor.DataType(mt.GetValueType().GetTensorType().GetElemType())
}
