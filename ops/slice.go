// Slice takes a strided window of a tensor along some of its axes, as numpy's
// x[start:end:step]: for each axis listed, the output keeps the elements
// start, start+step, ... stopping before end; the other axes are kept whole.
//
// Versions: 1 takes starts, ends and axes as attributes (no steps); 10 takes
// them as inputs (starts, ends, optional axes and steps, all int32 or all
// int64) and adds steps, which may be negative; 11 lets axes be negative, in
// [-r, r-1] (before: [0, r-1]); 13 adds bfloat16, same semantics.
//
// ONNX rules: starts and ends (and axes and steps, when given) have one
// length; [axes] every axis exists and appears once; [steps] no step is 0;
// [attribute] from version 10 a node sets no starts, ends or axes attribute
// (the ONNX checker refuses them).
// Starts and ends are then clamped, never refused: a negative value counts
// from the end of the axis (dim is added once), and the result is clamped to
// [0, dim] for a positive step, to [0, dim-1] (start) and [-1, dim-1] (end)
// for a negative one, so INT64_MAX and INT64_MIN mean "to the end". An
// empty range gives a zero-sized output. This is numpy's slicing except in
// one case, where we follow the specification's words, as onnxruntime and
// ONNX shape inference do: with a negative step, a start that is still
// negative once dim is added becomes 0, not "before the first element"
// (x[-4::-2] of 2 elements is [x[0]]; numpy, and so the ONNX reference
// evaluator, gives an empty slice).
//
// ProfileSONNX applies the SONNX Slice specification (based on ONNX 13)
// instead of clamping, with its ids:
//
//	[R1] axes is given; [R3] steps is given; [R10] starts, ends, axes and
//	steps have one integer type; X [C3] rank >= 1; X [C1] (and [R2]) every
//	axis of X is listed: len(starts) = len(ends) = len(axes) = len(steps) = r;
//	A [C2] axes in [-r, r-1]; A [C3] unique after normalisation; K [C2] no
//	step is 0; S [C2] start in [-d, d-1] ([R8]); E [C2] end in [-d, d] for a
//	positive step, [-d-1, d-1] for a negative one; [R6]/[R7] (transient) a
//	positive step needs start <= end, a negative one start >= end, after
//	normalisation; Y [C2] every output dimension is > 0.

package ops

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Slice", []int{1}, [2]int{1, 1}, [2]int{1, 1}, sliceNode)
	register("Slice", []int{10, 11, 13}, [2]int{3, 5}, [2]int{1, 1}, sliceNode)
}

// SliceOptions are the parameters of Slice. They are int64, as in ONNX, so
// that math.MaxInt64 and math.MinInt64 mean "to the end" on every platform.
type SliceOptions struct {
	// Starts and Ends bound the window on each axis of Axes: Ends is
	// exclusive; negative values count from the end; out-of-range values
	// are clamped.
	Starts, Ends []int64
	// Axes lists the axes that Starts and Ends apply to; nil means
	// 0, 1, ..., len(Starts)-1. Negative values count from the end.
	Axes []int64
	// Steps is the stride on each axis of Axes (negative walks backwards,
	// 0 is an error); nil means 1 on every axis.
	Steps []int64
}

// Slice returns the window of x that o describes (ONNX Slice, version 13).
// The output is a new tensor; x is not modified.
func Slice(x *tensor.Tensor, o SliceOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Slice", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return slice(opt, op, x, sliceParams(o))
}

// sliceParams are Slice's parameters; Axes and Steps are nil when not given.
type sliceParams SliceOptions

func sliceNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	sonnx := opt.orDefault().Profile == ProfileSONNX
	x, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	var p sliceParams
	if n.Version < 10 {
		var ok bool
		if p.Starts, ok, err = n.Ints("starts"); err != nil {
			return nil, err
		} else if !ok {
			return nil, op.errorf("starts", "attribute starts is required")
		}
		if p.Ends, ok, err = n.Ints("ends"); err != nil {
			return nil, err
		} else if !ok {
			return nil, op.errorf("ends", "attribute ends is required")
		}
		if p.Axes, _, err = n.Ints("axes"); err != nil {
			return nil, err
		} else if len(p.Axes) == 0 {
			p.Axes = nil // an empty list means "not given" (ONNX reference)
		}
		if sonnx && p.Axes == nil {
			return nil, op.errorf("R1", "axes must be given")
		}
		if sonnx {
			return nil, op.errorf("R3", "steps must be given, and Slice-1 has no steps")
		}
	} else {
		for _, name := range []string{"starts", "ends", "axes"} {
			if n.Has(name) {
				return nil, op.errorf("attribute", "attribute %s exists in version 1 only; from 10 %s is an input", name, name)
			}
		}
		names := [...]string{"starts", "ends", "axes", "steps"}
		var ind [4]*tensor.Tensor
		for i, name := range names {
			if i < 2 {
				ind[i], err = n.requiredInput(in, i+1, name)
			} else {
				ind[i], err = n.tensorInput(in, i+1)
			}
			if err != nil {
				return nil, err
			}
		}
		if sonnx && ind[2] == nil {
			return nil, op.errorf("R1", "axes must be given")
		}
		if sonnx && ind[3] == nil {
			return nil, op.errorf("R3", "steps must be given")
		}
		vals := [4]*[]int64{&p.Starts, &p.Ends, &p.Axes, &p.Steps}
		for i, t := range ind {
			if t == nil {
				continue
			}
			rule := "Tind"
			if sonnx {
				rule = "R10"
			}
			if t.DataType() != tensor.Int32 && t.DataType() != tensor.Int64 {
				return nil, op.errorf(rule, "%s must be int32 or int64, got %v", names[i], t.DataType())
			}
			if t.DataType() != ind[0].DataType() {
				return nil, op.errorf(rule, "%s is %v but starts is %v: they must have one type", names[i], t.DataType(), ind[0].DataType())
			}
			if t.Rank() != 1 {
				return nil, op.errorf(names[i], "%s must be a 1-D tensor, got shape %v", names[i], t.Shape())
			}
			if *vals[i], err = int64sOf(t); err != nil {
				return nil, op.errorf(rule, "%s: %v", names[i], err)
			}
		}
	}
	y, err := slice(opt, op, x, p)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// sliceWindow is the window Slice copies: for each axis of the input, the
// first index, the step and the output dimension.
type sliceWindow struct {
	start, step, shape []int
}

// sliceShape checks the parameters against the input shape and returns the
// window; its shape is the output shape.
func sliceShape(opt *Options, op opRef, shape []int, p sliceParams) (sliceWindow, error) {
	sonnx := opt.orDefault().Profile == ProfileSONNX
	r := len(shape)
	n := len(p.Starts)
	rule := func(onnx, profile string) string {
		if sonnx {
			return profile
		}
		return onnx
	}
	if sonnx && r == 0 {
		return sliceWindow{}, op.errorf("X [C3]", "X has rank 0: slicing needs rank 1 or more")
	}
	if len(p.Ends) != n || (p.Axes != nil && len(p.Axes) != n) || (p.Steps != nil && len(p.Steps) != n) {
		return sliceWindow{}, op.errorf(rule("lengths", "X [C1]"), "starts, ends, axes and steps have lengths %d, %d, %s and %s: they must be equal",
			n, len(p.Ends), lengthOrAbsent(p.Axes), lengthOrAbsent(p.Steps))
	}
	if sonnx && n != r {
		return sliceWindow{}, op.errorf("X [C1]", "starts, ends, axes and steps list %d axes, but X has rank %d: every axis must be listed ([R2])", n, r)
	}
	w := sliceWindow{start: make([]int, r), step: make([]int, r), shape: append([]int{}, shape...)}
	for k := range w.step {
		w.step[k] = 1
	}
	// axes: in range and unique.
	lo := int64(-r)
	if op.version < 11 {
		lo = 0
	}
	axes := make([]int, n)
	seen := make([]int, r) // 1 + the position in axes that named each axis
	for i := range axes {
		a := int64(i)
		if p.Axes != nil {
			a = p.Axes[i]
		}
		if a < lo || a >= int64(r) {
			return sliceWindow{}, op.errorf(rule("axes", "axes [C2]"), "axes[%d] = %d is outside [%d, %d] for an input of rank %d", i, a, lo, r-1, r)
		}
		if a < 0 {
			a += int64(r)
		}
		if j := seen[a]; j != 0 {
			return sliceWindow{}, op.errorf(rule("axes", "axes [C3]"), "axis %d is listed twice (axes[%d] and axes[%d])", a, j-1, i)
		}
		seen[a] = i + 1
		axes[i] = int(a)
	}
	// steps: never 0.
	for i := range axes {
		if p.Steps != nil && p.Steps[i] == 0 {
			return sliceWindow{}, op.errorf(rule("steps", "steps [C2]"), "steps[%d] is 0", i)
		}
	}
	for i, k := range axes {
		step := int64(1)
		if p.Steps != nil {
			step = p.Steps[i]
		}
		var start, count int64
		var err error
		if sonnx {
			start, count, err = sliceAxisStrict(op, i, int64(shape[k]), p.Starts[i], p.Ends[i], step)
		} else {
			start, count = sliceAxisClamped(int64(shape[k]), p.Starts[i], p.Ends[i], step)
		}
		if err != nil {
			return sliceWindow{}, err
		}
		w.start[k], w.shape[k] = int(start), int(count)
		if count > 1 {
			// |step| < dim here, so the source stride cannot overflow.
			w.step[k] = int(step)
		}
	}
	return w, nil
}

