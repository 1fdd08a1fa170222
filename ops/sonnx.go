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

// The constraints the SONNX specifications of Clip, Range, MatMul and
// BatchNormalization add to ONNX's (onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/<op>/<op>.md), checked
// under ProfileSONNX only, before the operator's own checks so that a
// refusal carries the specification's id (internal/sonnxrule). The
// reference engine checks the same in its own files; the profile's check
// runs these kernels before the model runs.

// clipSONNX is Clip's L [C1] and M [C1]: a bound given is a scalar of rank
// 0 (ONNX also reads a one-element tensor).
func clipSONNX(opt *Options, op opRef, lo, hi *tensor.Tensor) error {
	if opt.orDefault().Profile != ProfileSONNX || op.version < 11 {
		return nil
	}
	if lo != nil && lo.Rank() != 0 {
		return op.errorf(sonnxrule.ClipMinScalar, "min (L) has shape %v: the profile's bounds are scalars of empty shape", lo.Shape())
	}
	if hi != nil && hi.Rank() != 0 {
		return op.errorf(sonnxrule.ClipMaxScalar, "max (M) has shape %v: the profile's bounds are scalars of empty shape", hi.Shape())
	}
	return nil
}

// clipSONNXEmpty reports whether, under ProfileSONNX, the bounds of a
// float Clip are empty (L' > M', a NaN bound counting as no bound): the
// specification then gives every element M', NaN included, where ONNX's
// Min(max, Max(input, min)) keeps a NaN. It returns M' as a one-element
// tensor of X's type.
func clipSONNXEmpty(opt *Options, dt tensor.DataType, lo, hi *tensor.Tensor) (*tensor.Tensor, bool) {
	if opt.orDefault().Profile != ProfileSONNX || lo == nil || hi == nil || !dt.IsFloat() {
		return nil, false
	}
	l, err1 := lo.Float64s()
	h, err2 := hi.Float64s()
	if err1 != nil || err2 != nil || len(l) != 1 || len(h) != 1 || math.IsNaN(l[0]) || math.IsNaN(h[0]) || !(l[0] > h[0]) {
		return nil, false
	}
	return hi, true
}

// rangeSONNX is Range's D [C1]: delta is not zero.
func rangeSONNX(opt *Options, op opRef, delta *tensor.Tensor) error {
	if opt.orDefault().Profile != ProfileSONNX {
		return nil
	}
	if d, err := delta.Float64s(); err == nil && len(d) == 1 && d[0] == 0 {
		return op.errorf(sonnxrule.RangeDelta, "delta (D) is 0")
	}
	return nil
}

// matMulSONNX is MatMul's A [C1], B [C1] and A [C2]: A and B are matrices
// ([R1], transient: no 1-D operand, no batch axes) and A's columns are
// B's rows.
func matMulSONNX(opt *Options, op opRef, a, b *tensor.Tensor) error {
	if opt.orDefault().Profile != ProfileSONNX {
		return nil
	}
	switch {
	case a.Rank() != 2:
		return op.errorf(sonnxrule.MatMulRankA, "A has shape %v: the profile's MatMul takes matrices (rank 2)", a.Shape())
	case b.Rank() != 2:
		return op.errorf(sonnxrule.MatMulRankB, "B has shape %v: the profile's MatMul takes matrices (rank 2)", b.Shape())
	case a.Shape()[1] != b.Shape()[0]:
		return op.errorf(sonnxrule.MatMulInner, "A of shape %v has %d columns and B of shape %v %d rows", a.Shape(), a.Shape()[1], b.Shape(), b.Shape()[0])
	}
	return nil
}

// batchNormSONNX is what the SONNX specification of BatchNormalization
// (version 15, inference only) adds: training_mode [C1] (0), epsilon [C1]
// (> 0), X [C3] (rank >= 1), scale [C1] (scale, B, input_mean and
// input_var of shape [C], [1] for a 1-D X) and input_var [C3] (no
// negative variance, no NaN).
func batchNormSONNX(opt *Options, n *Node, t []*tensor.Tensor) error {
	op := n.op()
	if opt.orDefault().Profile != ProfileSONNX || op.version < 14 {
		return nil
	}
	mode, err := n.Int("training_mode", 0)
	if err != nil {
		return err
	}
	if mode != 0 {
		return op.errorf(sonnxrule.BatchNormTraining, "training_mode is %d: the profile specifies inference (0) only", mode)
	}
	eps, err := n.Float("epsilon", 1e-5)
	if err != nil {
		return err
	}
	if !(eps > 0) {
		return op.errorf(sonnxrule.BatchNormEpsilon, "epsilon is %v: the profile's epsilon is > 0", eps)
	}
	x := t[0]
	if x.Rank() < 1 {
		return op.errorf(sonnxrule.BatchNormRank, "X has shape %v: rank 1 or more", x.Shape())
	}
	c := 1
	if x.Rank() >= 2 {
		c = x.Shape()[1]
	}
	for i, name := range []string{"scale", "B", "input_mean", "input_var"} {
		if s := t[i+1].Shape(); len(s) != 1 || s[0] != c {
			return op.errorf(sonnxrule.BatchNormParams, "%s has shape %v: a 1-D tensor of C = %d elements", name, s, c)
		}
	}
	if negativeOrNaN(t[4]) {
		return op.errorf(sonnxrule.BatchNormVariance, "input_var holds a negative value or NaN: a variance is >= 0")
	}
	return nil
}

// negativeOrNaN reports whether a float tensor holds a value that is not
// >= 0 (-0 is >= 0).
func negativeOrNaN(t *tensor.Tensor) bool {
	switch t.DataType() {
	case tensor.Float:
		return anyElement(t, func(v float32) bool { return !(v >= 0) })
	case tensor.Double:
		return anyElement(t, func(v float64) bool { return !(v >= 0) })
	case tensor.Float16:
		return anyElement(t, func(v uint16) bool {
			nan := v&0x7c00 == 0x7c00 && v&0x3ff != 0
			return nan || (v&0x8000 != 0 && v&0x7fff != 0)
		})
	case tensor.BFloat16:
		return anyElement(t, func(v uint16) bool {
			nan := v&0x7f80 == 0x7f80 && v&0x7f != 0
			return nan || (v&0x8000 != 0 && v&0x7fff != 0)
		})
	}
	return false
}
