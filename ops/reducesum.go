// ReduceSum reduces the axes of data it is given to the sum of the elements (0 for none).
// The axes and keepdims, noop_with_empty_axes and the output shape are those
// of every Reduce* operator (below); the engine is ops/internal/reduce.
//
// Versions: 1 (axes attribute), 11 (negative axes), 13 (axes an optional input, noop_with_empty_axes, bfloat16).
// Types: uint32, uint64, int32, int64, float16, float, double, bfloat16 (13+). Integers are computed in their own type, float16 and
// bfloat16 in float32, each output accumulating its elements in row-major
// order.

package ops

import (
	"math"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
	"github.com/x448/float16"
)

var reduceSum = reduceOperator{name: "ReduceSum", kind: reduce.Sum, axesInput: 13, minMax: false}

func init() { registerReduction(reduceSum, []int{1, 11, 13}) }

// ReduceSum returns the sum of the elements of x over o.Axes (ONNX ReduceSum, version 13).
func ReduceSum(x *tensor.Tensor, o ReduceOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"ReduceSum", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return reduceSum.run(opt, op, x, o)
}

// What the Reduce* operators share: their attributes and axes (an
// attribute before the version that made axes an input, an optional input
// from it on), the output shape, the element types, and the run of the
// engine of package ops/internal/reduce on a tensor of any computing type.

// ReduceOptions are the attributes of a Reduce* operator.
type ReduceOptions struct {
	// Axes are the axes reduced, each in [-rank, rank-1]; none means every
	// axis, or none at all with NoopWithEmptyAxes.
	Axes []int
	// DropAxes removes the reduced axes from the output (keepdims=0);
	// by default they stay, with length 1.
	DropAxes bool
	// NoopWithEmptyAxes makes empty Axes reduce nothing: each element is
	// reduced alone (ReduceSumSquare still squares it).
	NoopWithEmptyAxes bool
}

// reduceOperator is one Reduce* operator: its engine kind, the version from
// which axes is an input, and whether it is ReduceMax or ReduceMin (whose
// types are wider).
type reduceOperator struct {
	name      string
	kind      reduce.Kind
	axesInput int // since-version that takes axes as an input
	minMax    bool
}

// registerReduction registers every version of a Reduce* operator and
// declares its attributes.
func registerReduction(r reduceOperator, versions []int) {
	for _, v := range versions {
		inputs := [2]int{1, 1}
		if v >= r.axesInput {
			inputs = [2]int{1, 2}
		}
		register(r.name, []int{v}, inputs, [2]int{1, 1}, r.node)
	}
	declareAttrs(r.name,
		AttrSpec{Name: "axes", Type: AttrInts, Before: r.axesInput},
		AttrSpec{Name: "keepdims", Type: AttrInt},
		AttrSpec{Name: "noop_with_empty_axes", Type: AttrInt, From: r.axesInput},
	)
}

// typeOK reports whether a version of the operator accepts dt.
func (r reduceOperator) typeOK(version int, dt tensor.DataType) bool {
	switch dt {
	case tensor.Uint32, tensor.Uint64, tensor.Int32, tensor.Int64, tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.BFloat16:
		return version >= 13
	case tensor.Int8, tensor.Uint8:
		return r.minMax && version >= 12
	case tensor.Bool:
		return r.minMax && version >= 20
	}
	return false
}

