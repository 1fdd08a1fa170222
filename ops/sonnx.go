package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/tensor"
)

// Rules every operator follows under ProfileSONNX that no single operator's
// specification states.

// sonnxPositiveDims is the rule id of positiveDims.
const sonnxPositiveDims = "DIMS" // as profile and docs/sonnx.md name it

// positiveDims refuses, under ProfileSONNX, a tensor with a zero dimension:
// the working group's formal specification gives every tensor positive
// dimensions (the invariant "positive dims" of the Tensor type in
// formal/common/libs/tensor/tensor.mlw), so an empty input or output is
// outside the profile, and the profile refuses what it leaves undefined.
// what names the tensor ("input X", "output").
func (o *Options) positiveDims(op opRef, what string, shape []int) error {
	if o.orDefault().Profile != ProfileSONNX {
		return nil
	}
	for k, d := range shape {
		if d <= 0 {
			return op.errorf(sonnxPositiveDims, "%s has shape %v: dimension %d is %d, and the profile's tensors have positive dimensions", what, shape, k, d)
		}
	}
	return nil
}

// sameShapes refuses, under ProfileSONNX, inputs of different shapes to an
// operator whose SONNX specification forbids broadcasting: its shape
// consistency constraint (sonnxrule.SameShape, by the element type dt of
// its data) requires every input to have one shape.
func (o *Options) sameShapes(op opRef, dt tensor.DataType, names []string, shapes ...[]int) error {
	if o.orDefault().Profile != ProfileSONNX {
		return nil
	}
	id := sonnxrule.SameShape(op.name, dt)
	if id == "" {
		return nil
	}
	for i := 1; i < len(shapes); i++ {
		if !tensor.SameShape(shapes[0], shapes[i]) {
			return op.errorf(id, "%s has shape %v and %s %v: the profile does not broadcast, the inputs have one shape",
				names[0], shapes[0], names[i], shapes[i])
		}
	}
	return nil
}

// anyElement reports whether an element of t (of Go type E) meets bad.
func anyElement[E any](t *tensor.Tensor, bad func(E) bool) bool {
	for _, v := range elems[E](t) {
		if bad(v) {
			return true
		}
	}
	return false
}

// hasSignedLeast reports whether a signed integer tensor holds its type's
// least value (Abs's E_ABS_INT_CONSTR_X_020).
func hasSignedLeast(t *tensor.Tensor) bool {
	switch t.DataType() {
	case tensor.Int8:
		return anyElement(t, func(v int8) bool { return v == math.MinInt8 })
	case tensor.Int16:
		return anyElement(t, func(v int16) bool { return v == math.MinInt16 })
	case tensor.Int32:
		return anyElement(t, func(v int32) bool { return v == math.MinInt32 })
	case tensor.Int64:
		return anyElement(t, func(v int64) bool { return v == math.MinInt64 })
	}
	return false
}

// hasNegative reports whether a signed integer tensor holds a value below
// zero (Pow's B [C3]).
func hasNegative(t *tensor.Tensor) bool {
	switch t.DataType() {
	case tensor.Int8:
		return anyElement(t, func(v int8) bool { return v < 0 })
	case tensor.Int16:
		return anyElement(t, func(v int16) bool { return v < 0 })
	case tensor.Int32:
		return anyElement(t, func(v int32) bool { return v < 0 })
	case tensor.Int64:
		return anyElement(t, func(v int64) bool { return v < 0 })
	}
	return false
}
