// Slice (ONNX Slice 1, 10, 11, 13): a strided window of the input, as
// numpy's x[start:end:step] on each listed axis, the other axes whole:
// Y[j] = X[i] with i_k = start_k + j_k*step_k. 1 takes starts, ends and axes
// as attributes (no steps); 10 takes them as inputs (all int32 or all int64)
// and adds steps; 11 takes negative axes; 13 adds bfloat16.
//
// ONNX rules, in order: [lengths] starts, ends (and axes, steps) have one
// length; [axes] every axis in range and listed once; [steps] no step is 0.
// starts and ends are then clamped: a negative one counts from the end
// (dim added once), then both go into [0, dim] for a positive step, start
// into [0, dim-1] and end into [-1, dim-1] for a negative one.
//
// Under SONNX, the specification (ONNX Slice 13) replaces clamping by its
// constraints, reported under these ids: [R1] axes and [R3] steps are
// given; [R10] one integer type; X [C3] rank >= 1; X [C1] every axis
// listed (len = r); axes [C2] axes in [-r, r-1]; axes [C3] unique; steps
// [C2] no zero step; starts [C2] start in [-d, d-1] ([R8]); ends [C2] end
// in [-d, d] (step > 0) or [-d-1, d-1] (step < 0); [R6]/[R7] start <= end
// for a positive step, >= for a negative one; Y [C2] every output dim > 0.
//
// The working group's informal specification: onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/slice/slice.md.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Slice", []int{1, 10, 11, 13}, slice)
}

