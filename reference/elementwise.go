package reference

// What the elementwise operators' reference kernels share: an element read
// as the number it stands for (a scalar), numpy's broadcasting written out
// index by index, and the conversion of a result back to the output's type.
//
// The arithmetic follows the types as the ONNX operators and onnxruntime
// use them: a float result is computed in float64 and rounded to the
// output type (float16 and bfloat16 through float32, as onnxruntime
// computes them); an integer result wraps to the type's width; a float
// result stored in an integer type is truncated toward zero and saturated.

import (
	"fmt"
	"math"
	"slices"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// kind is which field of a scalar holds its value.
type kind int

const (
	floatKind    kind = iota // f
	signedKind               // i
	unsignedKind             // u
	boolKind                 // b
	stringKind               // s
	complexKind              // c
)

// scalar is one element.
type scalar struct {
	kind kind
	f    float64
	i    int64
	u    uint64
	b    bool
	s    string
	c    complex128
}

func floatOf(f float64) scalar   { return scalar{kind: floatKind, f: f} }
func signedOf(i int64) scalar    { return scalar{kind: signedKind, i: i} }
func unsignedOf(u uint64) scalar { return scalar{kind: unsignedKind, u: u} }
func boolOf(b bool) scalar       { return scalar{kind: boolKind, b: b} }

// elementAt reads element k of t.
func elementAt(t *tensor.Tensor, k int) scalar {
	switch t.DataType() {
	case tensor.Float:
		return floatOf(float64(data[float32](t)[k]))
	case tensor.Double:
		return floatOf(data[float64](t)[k])
	case tensor.Float16:
		return floatOf(float64(data[float16.Float16](t)[k].Float32()))
	case tensor.BFloat16:
		return floatOf(float64(data[tensor.BF16](t)[k].Float32()))
	case tensor.Float8E4M3FN:
		return floatOf(data[tensor.F8E4M3FN](t)[k].Float64())
	case tensor.Float8E4M3FNUZ:
		return floatOf(data[tensor.F8E4M3FNUZ](t)[k].Float64())
	case tensor.Float8E5M2:
		return floatOf(data[tensor.F8E5M2](t)[k].Float64())
	case tensor.Float8E5M2FNUZ:
		return floatOf(data[tensor.F8E5M2FNUZ](t)[k].Float64())
	case tensor.Int8:
		return signedOf(int64(data[int8](t)[k]))
	case tensor.Int16:
		return signedOf(int64(data[int16](t)[k]))
	case tensor.Int32:
		return signedOf(int64(data[int32](t)[k]))
	case tensor.Int64:
		return signedOf(data[int64](t)[k])
	case tensor.Uint8:
		return unsignedOf(uint64(data[uint8](t)[k]))
	case tensor.Uint16:
		return unsignedOf(uint64(data[uint16](t)[k]))
	case tensor.Uint32:
		return unsignedOf(uint64(data[uint32](t)[k]))
	case tensor.Uint64:
		return unsignedOf(data[uint64](t)[k])
	case tensor.Bool:
		return boolOf(data[bool](t)[k])
	case tensor.String:
		return scalar{kind: stringKind, s: data[string](t)[k]}
	case tensor.Complex64:
		return scalar{kind: complexKind, c: complex128(data[complex64](t)[k])}
	case tensor.Complex128:
		return scalar{kind: complexKind, c: data[complex128](t)[k]}
	}
	panic(fmt.Sprintf("reference: elements of type %v are not read", t.DataType()))
}

// setElement writes v as element k of t, converted to t's type.
func setScalar(t *tensor.Tensor, k int, v scalar) {
	switch dt := t.DataType(); dt {
	case tensor.Float:
		data[float32](t)[k] = float32(realOf(v))
	case tensor.Double:
		data[float64](t)[k] = realOf(v)
	case tensor.Float16:
		data[float16.Float16](t)[k] = float16.Fromfloat32(float32(realOf(v)))
	case tensor.BFloat16:
		data[tensor.BF16](t)[k] = tensor.BF16FromFloat32(float32(realOf(v)))
	case tensor.Int8:
		data[int8](t)[k] = int8(signedResult(v, dt))
	case tensor.Int16:
		data[int16](t)[k] = int16(signedResult(v, dt))
	case tensor.Int32:
		data[int32](t)[k] = int32(signedResult(v, dt))
	case tensor.Int64:
		data[int64](t)[k] = signedResult(v, dt)
	case tensor.Uint8:
		data[uint8](t)[k] = uint8(unsignedResult(v, dt))
	case tensor.Uint16:
		data[uint16](t)[k] = uint16(unsignedResult(v, dt))
	case tensor.Uint32:
		data[uint32](t)[k] = uint32(unsignedResult(v, dt))
	case tensor.Uint64:
		data[uint64](t)[k] = unsignedResult(v, dt)
	case tensor.Bool:
		data[bool](t)[k] = v.b
	case tensor.String:
		data[string](t)[k] = v.s
	case tensor.Complex64:
		data[complex64](t)[k] = complex64(v.c)
	case tensor.Complex128:
		data[complex128](t)[k] = v.c
	default:
		panic(fmt.Sprintf("reference: elements of type %v are not written", dt))
	}
}

// roundTo returns v as type dt holds it: written and read back.
func roundTo(dt tensor.DataType, v scalar) scalar {
	t, _ := tensor.New(dt, 1)
	setScalar(t, 0, v)
	return elementAt(t, 0)
}

// signedResult is a signed result: an integer wraps (by the conversion to
// the type), a float is truncated toward zero and saturated, NaN is 0.
func signedResult(v scalar, dt tensor.DataType) int64 {
	switch v.kind {
	case signedKind:
		return v.i
	case unsignedKind:
		return int64(v.u)
	}
	bits := dt.Size() * 8
	limit := math.Pow(2, float64(bits-1)) // the least value is -limit, the greatest limit-1
	x := math.Trunc(v.f)
	switch {
	case math.IsNaN(x):
		return 0
	case x <= -limit:
		return -1 << (bits - 1)
	case x >= limit:
		return 1<<(bits-1) - 1
	}
	return int64(x)
}

// unsignedResult is signedResult for an unsigned type.
func unsignedResult(v scalar, dt tensor.DataType) uint64 {
	switch v.kind {
	case unsignedKind:
		return v.u
	case signedKind:
		return uint64(v.i)
	}
	hi := math.Pow(2, float64(dt.Size()*8))
	x := math.Trunc(v.f)
	switch {
	case math.IsNaN(x) || x <= 0:
		return 0
	case x >= hi:
		return math.MaxUint64 >> (64 - dt.Size()*8)
	}
	return uint64(x)
}

// data is tensor.Data for a tensor whose type the caller checked.
func data[T tensor.Element](t *tensor.Tensor) []T {
	v, err := tensor.Data[T](t)
	if err != nil {
		panic(err)
	}
	return v
}

// broadcastShapes is numpy's rule over any number of shapes: aligned at
// their last axis, each output dim the common dim of the inputs, a dim of
// 1 stretching.
func broadcastShapes(op opRef, shapes ...[]int) ([]int, error) {
	out := []int{}
	for _, s := range shapes {
		next, err := broadcastShape(out, s)
		if err != nil {
			return nil, op.errorf("broadcast", "%v", err)
		}
		out = next
	}
	return out, nil
}

// broadcastElement returns the flat index, in a tensor of shape s, of the
// element that output multi-index idx reads.
func broadcastElement(idx, s []int) int {
	at := make([]int, len(s))
	for k, d := range s {
		if d != 1 {
			at[k] = idx[len(idx)-len(s)+k]
		}
	}
	return ravel(at, stridesOf(s))
}

// elementwiseN computes out[idx] = f(in_0[idx], in_1[idx], ...) over the
// broadcast shape of the inputs; the output is of type dt.
func elementwiseN(opt *ops.Options, op opRef, dt tensor.DataType, f func(x []scalar) scalar, in ...*tensor.Tensor) (*tensor.Tensor, error) {
	shapes := make([][]int, len(in))
	for i, t := range in {
		shapes[i] = t.Shape()
	}
	shape, err := broadcastShapes(op, shapes...)
	if err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	out, err := newTensor(opt, op, dt, shape)
	if err != nil {
		return nil, err
	}
	x := make([]scalar, len(in))
	for k := range numElements(shape) {
		if k%(1<<16) == 0 && k > 0 {
			if err := cancelled(opt, op); err != nil {
				return nil, err
			}
		}
		idx := unravel(k, shape)
		for i, t := range in {
			x[i] = elementAt(t, broadcastElement(idx, t.Shape()))
		}
		setScalar(out, k, f(x))
	}
	return out, nil
}

// checkType is the [type] rule: dt is one of the types the operator's
// version allows (elementwise_types.go).
func checkType(op opRef, what string, dt tensor.DataType, allowed map[int][]tensor.DataType) error {
	if !slices.Contains(allowed[op.version], dt) {
		return op.errorf("type", "%s of type %v is not allowed in version %d", what, dt, op.version)
	}
	return nil
}

// legacyBroadcast returns B reshaped to A's rank by the rule of the
// versions before 7 (attributes broadcast and axis): with broadcast=1, B's
// dims sit in A's from axis on (by default at A's end; a B of one element
// is a scalar); with broadcast=0 B must have A's shape.
func legacyBroadcast(op opRef, n *ops.Node, a, b *tensor.Tensor) (*tensor.Tensor, error) {
	on, err := n.Int("broadcast", 0)
	if err != nil {
		return nil, err
	}
	if on == 0 {
		if !tensor.SameShape(a.Shape(), b.Shape()) {
			return nil, op.errorf("broadcast", "B of shape %v must have A's shape %v without broadcast", b.Shape(), a.Shape())
		}
		return b, nil
	}
	axis, err := intAttr(n, "axis", a.Rank()-b.Rank(), "axis")
	if err != nil {
		return nil, err
	}
	if axis < 0 {
		axis += a.Rank()
	}
	if b.Rank() == 1 && b.Shape()[0] == 1 && !n.Has("axis") {
		axis = a.Rank() - 1
	}
	if axis < 0 || axis+b.Rank() > a.Rank() {
		return nil, op.errorf("axis", "B of shape %v does not fit A's shape %v at axis %d", b.Shape(), a.Shape(), axis)
	}
	shape := make([]int, a.Rank())
	for k := range shape {
		shape[k] = 1
	}
	for k, d := range b.Shape() {
		if d != 1 && d != a.Shape()[axis+k] {
			return nil, op.errorf("broadcast", "B of shape %v does not match A's shape %v at axis %d", b.Shape(), a.Shape(), axis)
		}
		shape[axis+k] = d
	}
	return b.View(shape...)
}

// call is what an element function may need of its node's run.
type call struct {
	opt *ops.Options
	n   *ops.Node
	op  opRef
}

// elementwiseOp is what a binary or unary reference kernel checks before
// it computes: the legacy broadcast of the versions below legacyBefore,
// and prepare's rules on the attributes and inputs (run after the type
// and broadcast rules, before the output is made).
type elementwiseOp struct {
	legacyBefore int
	boolOut      bool
	prepare      func(c call, in []*tensor.Tensor) error
}

// binary is the kernel of a binary operator whose output has A's type (or
// bool, when boolOut): f of each pair of broadcast elements, the rounded
// result.
func (e elementwiseOp) binary(f func(c call, a, b scalar) scalar) ops.Kernel {
	return func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		a, err := requiredInput(op, in, 0, "A")
		if err != nil {
			return nil, err
		}
		b, err := requiredInput(op, in, 1, "B")
		if err != nil {
			return nil, err
		}
		if err := checkType(op, "A", a.DataType(), elementwiseTypes[n.OpType]); err != nil {
			return nil, err
		}
		if b.DataType() != a.DataType() {
			return nil, op.errorf("type", "B of type %v must have A's type %v", b.DataType(), a.DataType())
		}
		if err := sameShapesSONNX(opt, op, a.DataType(), []string{"A", "B"}, a, b); err != nil {
			return nil, err
		}
		if n.Version < e.legacyBefore {
			if b, err = legacyBroadcast(op, n, a, b); err != nil {
				return nil, err
			}
		} else if _, err := broadcastShapes(op, a.Shape(), b.Shape()); err != nil {
			return nil, err
		}
		c := call{opt, n, op}
		if e.prepare != nil {
			if err := e.prepare(c, []*tensor.Tensor{a, b}); err != nil {
				return nil, err
			}
		}
		dt := a.DataType()
		if e.boolOut {
			dt = tensor.Bool
		}
		out, err := elementwiseN(opt, op, dt, func(x []scalar) scalar { return f(c, x[0], x[1]) }, a, b)
		if err != nil {
			return nil, err
		}
		return values(out), nil
	}
}