func (r reduceOperator) node(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	var o ReduceOptions
	if n.Version < r.axesInput {
		if n.Has("noop_with_empty_axes") {
			return nil, op.errorf("attribute", "attribute noop_with_empty_axes is not defined in version %d", n.Version)
		}
		o.Axes, _, err = n.intsAttr("axes", "axes")
	} else {
		if n.Has("axes") {
			return nil, op.errorf("attribute", "attribute axes is not defined in version %d: axes is an input", n.Version)
		}
		o.Axes, _, err = n.int64ListInput(opt, in, 1, "axes", "axes", false)
	}
	if err != nil {
		return nil, err
	}
	keep, err := n.Int("keepdims", 1)
	if err != nil {
		return nil, err
	}
	noop, err := n.Int("noop_with_empty_axes", 0)
	if err != nil {
		return nil, err
	}
	if keep != 0 && keep != 1 {
		return nil, op.errorf("keepdims", "keepdims is %d, expected 0 or 1", keep)
	}
	if noop != 0 && noop != 1 {
		return nil, op.errorf("noop_with_empty_axes", "noop_with_empty_axes is %d, expected 0 or 1", noop)
	}
	o.DropAxes, o.NoopWithEmptyAxes = keep == 0, noop == 1
	y, err := r.run(opt, op, x, o)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// run checks x and the options and reduces.
func (r reduceOperator) run(opt *Options, op opRef, x *tensor.Tensor, o ReduceOptions) (*tensor.Tensor, error) {
	if !r.typeOK(op.version, x.DataType()) {
		return nil, op.errorf("type", "data is %v, which version %d does not accept", x.DataType(), op.version)
	}
	outShape, reduced, err := reduceOutputShape(op, x.Shape(), o)
	if err != nil {
		return nil, err
	}
	return reduceTensor(opt, op, reduce.Op{Kind: r.kind}, x, reduced, outShape)
}

// reduceOutputShape checks the axes and returns the output shape and which
// input axes are reduced.
func reduceOutputShape(op opRef, shape []int, o ReduceOptions) (out []int, reduced []bool, err error) {
	rank := len(shape)
	axes, err := normalizeAxes(op, o.Axes, rank, axisRules{rangeRule: "axes", repeatRule: "axes", rankOf: "input"})
	if err != nil {
		return nil, nil, err
	}
	reduced = make([]bool, rank)
	for _, a := range axes {
		reduced[a] = true
	}
	if len(axes) == 0 && !o.NoopWithEmptyAxes {
		for i := range reduced {
			reduced[i] = true
		}
	}
	out = make([]int, 0, rank) // one allocation, not one per doubling
	for i, d := range shape {
		switch {
		case !reduced[i]:
			out = append(out, d)
		case !o.DropAxes:
			out = append(out, 1)
		}
	}
	return out, reduced, nil
}

// reduceTensor runs the reduction o of x over the axes marked in reduced
// into a new tensor of shape outShape.
func reduceTensor(opt *Options, op opRef, o reduce.Op, x *tensor.Tensor, reduced []bool, outShape []int) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	y, err := opt.newOverwritten(op, x.DataType(), outShape)
	if err != nil {
		return nil, err
	}
	l := reduce.NewLayout(x.Shape(), reduced)
	if s := l.ScratchElems(o.Kind, opt.threads()); s > 0 {
		if err := opt.scratch(op, "the reduction's offsets and rows", s, 8); err != nil {
			return nil, err
		}
	}
	switch reduceComputeType(x.DataType()) {
	case tensor.Float:
		err = reduceAs[float32](opt, op, o, l, x, y)
	case tensor.Double:
		err = reduceAs[float64](opt, op, o, l, x, y)
	case tensor.Int8:
		err = reduceAs[int8](opt, op, o, l, x, y)
	case tensor.Uint8:
		err = reduceAs[uint8](opt, op, o, l, x, y)
	case tensor.Int32:
		err = reduceAs[int32](opt, op, o, l, x, y)
	case tensor.Uint32:
		err = reduceAs[uint32](opt, op, o, l, x, y)
	case tensor.Int64:
		err = reduceAs[int64](opt, op, o, l, x, y)
	case tensor.Uint64:
		err = reduceAs[uint64](opt, op, o, l, x, y)
	default:
		err = op.errorf("type", "cannot reduce %v", x.DataType())
	}
	if err != nil {
		return nil, err
	}
	if x.DataType() == tensor.Bool {
		// The minimum of no element is the largest uint8: true.
		for i, b := range y.Bytes() {
			y.Bytes()[i] = min(b, 1)
		}
	}
	return y, nil
}

func reduceAs[A reduce.Number](opt *Options, op opRef, o reduce.Op, l reduce.Layout, x, y *tensor.Tensor) error {
	xs, err := reduceLoad[A](opt, op, x)
	if err != nil {
		return err
	}
	ys, flush, err := reduceOut[A](opt, op, y)
	if err != nil {
		return err
	}
	if err := reduce.Run(o, l, xs, ys, reduceParallel(opt, op)); err != nil {
		return err
	}
	flush()
	return nil
}

