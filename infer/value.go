package infer

import (
	"fmt"
	"github.com/onnxshape/onnxshape/graph"
	"math"
	"strings"

	"github.com/onnxshape/onnxshape/tensor"
)

// Value is what inference knows of one value of a model: its element type
// (tensor.Undefined when unknown), its shape (Ranked false when not even
// the rank is known) and, when known, its contents.
//
// For a sequence or an optional, Type and Shape describe the tensors it
// holds (Ranked false when they may differ). For a map (Kind graph.KindMap)
// or a sequence of maps (graph.KindSequence with Key set), Key is the key
// type and Type the values' element type.
type Value struct {
	Kind   graph.Kind
	Key    tensor.DataType
	Type   tensor.DataType
	Ranked bool
	Shape  []graph.Dim

	// Const holds the contents when every element is a known number.
	Const *tensor.Tensor
	// Elems holds the contents of a numeric tensor of rank 0 or 1 whose
	// elements are known as dimensions, symbolic ones included: Shape of a
	// [N,3,H,W] tensor has Elems [N 3 H W]. nil when unknown.
	Elems []graph.Dim
}

// Unknown returns a value of unknown rank of element type dt.
func Unknown(dt tensor.DataType) *Value { return &Value{Type: dt} }

// Tensor returns a tensor value of element type dt and the given shape.
func Tensor(dt tensor.DataType, shape ...graph.Dim) *Value {
	return &Value{Type: dt, Ranked: true, Shape: append([]graph.Dim{}, shape...)}
}

// Rank returns the number of dimensions; -1 when unknown.
func (v *Value) Rank() int {
	if v == nil || !v.Ranked {
		return -1
	}
	return len(v.Shape)
}

// Static returns the shape as numbers when every dimension is a number
// that fits an int.
func (v *Value) Static() ([]int, bool) {
	if v == nil || !v.Ranked {
		return nil, false
	}
	out := make([]int, len(v.Shape))
	for i, d := range v.Shape {
		n, ok := d.Value()
		if !ok || n < 0 || n > math.MaxInt {
			return nil, false
		}
		out[i] = int(n)
	}
	return out, true
}

// NumElements returns the product of the dimensions.
func (v *Value) NumElements() (graph.Dim, bool) {
	if v == nil || !v.Ranked {
		return graph.Dim{}, false
	}
	n := graph.Const(1)
	for _, d := range v.Shape {
		n = n.Mul(d)
	}
	return n, true
}

// String renders the value as "float[N,3,H*W]", "int64[?]" (unknown rank),
// "seq(float[?])", with the contents after "=" when known as dimensions.
func (v *Value) String() string {
	if v == nil {
		return "<absent>"
	}
	var b strings.Builder
	b.WriteString(typeName(v.Type))
	b.WriteString(shapeString(v))
	s := b.String()
	if v.Key != tensor.Undefined {
		s = "map(" + typeName(v.Key) + "," + typeName(v.Type) + ")"
	}
	switch v.Kind {
	case graph.KindSequence:
		s = "seq(" + s + ")"
	case graph.KindOptional:
		s = "optional(" + s + ")"
	}
	if v.Elems != nil && len(v.Elems) <= 16 {
		parts := make([]string, len(v.Elems))
		for i, d := range v.Elems {
			parts[i] = d.String()
		}
		if v.Rank() == 0 {
			s += "=" + parts[0]
		} else {
			s += "=[" + strings.Join(parts, ",") + "]"
		}
	}
	return s
}

func typeName(dt tensor.DataType) string {
	if dt == tensor.Undefined {
		return "?"
	}
	return dt.String()
}

func shapeString(v *Value) string {
	if !v.Ranked {
		return "[?]"
	}
	parts := make([]string, len(v.Shape))
	for i, d := range v.Shape {
		parts[i] = d.String()
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// sameShape reports whether two ranked shapes are structurally equal.
func sameShape(a, b []graph.Dim) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// dimsOf converts a static shape.
func dimsOf(shape []int) []graph.Dim {
	out := make([]graph.Dim, len(shape))
	for i, d := range shape {
		out[i] = graph.Const(int64(d))
	}
	return out
}

// constValue describes a known tensor, with its Elems when it is a small
// numeric tensor of rank 0 or 1.
func constValue(t *tensor.Tensor) *Value {
	v := &Value{Type: t.DataType(), Ranked: true, Shape: dimsOf(t.Shape()), Const: t}
	if elems, ok := elemsOf(t); ok {
		v.Elems = elems
	}
	return v
}

// maxElems bounds the length of the tensors whose contents inference
// carries as dimensions: shapes, axes, sizes, never data.
const maxElems = 1024

// describeShape renders a shape for messages.
func describeShape(v *Value) string {
	if v == nil {
		return "<absent>"
	}
	return fmt.Sprintf("%s%s", typeName(v.Type), shapeString(v))
}
