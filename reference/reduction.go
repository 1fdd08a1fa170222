package reference

// What the reference kernels of the reductions, the softmax family,
// ArgMax/ArgMin, CumSum, TopK and the pooling operators share: reading a
// tensor's elements in the type they are computed in, writing them back,
// and finding the elements of each output (the "slices" of the
// specification's numpy formulas).
//
// The computing type: an integer in its own type (sums wrap), float and
// double in their own, float16 and bfloat16 in float32, bool as 0 or 1. A
// sum adds its elements, in row-major order, in the sixteen lanes of
// sumlanes.go; a product multiplies them from 1, one after the other.

import (
	"encoding/binary"
	"math"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// littleEndian reads and writes elements: tensors hold them in the machine's order,
// little-endian on every platform onnxshape supports.
var littleEndian = binary.LittleEndian

// computeNumber is every computing type.
type computeNumber interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// computeElements returns t's elements converted to the computing type A.
func computeElements[A computeNumber](t *tensor.Tensor) []A {
	out := make([]A, t.Len())
	b := t.Bytes()
	for i := range out {
		switch t.DataType() {
		case tensor.Float:
			out[i] = A(math.Float32frombits(littleEndian.Uint32(b[4*i:])))
		case tensor.Double:
			out[i] = A(math.Float64frombits(littleEndian.Uint64(b[8*i:])))
		case tensor.Float16:
			out[i] = A(float16.Frombits(littleEndian.Uint16(b[2*i:])).Float32())
		case tensor.BFloat16:
			out[i] = A(math.Float32frombits(uint32(littleEndian.Uint16(b[2*i:])) << 16))
		case tensor.Int8:
			out[i] = A(int8(b[i]))
		case tensor.Uint8, tensor.Bool:
			out[i] = A(b[i])
		case tensor.Int16:
			out[i] = A(int16(littleEndian.Uint16(b[2*i:])))
		case tensor.Uint16:
			out[i] = A(littleEndian.Uint16(b[2*i:]))
		case tensor.Int32:
			out[i] = A(int32(littleEndian.Uint32(b[4*i:])))
		case tensor.Uint32:
			out[i] = A(littleEndian.Uint32(b[4*i:]))
		case tensor.Int64:
			out[i] = A(int64(littleEndian.Uint64(b[8*i:])))
		case tensor.Uint64:
			out[i] = A(littleEndian.Uint64(b[8*i:]))
		}
	}
	return out
}

// computeTensor returns a tensor of type dt and shape holding v, each element
// rounded to dt (float16 and bfloat16 to nearest even; bool is v != 0).
func computeTensor[A computeNumber](dt tensor.DataType, shape []int, v []A) *tensor.Tensor {
	t := tensor.MustNew(dt, shape...)
	b := t.Bytes()
	for i, x := range v {
		switch dt {
		case tensor.Float:
			littleEndian.PutUint32(b[4*i:], math.Float32bits(float32(x)))
		case tensor.Double:
			littleEndian.PutUint64(b[8*i:], math.Float64bits(float64(x)))
		case tensor.Float16:
			littleEndian.PutUint16(b[2*i:], uint16(float16.Fromfloat32(float32(x))))
		case tensor.BFloat16:
			littleEndian.PutUint16(b[2*i:], uint16(tensor.BF16FromFloat32(float32(x))))
		case tensor.Bool:
			b[i] = 0
			if x != 0 {
				b[i] = 1
			}
		case tensor.Int8, tensor.Uint8:
			b[i] = byte(x)
		case tensor.Int16, tensor.Uint16:
			littleEndian.PutUint16(b[2*i:], uint16(x))
		case tensor.Int32, tensor.Uint32:
			littleEndian.PutUint32(b[4*i:], uint32(x))
		case tensor.Int64, tensor.Uint64:
			littleEndian.PutUint64(b[8*i:], uint64(x))
		}
	}
	return t
}

// computeTypeOf is the type the reductions compute elements of type dt in.
func computeTypeOf(dt tensor.DataType) tensor.DataType {
	switch dt {
	case tensor.Float16, tensor.BFloat16:
		return tensor.Float
	case tensor.Bool:
		return tensor.Uint8
	}
	return dt
}

// isFloatType reports whether A is a floating-point type.
func isFloatType[A computeNumber]() bool {
	var half A = 1
	return half/2 != 0
}

// lowestOf and highestOf are the ends of A: -inf and +inf for the float types.
func lowestOf[A computeNumber]() A {
	if isFloatType[A]() {
		return A(math.Inf(-1))
	}
	var x A
	switch any(x).(type) {
	case int8:
		v := int64(math.MinInt8)
		return A(v)
	case int16:
		v := int64(math.MinInt16)
		return A(v)
	case int32:
		v := int64(math.MinInt32)
		return A(v)
	case int64:
		v := int64(math.MinInt64)
		return A(v)
	}
	return 0
}

func highestOf[A computeNumber]() A {
	if isFloatType[A]() {
		return A(math.Inf(1))
	}
	var x A
	switch any(x).(type) {
	case int8:
		v := uint64(math.MaxInt8)
		return A(v)
	case uint8:
		v := uint64(math.MaxUint8)
		return A(v)
	case int16:
		v := uint64(math.MaxInt16)
		return A(v)
	case uint16:
		v := uint64(math.MaxUint16)
		return A(v)
	case int32:
		v := uint64(math.MaxInt32)
		return A(v)
	case uint32:
		v := uint64(math.MaxUint32)
		return A(v)
	case int64:
		v := uint64(math.MaxInt64)
		return A(v)
	}
	v := uint64(math.MaxUint64)
	return A(v)
}

// fromFloat64 converts a value computed in float64 to A: the float types
// round it, the integers truncate it toward zero, saturated, NaN giving 0.
func fromFloat64[A computeNumber](f float64) A {
	if isFloatType[A]() {
		return A(f)
	}
	switch {
	case math.IsNaN(f):
		return 0
	case f <= float64(lowestOf[A]()):
		return lowestOf[A]()
	case f >= float64(highestOf[A]()):
		return highestOf[A]()
	}
	return A(f)
}

// reductionGroups returns, for each output element of a reduction of shape over
// the axes marked in reduced (in row-major order of the output with the
// reduced axes kept as 1), the flat indices of its input elements, in
// row-major order.
func reductionGroups(shape []int, reduced []bool) [][]int {
	outShape := make([]int, len(shape))
	for i, d := range shape {
		outShape[i] = d
		if reduced[i] {
			outShape[i] = 1
		}
	}
	groups := make([][]int, numElements(outShape))
	for flat := range numElements(shape) {
		idx := unravel(flat, shape)
		for i := range idx {
			if reduced[i] {
				idx[i] = 0
			}
		}
		o := ravel(idx, stridesOf(outShape))
		groups[o] = append(groups[o], flat)
	}
	return groups
}

// axisSlices returns the flat indices of every slice of shape along axis:
// for each index of the other axes, in row-major order, the elements at
// 0, 1, ... along axis.
func axisSlices(shape []int, axis int) [][]int {
	reduced := make([]bool, len(shape))
	reduced[axis] = true
	return reductionGroups(shape, reduced)
}

// reductionFuncs holds one reduction, instantiated for every computing
// type: it returns the result of the elements of one output, given in
// row-major order.
type reductionFuncs struct {
	f32 func([]float32) float32
	f64 func([]float64) float64
	i8  func([]int8) int8
	u8  func([]uint8) uint8
	i32 func([]int32) int32
	u32 func([]uint32) uint32
	i64 func([]int64) int64
	u64 func([]uint64) uint64
}

// sumTypes are the types of every Reduce* operator but ReduceMax and
// ReduceMin: bfloat16 from version 13.
func sumTypes(version int, dt tensor.DataType) bool {
	switch dt {
	case tensor.Uint32, tensor.Uint64, tensor.Int32, tensor.Int64, tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.BFloat16:
		return version >= 13
	}
	return false
}

// registerReduction registers the reference kernel of a Reduce* operator
// whose axes is an attribute before version axesInput and an optional
// input from it on.
func registerReduction(name string, versions []int, axesInput int, types func(int, tensor.DataType) bool, f reductionFuncs) {
	register(name, versions, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "data")
		if err != nil {
			return nil, err
		}
		// axes: an attribute before axesInput, an optional input from it on.
		var axes []int
		if n.Version < axesInput {
			if n.Has("noop_with_empty_axes") {
				return nil, op.errorf("attribute", "attribute noop_with_empty_axes is not defined in version %d", n.Version)
			}
			axes, _, err = intsAttr(n, "axes", "axes")
		} else {
			if n.Has("axes") {
				return nil, op.errorf("attribute", "attribute axes is not defined in version %d", n.Version)
			}
			axes, _, err = intListInput(opt, op, in, 1, "axes", "axes", false)
		}
		if err != nil {
			return nil, err
		}
		keepdims, err := n.Int("keepdims", 1)
		if err != nil {
			return nil, err
		}
		noop, err := n.Int("noop_with_empty_axes", 0)
		if err != nil {
			return nil, err
		}
		if keepdims != 0 && keepdims != 1 {
			return nil, op.errorf("keepdims", "keepdims is %d, expected 0 or 1", keepdims)
		}
		if noop != 0 && noop != 1 {
			return nil, op.errorf("noop_with_empty_axes", "noop_with_empty_axes is %d, expected 0 or 1", noop)
		}
		if !types(n.Version, x.DataType()) {
			return nil, op.errorf("type", "data is %v, which version %d does not accept", x.DataType(), n.Version)
		}
		// "Accepted range is [-r, r-1] where r = rank(data)"; an axis
		// given twice is an error.
		r := x.Rank()
		norm, err := normalizeAxes(op, axes, r, false, "axes", "axes", "input")
		if err != nil {
			return nil, err
		}
		reduced := make([]bool, r)
		for _, a := range norm {
			reduced[a] = true
		}
		// "When axes is empty ... reduction over all axes if
		// 'noop_with_empty_axes' is false".
		if len(axes) == 0 && noop == 0 {
			for i := range reduced {
				reduced[i] = true
			}
		}
		outShape := []int{}
		for i, d := range x.Shape() {
			switch {
			case !reduced[i]:
				outShape = append(outShape, d)
			case keepdims == 1:
				outShape = append(outShape, 1)
			}
		}
		if err := checkSize(opt, op, x.DataType(), outShape); err != nil {
			return nil, err
		}
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		groups := reductionGroups(x.Shape(), reduced)
		var y *tensor.Tensor
		switch computeTypeOf(x.DataType()) {
		case tensor.Float:
			y = reduceGroups(x, groups, outShape, f.f32)
		case tensor.Double:
			y = reduceGroups(x, groups, outShape, f.f64)
		case tensor.Int8:
			y = reduceGroups(x, groups, outShape, f.i8)
		case tensor.Uint8:
			y = reduceGroups(x, groups, outShape, f.u8)
		case tensor.Int32:
			y = reduceGroups(x, groups, outShape, f.i32)
		case tensor.Uint32:
			y = reduceGroups(x, groups, outShape, f.u32)
		case tensor.Int64:
			y = reduceGroups(x, groups, outShape, f.i64)
		case tensor.Uint64:
			y = reduceGroups(x, groups, outShape, f.u64)
		}
		return []tensor.Value{y}, nil
	})
}

