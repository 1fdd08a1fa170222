package onnx

import "github.com/onnxshape/onnxshape/tensor"

// sameValue reports whether two values hold the same kinds, types, shapes
// and elements, bit for bit.
func sameValue(a, b tensor.Value) bool {
	switch a := a.(type) {
	case *tensor.Tensor:
		b, ok := b.(*tensor.Tensor)
		return ok && a.Equal(b)
	case *tensor.Sequence:
		b, ok := b.(*tensor.Sequence)
		if !ok || a.ElemType != b.ElemType || len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !a.Items[i].Equal(b.Items[i]) {
				return false
			}
		}
		return true
	case *tensor.Optional:
		b, ok := b.(*tensor.Optional)
		if !ok || (a.Value == nil) != (b.Value == nil) {
			return false
		}
		return a.Value == nil || sameValue(a.Value, b.Value)
	case *tensor.Map:
		b, ok := b.(*tensor.Map)
		return ok && a.Keys.Equal(b.Keys) && a.Values.Equal(b.Values)
	case *tensor.MapSequence:
		b, ok := b.(*tensor.MapSequence)
		if !ok || a.KeyType != b.KeyType || a.ValueType != b.ValueType || len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !sameValue(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	}
	return false
}
