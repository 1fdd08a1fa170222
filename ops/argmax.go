// ArgMax returns the index along axis of the largest element of each slice
// of data, as int64; keepdims keeps the axis with length 1. The first such
// index, or with select_last_index the last. A NaN counts as the largest
// element (the first NaN, or the last with select_last_index), as numpy's
// argmax does. An axis of length 0 is an error: there is no index to give.
// The attributes and the kernel are shared with ArgMin (below).
//
// Versions: 1, 11 (the range [-r, r-1] stated; negative axes are taken in
// every version, as PyTorch exports them), 12 (select_last_index), 13
// (bfloat16). Types: every integer of 8 to 64 bits, float16, float, double,
// bfloat16.

package ops

import (
	"fmt"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
)

var argMaxOp = argOperator{name: "ArgMax", max: true}

func init() { registerArg(argMaxOp) }

// ArgMaxOptions are ArgMax's attributes; the zero value is ONNX's
// defaults (axis 0, kept with length 1, the first of equal maxima).
type ArgMaxOptions struct {
	// Axis is the axis searched, in [-r, r-1].
	Axis int
	// DropAxis removes the searched axis from the output (keepdims=0).
	DropAxis bool
	// SelectLastIndex picks the last of equal maxima (select_last_index=1).
	SelectLastIndex bool
}

// ArgMax returns the index (int64) of the largest element of each slice of x
// along o.Axis, the first of equal ones unless o.SelectLastIndex (ONNX
// ArgMax, version 13).
func ArgMax(x *tensor.Tensor, o ArgMaxOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"ArgMax", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return argMaxOp.run(opt, op, x, int64(o.Axis), !o.DropAxis, o.SelectLastIndex)
}

// What ArgMax and ArgMin share: axis, keepdims and select_last_index, the
// types, the int64 output and the run of the engine (ops/internal/reduce).
//
// Under the SONNX profile ArgMax (based on ArgMax 13; ArgMin is not in the
// profile's operator set) also checks, with the ids of the working group's
// informal specification (safety-related-profile/sonnx/ops/spec/informal/
// argmax/argmax.md in onnx/working-groups):
//
//	[R1] [R2] [R3]      axis, keepdims and select_last_index are given
//	axis [C1]           axis >= 0 ([R4], transient)
//	axis [C2]           axis < rank
//	keepdims [C1], select_last_index [C1]  0 or 1
//	X [C2]              the axis is not empty ([R5])
//	TYPES               the integers, float16, float, double (no bfloat16)
//
// Its NaN rule (the first NaN wins, the last with select_last_index) is
// this implementation's in both profiles.

// argOperator is ArgMax (max) or ArgMin.
type argOperator struct {
	name string
	max  bool
}

func registerArg(a argOperator) {
	register(a.name, []int{1, 11, 12, 13}, [2]int{1, 1}, [2]int{1, 1}, a.node)
	declareAttrs(a.name,
		AttrSpec{Name: "axis", Type: AttrInt},
		AttrSpec{Name: "keepdims", Type: AttrInt},
		AttrSpec{Name: "select_last_index", Type: AttrInt, From: 12})
}

