package tensor

import "fmt"

// Value is what flows along an edge of a model: a *Tensor, a *Sequence, an
// *Optional, a *Map or a *MapSequence (map.go).
type Value interface {
	// Describe returns the value's ONNX type and shape, e.g.
	// "tensor(float)[2 3]" or "seq(tensor(int64))[4 items]".
	Describe() string
}

// Describe implements Value.
func (t *Tensor) Describe() string {
	if t == nil {
		return "<nil tensor>"
	}
	return fmt.Sprintf("tensor(%v)%v", t.dtype, t.shape)
}

// Sequence is an ONNX sequence: an ordered list of tensors of one element type.
type Sequence struct {
	ElemType DataType // the element type of every item, even when Items is empty
	Items    []*Tensor
}

// Describe implements Value.
func (s *Sequence) Describe() string {
	if s == nil {
		return "<nil sequence>"
	}
	return fmt.Sprintf("seq(tensor(%v))[%d items]", s.ElemType, len(s.Items))
}

// Optional is an ONNX optional value: Value, or nothing when Value is nil.
type Optional struct {
	// Value is the held *Tensor, *Sequence, *Map or *MapSequence, nil for
	// an empty optional.
	Value Value
	// ElemType describes what an empty optional would hold, e.g.
	// "tensor(float)" or "seq(tensor(float))"; informative only.
	ElemType string
}

// Describe implements Value.
func (o *Optional) Describe() string {
	if o == nil {
		return "<nil optional>"
	}
	if o.Value == nil {
		return fmt.Sprintf("optional(%s)[empty]", o.ElemType)
	}
	return "optional(" + o.Value.Describe() + ")"
}