// unary is the kernel of a unary operator: f of each element, the result
// of X's type (bool when boolOut).
func (e elementwiseOp) unary(f func(c call, x scalar) scalar) ops.Kernel {
	return func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "X")
		if err != nil {
			return nil, err
		}
		if err := checkType(op, "X", x.DataType(), elementwiseTypes[n.OpType]); err != nil {
			return nil, err
		}
		c := call{opt, n, op}
		if e.prepare != nil {
			if err := e.prepare(c, []*tensor.Tensor{x}); err != nil {
				return nil, err
			}
		}
		dt := x.DataType()
		if e.boolOut {
			dt = tensor.Bool
		}
		y, err := elementwiseN(opt, op, dt, func(v []scalar) scalar { return f(c, v[0]) }, x)
		if err != nil {
			return nil, err
		}
		return values(y), nil
	}
}

// binaryKernel is elementwiseOp.binary without a prepare step.
func binaryKernel(legacyBefore int, boolOut bool, f func(c call, a, b scalar) scalar) ops.Kernel {
	return elementwiseOp{legacyBefore: legacyBefore, boolOut: boolOut}.binary(f)
}

// unaryKernel is elementwiseOp.unary without a prepare step.
func unaryKernel(f func(c call, x scalar) scalar) ops.Kernel {
	return elementwiseOp{}.unary(f)
}