// reduceGroups applies f to the elements of each group of x.
func reduceGroups[A computeNumber](x *tensor.Tensor, groups [][]int, outShape []int, f func([]A) A) *tensor.Tensor {
	v := computeElements[A](x)
	out := make([]A, len(groups))
	for o, g := range groups {
		vals := make([]A, len(g))
		for j, i := range g {
			vals[j] = v[i]
		}
		out[o] = f(vals)
	}
	return computeTensor(x.DataType(), outShape, out)
}

// axisOf reads the attribute axis of node n (default def) and returns it
// in [0, rank), or an error: "Accepted range is [-r, r-1]" (the first
// versions do not state a range; PyTorch exports negative axes to them).
//
//lint:ignore U1000 kept for the operators with an axis attribute to come
func axisOf(n *ops.Node, def int64, rank int) (int, error) {
	a, err := n.Int("axis", def)
	if err != nil {
		return 0, err
	}
	return checkAxis(n, a, rank)
}

// checkAxis returns axis a in [0, rank), or an error.
func checkAxis(n *ops.Node, a int64, rank int) (int, error) {
	lo := -int64(rank)
	if a < lo || a >= int64(rank) {
		return 0, opOf(n).errorf("axis", "axis %d is outside [%d, %d] (input rank %d)", a, lo, rank-1, rank)
	}
	if a < 0 {
		a += int64(rank)
	}
	return int(a), nil
}