func lengthOrAbsent(v []int64) string {
	if v == nil {
		return "absent"
	}
	return fmt.Sprint(len(v))
}

// sliceAxisClamped applies ONNX's rule on one axis of dimension d: negative
// start and end count from the end, then both are clamped. It returns the
// first index and the number of elements taken.
func sliceAxisClamped(d, start, end, step int64) (int64, int64) {
	if d == 0 {
		return 0, 0
	}
	if start < 0 {
		start += d
	}
	if end < 0 {
		end += d
	}
	if step > 0 {
		start = min(max(start, 0), d)
		end = min(max(end, 0), d)
	} else {
		start = min(max(start, 0), d-1)
		end = min(max(end, -1), d-1)
	}
	return start, stepCount(start, end, step)
}

// stepCount returns how many of start, start+step, ... lie before end:
// ceil((end-start)/step), or 0. start and end are within [-1, d], so only
// the step can be extreme.
func stepCount(start, end, step int64) int64 {
	span, mag := end-start, uint64(step)
	if step < 0 {
		span, mag = start-end, uint64(-(step+1))+1 // no overflow at MinInt64
	}
	if span <= 0 {
		return 0
	}
	q, rem := uint64(span)/mag, uint64(span)%mag
	if rem != 0 {
		q++
	}
	return int64(q)
}

// sliceAxisStrict applies the SONNX rule on the i-th listed axis, of
// dimension d: no clamping, every value in its domain.
func sliceAxisStrict(op opRef, i int, d, start, end, step int64) (int64, int64, error) {
	if start < -d || start > d-1 {
		return 0, 0, op.errorf("starts [C2]", "starts[%d] = %d is outside [%d, %d] (dimension %d; the profile does not clamp, [R8])", i, start, -d, d-1, d)
	}
	elo, ehi := -d, d
	if step < 0 {
		elo, ehi = -d-1, d-1
	}
	if end < elo || end > ehi {
		return 0, 0, op.errorf("ends [C2]", "ends[%d] = %d is outside [%d, %d] (dimension %d, step %d; the profile does not clamp)", i, end, elo, ehi, d, step)
	}
	if start < 0 {
		start += d
	}
	if end < 0 {
		end += d
	}
	if step > 0 && start > end {
		return 0, 0, op.errorf("R6", "axis %d: step %d > 0 needs start <= end, got %d > %d after normalisation", i, step, start, end)
	}
	if step < 0 && start < end {
		return 0, 0, op.errorf("R7", "axis %d: step %d < 0 needs start >= end, got %d < %d after normalisation", i, step, start, end)
	}
	count := stepCount(start, end, step)
	if count <= 0 {
		return 0, 0, op.errorf("Y [C2]", "axis %d: the output dimension is 0 (start %d, end %d): the profile needs it > 0", i, start, end)
	}
	return start, count, nil
}

func slice(opt *Options, op opRef, x *tensor.Tensor, p sliceParams) (*tensor.Tensor, error) {
	if err := checkInput(op, "data", x); err != nil {
		return nil, err
	}
	if err := opt.positiveDims(op, "input data", x.Shape()); err != nil {
		return nil, err
	}
	w, err := sliceShape(opt, op, x.Shape(), p)
	if err != nil {
		return nil, err
	}
	y, err := opt.orDefault().newOverwritten(op, x.DataType(), w.shape)
	if err != nil {
		return nil, err
	}
	if err := movement.BoxPlan(w.shape, x.Shape(), w.start, w.step, w.shape, nil).Run(opt.moves(), y, x); err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}