func (a argOperator) node(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	sonnx := a.max && opt.orDefault().Profile == ProfileSONNX
	if sonnx {
		// ArgMax [R1]-[R3]: no default values.
		for i, name := range []string{"axis", "keepdims", "select_last_index"} {
			if !n.Has(name) {
				return nil, op.errorf(fmt.Sprintf("R%d", i+1), "attribute %s must be given explicitly in the profile", name)
			}
		}
	}
	axis, err := n.Int("axis", 0)
	if err != nil {
		return nil, err
	}
	if n.Version < 12 && n.Has("select_last_index") {
		return nil, op.errorf("attribute", "attribute select_last_index is not defined in version %d", n.Version)
	}
	flags, err := argFlags(n, sonnx)
	if err != nil {
		return nil, err
	}
	y, err := a.run(opt, op, x, axis, flags[0] == 1, flags[1] == 1)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// reductionRuleID is the id of a rule: its ONNX name, or under the SONNX profile
// the id the working group's specification gives it.
func reductionRuleID(sonnx bool, onnx, id string) string {
	if sonnx {
		return id
	}
	return onnx
}

// argTypeOK reports whether a version of ArgMax and ArgMin accepts dt.
func argTypeOK(version int, dt tensor.DataType) bool {
	switch dt {
	case tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.Int8, tensor.Int16, tensor.Int32,
		tensor.Int64, tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.BFloat16:
		return version >= 13
	}
	return false
}

// argOutputShape checks the axis and returns the output shape and the
// layout of the slices.
func argOutputShape(op opRef, shape []int, axis int64, keepdims, sonnx bool) ([]int, reduce.Layout, error) {
	r := len(shape)
	if sonnx && axis < 0 {
		return nil, reduce.Layout{}, op.errorf("axis [C1]", "axis is %d: the profile takes axis >= 0 ([R4])", axis)
	}
	k, ok := normalizeAxis(axis, r)
	if !ok {
		return nil, reduce.Layout{}, op.errorf(reductionRuleID(sonnx, "axis", "axis [C2]"), "axis %d is outside [%d, %d] (input rank %d)", axis, -r, r-1, r)
	}
	if shape[k] == 0 {
		return nil, reduce.Layout{}, op.errorf(reductionRuleID(sonnx, "axis", "X [C2]"), "axis %d has length 0: no element to take the index of", k)
	}
	l := reduce.Layout{Outer: 1, N: shape[k], Inner: 1}
	out := []int{}
	for i, d := range shape {
		switch {
		case i < k:
			l.Outer *= d
		case i > k:
			l.Inner *= d
		}
		switch {
		case i != k:
			out = append(out, d)
		case keepdims:
			out = append(out, 1)
		}
	}
	return out, l, nil
}

// run checks x and the attributes and returns the indices.
func (a argOperator) run(opt *Options, op opRef, x *tensor.Tensor, axis int64, keepdims, last bool) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	sonnx := a.max && opt.Profile == ProfileSONNX
	if !argTypeOK(op.version, x.DataType()) {
		return nil, op.errorf("type", "data is %v, which version %d does not accept", x.DataType(), op.version)
	}
	if sonnx && x.DataType() == tensor.BFloat16 {
		return nil, op.errorf("TYPES", "X is bfloat16; the profile allows the integers of 8 to 64 bits, float16, float and double")
	}
	shape, l, err := argOutputShape(op, x.Shape(), axis, keepdims, sonnx)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, tensor.Int64, shape)
	if err != nil {
		return nil, err
	}
	idx := asElems[int64](y.Bytes())
	par := reduceParallel(opt, op)
	switch reduceComputeType(x.DataType()) {
	case tensor.Float:
		err = argAs[float32](opt, op, l, x, idx, a.max, last, par)
	case tensor.Double:
		err = argAs[float64](opt, op, l, x, idx, a.max, last, par)
	case tensor.Int8:
		err = argAs[int8](opt, op, l, x, idx, a.max, last, par)
	case tensor.Uint8:
		err = argAs[uint8](opt, op, l, x, idx, a.max, last, par)
	case tensor.Int16:
		err = argAs[int16](opt, op, l, x, idx, a.max, last, par)
	case tensor.Uint16:
		err = argAs[uint16](opt, op, l, x, idx, a.max, last, par)
	case tensor.Int32:
		err = argAs[int32](opt, op, l, x, idx, a.max, last, par)
	case tensor.Uint32:
		err = argAs[uint32](opt, op, l, x, idx, a.max, last, par)
	case tensor.Int64:
		err = argAs[int64](opt, op, l, x, idx, a.max, last, par)
	case tensor.Uint64:
		err = argAs[uint64](opt, op, l, x, idx, a.max, last, par)
	}
	if err != nil {
		return nil, err
	}
	return y, nil
}

func argAs[A reduce.Number](opt *Options, op opRef, l reduce.Layout, x *tensor.Tensor, idx []int64, max, last bool, par reduce.Parallel) error {
	xs, err := reduceLoad[A](opt, op, x)
	if err != nil {
		return err
	}
	if l.Outputs() == 0 {
		return nil
	}
	if l.Inner > 1 { // the best element of each column, on each core
		var zero A
		if err := opt.scratch(op, "the column bests", mulCounts(l.Inner, opt.threads()), int(unsafe.Sizeof(zero))); err != nil {
			return err
		}
	}
	return reduce.RunArg(l, xs, idx, max, last, par)
}

// argFlags reads keepdims and select_last_index (defaults 1 and 0), each 0
// or 1: under SONNX keepdims [C1] and select_last_index [C1].
func argFlags(n *Node, sonnx bool) ([2]int64, error) {
	op := n.op()
	var flags [2]int64
	for i, name := range []string{"keepdims", "select_last_index"} {
		v, err := n.Int(name, int64(1-i)) // defaults 1 and 0
		if err != nil {
			return flags, err
		}
		if v != 0 && v != 1 {
			id := [2]string{"keepdims [C1]", "select_last_index [C1]"}[i]
			return flags, op.errorf(reductionRuleID(sonnx, name, id), "%s is %d, expected 0 or 1", name, v)
		}
		flags[i] = v
	}
	return flags, nil
}