// floatFunction is the unary kernel of a function of the reals, computed
// in float64 and rounded to X's type (float16 and bfloat16 through
// float32).
func floatFunction(f func(x float64) float64) ops.Kernel {
	return unaryKernel(func(_ call, x scalar) scalar { return floatOf(f(x.f)) })
}

// arith applies the operation of the operands' kind: f on floats, i on
// signed integers (wrapping at the type's width when stored), u on
// unsigned ones.
func arith(a, b scalar, f func(x, y float64) float64, i func(x, y int64) int64, u func(x, y uint64) uint64) scalar {
	switch a.kind {
	case signedKind:
		return signedOf(i(a.i, b.i))
	case unsignedKind:
		return unsignedOf(u(a.u, b.u))
	}
	return floatOf(f(a.f, b.f))
}

// realOf is the value of a number as a float64.
func realOf(x scalar) float64 {
	switch x.kind {
	case signedKind:
		return float64(x.i)
	case unsignedKind:
		return float64(x.u)
	}
	return x.f
}

// less compares two numbers of one kind.
func less(a, b scalar) bool {
	switch a.kind {
	case signedKind:
		return a.i < b.i
	case unsignedKind:
		return a.u < b.u
	}
	return a.f < b.f
}

// equal compares two elements of one kind.
func equal(a, b scalar) bool {
	switch a.kind {
	case signedKind:
		return a.i == b.i
	case unsignedKind:
		return a.u == b.u
	case boolKind:
		return a.b == b.b
	case stringKind:
		return a.s == b.s
	}
	return a.f == b.f
}

// attrFloat reads a float attribute, def when absent (a prepare step
// has checked its type).
func attrFloat(n *ops.Node, name string, def float32) float64 {
	v, _ := n.Float(name, def)
	return float64(v)
}