// reduceParallel adapts the worker pool to the engine's Parallel. Each
// part runs in steps of about pollWork elements and looks at the run's
// context between them; a cancelled run returns op's [cancelled] error.
func reduceParallel(opt *Options, op opRef) reduce.Parallel {
	return func(n, work int, f func(lo, hi int) error) error {
		step := max(1, pollWork/max(1, work/max(1, n)))
		// Pieces taken in turn rather than fixed halves (parallel.Shared),
		// at most sharedPieces per core so that the scratch a part makes
		// (the column blocks' partial sums) stays a few blocks a call.
		o := opt.orDefault()
		threads := o.threads()
		grain := max(step, (n+sharedPieces*threads-1)/(sharedPieces*threads))
		err := parallel.Shared(o.env.Ctx, threads, n, grain, work, func(lo, hi int) error {
			for a := lo; a < hi; a += step {
				if err := opt.cancelled(); err != nil {
					return err
				}
				if err := f(a, min(a+step, hi)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return op.wrap("cancelled", err, "run stopped")
		}
		return nil
	}
}

// sharedPieces is how many pieces per core reduceParallel cuts a call
// into: enough that a core which starts late or runs slow leaves the other
// a few pieces to take, few enough that a piece's fixed cost stays small.
const sharedPieces = 4

// reduceComputeType is the type an operator of the engine computes elements of
// type dt in: float16 and bfloat16 in float32, bool as uint8 (0 or 1), the
// others in their own type (the engine's computing types for the rest).
func reduceComputeType(dt tensor.DataType) tensor.DataType {
	switch dt {
	case tensor.Float16, tensor.BFloat16:
		return tensor.Float
	case tensor.Bool:
		return tensor.Uint8
	}
	return dt
}

// reduceLoad returns t's elements as []A, A its computing type: t's own
// storage (not to be modified) when t is of type A, else a converted copy
// whose bytes are charged first.
func reduceLoad[A reduce.Number](opt *Options, op opRef, t *tensor.Tensor) ([]A, error) {
	dt := t.DataType()
	if dt != tensor.Float16 && dt != tensor.BFloat16 {
		return asElems[A](t.Bytes())[:t.Len()], nil // bool is uint8 already
	}
	var zero A
	if err := opt.scratch(op, "the input in float32", t.Len(), int(unsafe.Sizeof(zero))); err != nil {
		return nil, err
	}
	out := make([]A, t.Len())
	bits := asElems[uint16](t.Bytes())
	for i := range out {
		out[i] = A(reduceHalfToFloat32(dt, bits[i]))
	}
	return out, nil
}

// reduceOut returns the []A an operator writes y's elements to, and the
// function that stores them into y when y is not of type A.
func reduceOut[A reduce.Number](opt *Options, op opRef, y *tensor.Tensor) ([]A, func(), error) {
	dt := y.DataType()
	if dt != tensor.Float16 && dt != tensor.BFloat16 {
		return asElems[A](y.Bytes())[:y.Len()], func() {}, nil
	}
	var zero A
	if err := opt.scratch(op, "the output in float32", y.Len(), int(unsafe.Sizeof(zero))); err != nil {
		return nil, nil, err
	}
	v := make([]A, y.Len())
	return v, func() {
		bits := asElems[uint16](y.Bytes())
		for i, f := range v {
			bits[i] = reduceFloat32ToHalf(dt, float32(f))
		}
	}, nil
}

// reduceHalfToFloat32 is the value of a float16 or bfloat16 whose bits are b.
func reduceHalfToFloat32(dt tensor.DataType, b uint16) float32 {
	if dt == tensor.BFloat16 {
		return math.Float32frombits(uint32(b) << 16)
	}
	return float16.Frombits(b).Float32()
}

// reduceFloat32ToHalf rounds f to the nearest float16 or bfloat16, ties to even.
func reduceFloat32ToHalf(dt tensor.DataType, f float32) uint16 {
	if dt == tensor.BFloat16 {
		return uint16(tensor.BF16FromFloat32(f))
	}
	return uint16(float16.Fromfloat32(f))
}
