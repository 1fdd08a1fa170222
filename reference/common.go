package reference

// What every kernel of the package shares: its errors, reading inputs and
// attributes, and fresh output tensors. None of it moves more than one
// element at a time.

import (
	"errors"
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// opRef names one version of an operator; its errors are *ops.Error with
// the same Op, Version and Rule the fast kernel reports.
type opRef struct {
	name    string
	version int
}

func opOf(n *ops.Node) opRef { return opRef{n.OpType, n.Version} }

func (o opRef) errorf(rule, format string, args ...any) error {
	return &ops.Error{Op: o.name, Version: o.version, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

func (o opRef) wrap(rule string, cause error, format string, args ...any) error {
	return &ops.Error{Op: o.name, Version: o.version, Rule: rule, Msg: fmt.Sprintf(format, args...) + ": " + cause.Error(), Err: cause}
}

// sonnx reports whether the run follows the SONNX profile.
func sonnx(opt *ops.Options) bool { return opt != nil && opt.Profile == ops.ProfileSONNX }

// cancelled returns the [cancelled] error of a run whose context is done,
// for the kernels that compute (Resize, MaxPool) to check now and then.
func cancelled(opt *ops.Options, op opRef) error {
	err := opt.Context().Err()
	if err == nil {
		return nil
	}
	return op.wrap("cancelled", err, "run stopped")
}

// A poll is a kernel loop's countdown to its next look at the run's
// context: stop(work) counts work (elements, or multiply-adds) and
// reports, every cancelEvery of it, whether the run is cancelled; err is
// then the kernel's [cancelled] error. A nil poll never stops.
type poll struct {
	opt  *ops.Options
	op   opRef
	work int
	err  error
}

// newPoll returns the countdown of one loop, which looks at the run
// before its first step.
func newPoll(opt *ops.Options, op opRef) *poll { return &poll{opt: opt, op: op, work: cancelEvery} }

func (p *poll) stop(work int) bool {
	if p == nil {
		return false
	}
	if p.work += work; p.work >= cancelEvery && p.err == nil {
		p.work, p.err = 0, cancelled(p.opt, p.op)
	}
	return p.err != nil
}

// optionalInput returns input i as a tensor, nil when it is absent.
func optionalInput(op opRef, in []tensor.Value, i int) (*tensor.Tensor, error) {
	if i >= len(in) || in[i] == nil {
		return nil, nil
	}
	t, ok := in[i].(*tensor.Tensor)
	if !ok {
		return nil, op.errorf("input", "input %d is %s, expected a tensor", i, in[i].Describe())
	}
	if t == nil {
		return nil, nil
	}
	return t, nil
}

// requiredInput is optionalInput for an input the operator cannot do without.
func requiredInput(op opRef, in []tensor.Value, i int, name string) (*tensor.Tensor, error) {
	t, err := optionalInput(op, in, i)
	if err == nil && t == nil {
		err = op.errorf("input", "required input %s (#%d) is missing", name, i)
	}
	return t, err
}

// toInt converts an int64 read from a node to int, failing where int is
// narrower and v does not fit.
func toInt(v int64) (int, error) {
	if v > math.MaxInt || v < math.MinInt {
		return 0, fmt.Errorf("%d does not fit in an int on this platform", v)
	}
	return int(v), nil
}

func toInts(v []int64) ([]int, error) {
	out := make([]int, len(v))
	for i, x := range v {
		n, err := toInt(x)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// intAttr reads int attribute name, def when absent; rule names the rule
// a value out of int's range breaks.
func intAttr(n *ops.Node, name string, def int, rule string) (int, error) {
	v64, err := n.Int(name, int64(def))
	if err != nil {
		return 0, err
	}
	v, err := toInt(v64)
	if err != nil {
		return 0, opOf(n).errorf(rule, "attribute %s: %v", name, err)
	}
	return v, nil
}

// intsAttr reads ints attribute name; ok is false when it is absent.
func intsAttr(n *ops.Node, name, rule string) (v []int, ok bool, err error) {
	v64, ok, err := n.Ints(name)
	if err != nil || !ok {
		return nil, ok, err
	}
	if v, err = toInts(v64); err != nil {
		return nil, true, opOf(n).errorf(rule, "attribute %s: %v", name, err)
	}
	return v, true, nil
}

// intListInput reads input i, a 1-D int64 tensor standing for a list of
// integers (a shape, axes, repeats). A rank-0 tensor is a list of one under
// ONNX rules and refused under SONNX. present is false when an optional
// input is absent; rule names the rule a malformed input breaks.
func intListInput(opt *ops.Options, op opRef, in []tensor.Value, i int, name, rule string, required bool) (v []int, present bool, err error) {
	var t *tensor.Tensor
	if required {
		t, err = requiredInput(op, in, i, name)
	} else {
		t, err = optionalInput(op, in, i)
	}
	if err != nil || t == nil {
		return nil, false, err
	}
	if t.DataType() != tensor.Int64 {
		return nil, true, op.errorf(rule, "%s must be int64, got %v", name, t.DataType())
	}
	if t.Rank() > 1 || (sonnx(opt) && t.Rank() != 1) {
		return nil, true, op.errorf(rule, "%s must be a 1-D tensor, got shape %v", name, t.Shape())
	}
	v64, err := tensor.ToSlice[int64](t)
	if err != nil {
		return nil, true, op.wrap(rule, err, "%s", name)
	}
	if v, err = toInts(v64); err != nil {
		return nil, true, op.errorf(rule, "%s: %v", name, err)
	}
	return v, true, nil
}

// normalizeAxis maps axis in [lo, rank-1] (lo is -rank, or 0 where
// negative axes are refused) to [0, rank-1]; ok is false outside.
func normalizeAxis(axis, lo, rank int) (int, bool) {
	if axis < lo || axis >= rank {
		return 0, false
	}
	if axis < 0 {
		axis += rank
	}
	return axis, true
}

// normalizeAxes maps every axis of a list into [0, rank-1], in order: an
// axis outside [lo, rank-1] breaks rangeRule, one named twice repeatRule.
func normalizeAxes(op opRef, axes []int, rank int, nonNegative bool, rangeRule, repeatRule, rankOf string) ([]int, error) {
	lo := -rank
	if nonNegative {
		lo = 0
	}
	out := make([]int, len(axes))
	for i, a := range axes {
		k, ok := normalizeAxis(a, lo, rank)
		if !ok {
			return nil, op.errorf(rangeRule, "axis %d is outside [%d, %d] (%s rank %d)", a, lo, rank-1, rankOf, rank)
		}
		for j := 0; j < i; j++ {
			if out[j] == k {
				return nil, op.errorf(repeatRule, "axis %d designated twice (%d and %d)", k, axes[j], a)
			}
		}
		out[i] = k
	}
	return out, nil
}

// checkSize returns the [size] error of a tensor of type dt and shape
// that would be impossible or larger than the run's limit (opt.TensorLimit).
func checkSize(opt *ops.Options, op opRef, dt tensor.DataType, shape []int) error {
	n, err := tensor.NumElements(shape)
	if err != nil {
		return op.wrap("size", err, "output of shape %v", shape)
	}
	per := int64(dt.Size())
	if dt == tensor.String {
		per = 16 // a string header; the strings themselves are shared
	}
	limit := opt.TensorLimit()
	if per > 0 && int64(n) > limit/per {
		return &ops.Error{Op: op.name, Version: op.version, Rule: "size",
			Msg: fmt.Sprintf("output %v of shape %v would take %d elements of %d bytes, above the limit of %d bytes", dt, shape, n, per, limit),
			Err: ops.ErrLimit}
	}
	return nil
}

// newTensor returns a fresh zero-filled tensor after checkSize, having told
// opt.Charge of its bytes. The reference engine never takes storage from
// a run's allocator (a graph.Pool).
func newTensor(opt *ops.Options, op opRef, dt tensor.DataType, shape []int) (*tensor.Tensor, error) {
	if err := checkSize(opt, op, dt, shape); err != nil {
		return nil, err
	}
	n, _ := tensor.NumElements(shape)
	per := int64(dt.Size())
	if dt == tensor.String {
		per = 16
	}
	if n > 0 {
		if err := opt.Charge(int64(n) * per); err != nil {
			return nil, &ops.Error{Op: op.name, Version: op.version, Rule: "size",
				Msg: fmt.Sprintf("output %v of %d bytes: %v", dt, int64(n)*per, err), Err: errors.Join(ops.ErrLimit, err)}
		}
	}
	y, err := tensor.New(dt, shape...)
	if err != nil {
		return nil, op.wrap("size", err, "output of shape %v", shape)
	}
	return y, nil
}

// chargeScratch checks a kernel's scratch of count elements of size bytes
// each (converted copies of its inputs, intermediate sums, tables) against
// the per-tensor cap and tells the run's budget of it, before the kernel
// allocates it: the reference engine's temporaries count against the same
// caps as the fast engine's. what names the scratch in the error.
func chargeScratch(opt *ops.Options, op opRef, what string, count, size int) error {
	limit := opt.TensorLimit()
	if count < 0 || size < 0 || (size > 0 && int64(count) > limit/int64(size)) {
		return &ops.Error{Op: op.name, Version: op.version, Rule: "size",
			Msg: fmt.Sprintf("%s would take %d elements of %d bytes, above the limit of %d bytes", what, count, size, limit),
			Err: ops.ErrLimit}
	}
	if err := opt.Charge(int64(count) * int64(size)); err != nil {
		return &ops.Error{Op: op.name, Version: op.version, Rule: "size",
			Msg: fmt.Sprintf("%s of %d bytes: %v", what, int64(count)*int64(size), err), Err: errors.Join(ops.ErrLimit, err)}
	}
	return nil
}

// chargeIndices charges the int64 copy of an index tensor that the
// indexing kernels read (int64sOf) before they make it.
func chargeIndices(opt *ops.Options, op opRef, indices *tensor.Tensor) error {
	if indices == nil {
		return nil
	}
	return chargeScratch(opt, op, "the indices as int64", indices.Len(), 8)
}

// inputElements is the number of elements of a node's input tensors: what
// a kernel that converts every input to float64 copies.
func inputElements(in []tensor.Value) int {
	n := 0
	for _, v := range in {
		if t, ok := v.(*tensor.Tensor); ok && t != nil {
			n += t.Len()
		}
	}
	return n
}

// forEachIndexPolled calls f with each index of shape in row-major order,
// as forEachIndex does, counting work steps for each (the elements or
// multiply-adds f takes) and looking at the run every cancelEvery of
// them; it returns the run's cancellation, which ends the walk.
func forEachIndexPolled(opt *ops.Options, op opRef, shape []int, work int, f func(flat int, idx []int)) error {
	stop := newPoll(opt, op)
	forEachIndexWhile(shape, func(flat int, idx []int) bool {
		f(flat, idx)
		return !stop.stop(work)
	})
	return stop.err
}

// copyElement sets element yi of y (flat, row-major) to element xi of x, a
// tensor of the same type: by its bytes, or the string itself.
func copyElement(y *tensor.Tensor, yi int, x *tensor.Tensor, xi int) {
	if x.DataType() == tensor.String {
		y.Strings()[yi] = x.Strings()[xi]
		return
	}
	size := x.DataType().Size()
	copy(y.Bytes()[yi*size:(yi+1)*size], x.Bytes()[xi*size:(xi+1)*size])
}

// copyAs returns a fresh tensor of the given shape holding x's elements in
// row-major order: the whole of Reshape, Flatten, Squeeze and Unsqueeze
// once their output shape is known.
func copyAs(opt *ops.Options, op opRef, x *tensor.Tensor, shape []int) (*tensor.Tensor, error) {
	y, err := newTensor(opt, op, x.DataType(), shape)
	if err != nil {
		return nil, err
	}
	stop := newPoll(opt, op)
	for i := 0; i < x.Len(); i++ {
		copyElement(y, i, x, i)
		if stop.stop(1) {
			return nil, stop.err
		}
	}
	return y, nil
}

// values wraps tensors as a kernel's result.
func values(ts ...*tensor.Tensor) []tensor.Value {
	out := make([]tensor.Value, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}

// positiveDims refuses, under the SONNX profile, a tensor with a zero
// dimension (rule DIMS): every tensor of the working group's formal
// specification has positive dimensions (the invariant "positive dims" of
// the Tensor type, formal/common/libs/tensor/tensor.mlw), and the profile
// refuses what it leaves undefined. what names the tensor.
func positiveDims(opt *ops.Options, op opRef, what string, shape []int) error {
	if !sonnx(opt) {
		return nil
	}
	for k, d := range shape {
		if d <= 0 {
			return op.errorf("DIMS", "%s has shape %v: dimension %d is %d, and the profile's tensors have positive dimensions", what, shape, k, d)
		}
	}
	return nil
}

// int64sOf returns the elements of an int32 or int64 tensor as int64: the
// types ONNX gives shapes, axes and indices. Another type is an error
// wrapping tensor.ErrType (tensor.Tensor.Int64s reads every integer type).
func int64sOf(t *tensor.Tensor) ([]int64, error) {
	if t != nil && t.DataType() != tensor.Int32 && t.DataType() != tensor.Int64 {
		return nil, fmt.Errorf("%w: expected an int32 or int64 tensor, got %v", tensor.ErrType, t.DataType())
	}
	if t != nil && t.DataType() == tensor.Int32 {
		out := make([]int64, t.Len()) // one copy, not tensor's two (through float64)
		for i := range out {
			out[i] = elementAs[int64](t, i)
		}
		return out, nil
	}
	return t.Int64s()
}

// sameShapesSONNX refuses, under the SONNX profile, inputs of different
// shapes to an operator whose specification forbids broadcasting: its
// shape consistency constraint (sonnxrule.SameShape, for the element type
// dt of its data: "Tensors A, B and C shall have the same shape").
func sameShapesSONNX(opt *ops.Options, op opRef, dt tensor.DataType, names []string, in ...*tensor.Tensor) error {
	if !sonnx(opt) {
		return nil
	}
	id := sonnxrule.SameShape(op.name, dt)
	if id == "" {
		return nil
	}
	for i := 1; i < len(in); i++ {
		if !tensor.SameShape(in[0].Shape(), in[i].Shape()) {
			return op.errorf(id, "%s has shape %v and %s %v: the profile does not broadcast, the inputs have one shape",
				names[0], in[0].Shape(), names[i], in[i].Shape())
		}
	}
	return nil
}