func slice(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	strict := sonnx(opt)
	x, err := requiredInput(op, in, 0, "data")
	if err != nil {
		return nil, err
	}
	var starts, ends, axes, steps []int64 // axes and steps nil when not given
	if op.version < 10 {
		var ok bool
		if starts, ok, err = n.Ints("starts"); err != nil {
			return nil, err
		} else if !ok {
			return nil, op.errorf("starts", "attribute starts is required")
		}
		if ends, ok, err = n.Ints("ends"); err != nil {
			return nil, err
		} else if !ok {
			return nil, op.errorf("ends", "attribute ends is required")
		}
		if axes, _, err = n.Ints("axes"); err != nil {
			return nil, err
		} else if len(axes) == 0 {
			axes = nil
		}
		if strict && axes == nil {
			return nil, op.errorf("R1", "axes must be given")
		}
		if strict {
			return nil, op.errorf("R3", "steps must be given, and Slice-1 has no steps")
		}
	} else {
		for _, name := range []string{"starts", "ends", "axes"} {
			if n.Has(name) {
				return nil, op.errorf("attribute", "attribute %s exists in version 1 only", name)
			}
		}
		names := [...]string{"starts", "ends", "axes", "steps"}
		var ts [4]*tensor.Tensor
		for i, name := range names {
			if i < 2 {
				ts[i], err = requiredInput(op, in, i+1, name)
			} else {
				ts[i], err = optionalInput(op, in, i+1)
			}
			if err != nil {
				return nil, err
			}
		}
		if strict && ts[2] == nil {
			return nil, op.errorf("R1", "axes must be given")
		}
		if strict && ts[3] == nil {
			return nil, op.errorf("R3", "steps must be given")
		}
		lists := [4]*[]int64{&starts, &ends, &axes, &steps}
		typeRule := "Tind"
		if strict {
			typeRule = "R10"
		}
		for i, t := range ts {
			if t == nil {
				continue
			}
			if t.DataType() != tensor.Int32 && t.DataType() != tensor.Int64 {
				return nil, op.errorf(typeRule, "%s must be int32 or int64, got %v", names[i], t.DataType())
			}
			if t.DataType() != ts[0].DataType() {
				return nil, op.errorf(typeRule, "%s is %v but starts is %v", names[i], t.DataType(), ts[0].DataType())
			}
			if t.Rank() != 1 {
				return nil, op.errorf(names[i], "%s must be a 1-D tensor, got shape %v", names[i], t.Shape())
			}
			*lists[i], _ = int64sOf(t)
		}
	}
	rule := func(onnxRule, sonnxRule string) string {
		if strict {
			return sonnxRule
		}
		return onnxRule
	}
	if err := positiveDims(opt, op, "input data", x.Shape()); err != nil { // [DIMS]
		return nil, err
	}
	r := x.Rank()
	count := len(starts)
	if strict && r == 0 { // X [C3]
		return nil, op.errorf("X [C3]", "X has rank 0")
	}
	if len(ends) != count || (axes != nil && len(axes) != count) || (steps != nil && len(steps) != count) {
		return nil, op.errorf(rule("lengths", "X [C1]"), "starts, ends, axes and steps must have one length")
	}
	if strict && count != r { // X [C1], [R2]
		return nil, op.errorf("X [C1]", "%d axes listed, but X has rank %d: every axis must be listed ([R2])", count, r)
	}
	lo := -r
	if op.version < 11 {
		lo = 0
	}
	// [axes] / A [C2], A [C3]
	listed := make([]int, count)
	for i := range listed {
		a := int64(i)
		if axes != nil {
			a = axes[i]
		}
		if a < int64(lo) || a >= int64(r) {
			return nil, op.errorf(rule("axes", "axes [C2]"), "axes[%d] = %d is outside [%d, %d]", i, a, lo, r-1)
		}
		k := int(a)
		if k < 0 {
			k += r
		}
		for j := 0; j < i; j++ {
			if listed[j] == k {
				return nil, op.errorf(rule("axes", "axes [C3]"), "axis %d is listed twice", k)
			}
		}
		listed[i] = k
	}
	// [steps] / K [C2]
	for i := range listed {
		if steps != nil && steps[i] == 0 {
			return nil, op.errorf(rule("steps", "steps [C2]"), "steps[%d] is 0", i)
		}
	}
	first, stride, dY := make([]int, r), make([]int, r), append([]int{}, x.Shape()...)
	for k := range stride {
		stride[k] = 1
	}
	for i, k := range listed {
		step := int64(1)
		if steps != nil {
			step = steps[i]
		}
		d := int64(x.Shape()[k])
		start, end := starts[i], ends[i]
		if strict {
			if start < -d || start > d-1 { // S [C2], [R8]
				return nil, op.errorf("starts [C2]", "starts[%d] = %d is outside [%d, %d] (the profile does not clamp, [R8])", i, start, -d, d-1)
			}
			elo, ehi := -d, d
			if step < 0 {
				elo, ehi = -d-1, d-1
			}
			if end < elo || end > ehi { // E [C2]
				return nil, op.errorf("ends [C2]", "ends[%d] = %d is outside [%d, %d]", i, end, elo, ehi)
			}
		}
		if start < 0 {
			start += d
		}
		if end < 0 {
			end += d
		}
		if strict {
			if step > 0 && start > end { // [R6]
				return nil, op.errorf("R6", "axis %d: a positive step needs start <= end", i)
			}
			if step < 0 && start < end { // [R7]
				return nil, op.errorf("R7", "axis %d: a negative step needs start >= end", i)
			}
		} else if step > 0 {
			start, end = min(max(start, 0), d), min(max(end, 0), d)
		} else {
			start, end = min(max(start, 0), d-1), min(max(end, -1), d-1)
		}
		taken := elementsTaken(start, end, step)
		if d == 0 {
			start, taken = 0, 0
		}
		if strict && taken <= 0 { // Y [C2]
			return nil, op.errorf("Y [C2]", "axis %d: the output dimension is 0: the profile needs it > 0", i)
		}
		first[k], dY[k] = int(start), int(taken)
		if taken > 1 {
			stride[k] = int(step)
		}
	}
	y, err := newTensor(opt, op, x.DataType(), dY)
	if err != nil {
		return nil, err
	}
	xStrides := stridesOf(x.Shape())
	i := make([]int, r)
	if err := forEachIndexPolled(opt, opOf(n), dY, 1, func(flat int, j []int) {
		for k := range j {
			i[k] = first[k] + j[k]*stride[k]
		}
		copyElement(y, flat, x, ravel(i, xStrides))
	}); err != nil {
		return nil, err
	}
	return values(y), nil
}

// elementsTaken is how many of start, start+step, ... lie before end
// (after, for a negative step): ceil((end-start)/step), or 0. start and
// end are within [-1, d]; only the step can be extreme.
func elementsTaken(start, end, step int64) int64 {
	span, mag := end-start, uint64(step)
	if step < 0 {
		span, mag = start-end, uint64(-(step+1))+1 // no overflow at MinInt64
	}
	if span <= 0 {
		return 0
	}
	q := uint64(span) / mag
	if uint64(span)%mag != 0 {
		q++
	}
	return int64(q)
}
