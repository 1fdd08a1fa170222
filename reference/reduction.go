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
	"context"
	"encoding/binary"
	"iter"
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
	for i := range out {
		out[i] = elementAs[A](t, i)
	}
	return out
}

// elementAs returns element i (flat, row-major) of t converted to the
// computing type A.
func elementAs[A computeNumber](t *tensor.Tensor, i int) A {
	b := t.Bytes()
	switch t.DataType() {
	case tensor.Float:
		return A(math.Float32frombits(littleEndian.Uint32(b[4*i:])))
	case tensor.Double:
		return A(math.Float64frombits(littleEndian.Uint64(b[8*i:])))
	case tensor.Float16:
		return A(float16.Frombits(littleEndian.Uint16(b[2*i:])).Float32())
	case tensor.BFloat16:
		return A(math.Float32frombits(uint32(littleEndian.Uint16(b[2*i:])) << 16))
	case tensor.Int8:
		return A(int8(b[i]))
	case tensor.Uint8, tensor.Bool:
		return A(b[i])
	case tensor.Int16:
		return A(int16(littleEndian.Uint16(b[2*i:])))
	case tensor.Uint16:
		return A(littleEndian.Uint16(b[2*i:]))
	case tensor.Int32:
		return A(int32(littleEndian.Uint32(b[4*i:])))
	case tensor.Uint32:
		return A(littleEndian.Uint32(b[4*i:]))
	case tensor.Int64:
		return A(int64(littleEndian.Uint64(b[8*i:])))
	case tensor.Uint64:
		return A(littleEndian.Uint64(b[8*i:]))
	}
	return 0
}

// computeTensor returns a tensor of type dt and shape holding v, each element
// rounded to dt (float16 and bfloat16 to nearest even; bool is v != 0).
func computeTensor[A computeNumber](dt tensor.DataType, shape []int, v []A) *tensor.Tensor {
	t := tensor.MustNew(dt, shape...)
	for i, x := range v {
		setElementAs(t, i, x)
	}
	return t
}

// storeAll sets the elements of t to v, rounded as computeTensor rounds
// them: a kernel's sums into its charged output.
func storeAll[A computeNumber](t *tensor.Tensor, v []A) {
	for i, x := range v {
		setElementAs(t, i, x)
	}
}

// setElementAs sets element i of t to x, rounded to t's type as
// computeTensor rounds it.
func setElementAs[A computeNumber](t *tensor.Tensor, i int, x A) {
	b := t.Bytes()
	switch t.DataType() {
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

// A group is the input elements of one output of a reduction (or one
// slice of the softmax family): the flat element numbers base +
// ravel(idx, strides) for each multi-index idx of shape, in row-major
// order, where shape is the input's with every axis not reduced set to 1.
// Its elements are read when they are used, never gathered: a reduction
// over a whole tensor takes no memory beyond its output.
type group struct {
	base           int
	shape, strides []int
	ctx            context.Context
}

// cancelEvery is how many elements a group or a kernel's loop visits
// between two looks at the run's context.
const cancelEvery = 1 << 16

// len is the number of elements of g.
func (g group) len() int { return numElements(g.shape) }

// flats yields the position k in g and the flat element number of each of
// g's elements; it stops early when the run is cancelled, and the kernel
// that reads g returns the cancellation instead of its result.
func (g group) flats() iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		if g.len() == 0 {
			return
		}
		// idx walks g.shape in row-major order, flat = base + ravel(idx,
		// strides) following it.
		idx := make([]int, len(g.shape))
		flat := g.base
		for k := 0; ; k++ {
			if k%cancelEvery == cancelEvery-1 && g.ctx != nil && g.ctx.Err() != nil {
				return
			}
			if !yield(k, flat) {
				return
			}
			i := len(g.shape) - 1
			for ; i >= 0; i-- {
				if idx[i]++; idx[i] < g.shape[i] {
					flat += g.strides[i]
					break
				}
				flat -= (g.shape[i] - 1) * g.strides[i]
				idx[i] = 0
			}
			if i < 0 {
				return
			}
		}
	}
}

// groupValues yields the elements of g in x, in the computing type A.
func groupValues[A computeNumber](x *tensor.Tensor, g group) iter.Seq[A] {
	return func(yield func(A) bool) {
		for _, i := range g.flats() {
			if !yield(elementAs[A](x, i)) {
				return
			}
		}
	}
}

// forEachGroup calls f with each output element o of a reduction of shape
// over the axes marked in reduced (in row-major order of the output with
// the reduced axes kept as 1) and its group, and returns the run's
// cancellation if it comes.
func forEachGroup(opt *ops.Options, op opRef, shape []int, reduced []bool, f func(o int, g group)) error {
	outShape := make([]int, len(shape))
	sub := make([]int, len(shape))
	for i, d := range shape {
		outShape[i], sub[i] = d, 1
		if reduced[i] {
			outShape[i], sub[i] = 1, d
		}
	}
	strides := stridesOf(shape)
	g := group{shape: sub, strides: strides, ctx: opt.Context()}
	work := cancelEvery // a look at the run before the first group
	forEachIndexWhile(outShape, func(o int, idx []int) bool {
		if work += g.len() + 1; work >= cancelEvery {
			if work = 0; g.ctx.Err() != nil {
				return false
			}
		}
		g.base = ravel(idx, strides)
		f(o, g)
		return true
	})
	return cancelled(opt, op)
}

// axisMarked returns the reduced marks of the slices along axis of a
// tensor of the given rank.
func axisMarked(rank, axis int) []bool {
	reduced := make([]bool, rank)
	reduced[axis] = true
	return reduced
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
	f32 func(iter.Seq[float32]) float32
	f64 func(iter.Seq[float64]) float64
	i8  func(iter.Seq[int8]) int8
	u8  func(iter.Seq[uint8]) uint8
	i32 func(iter.Seq[int32]) int32
	u32 func(iter.Seq[uint32]) uint32
	i64 func(iter.Seq[int64]) int64
	u64 func(iter.Seq[uint64]) uint64
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
		y, err := newTensor(opt, op, x.DataType(), outShape)
		if err != nil {
			return nil, err
		}
		switch computeTypeOf(x.DataType()) {
		case tensor.Float:
			err = reduceGroups(opt, op, x, y, reduced, f.f32)
		case tensor.Double:
			err = reduceGroups(opt, op, x, y, reduced, f.f64)
		case tensor.Int8:
			err = reduceGroups(opt, op, x, y, reduced, f.i8)
		case tensor.Uint8:
			err = reduceGroups(opt, op, x, y, reduced, f.u8)
		case tensor.Int32:
			err = reduceGroups(opt, op, x, y, reduced, f.i32)
		case tensor.Uint32:
			err = reduceGroups(opt, op, x, y, reduced, f.u32)
		case tensor.Int64:
			err = reduceGroups(opt, op, x, y, reduced, f.i64)
		case tensor.Uint64:
			err = reduceGroups(opt, op, x, y, reduced, f.u64)
		}
		if err != nil {
			return nil, err
		}
		return []tensor.Value{y}, nil
	})
}

// reduceGroups sets each element of y to f of the elements of its group of x.
func reduceGroups[A computeNumber](opt *ops.Options, op opRef, x, y *tensor.Tensor, reduced []bool, f func(iter.Seq[A]) A) error {
	return forEachGroup(opt, op, x.Shape(), reduced, func(o int, g group) {
		setElementAs(y, o, f(groupValues[A](x, g)))
	})
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
