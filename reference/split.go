// Split (ONNX Split 1, 2, 11, 13, 18): the input cut along one axis into
// consecutive parts, one per output: part m holds the indices
// [sum_{j<m} s_j, sum_{j<=m} s_j) of the axis. The sizes s come from:
//   - 1: attribute split, or the same list as an optional second input (of
//     the data's float type); axis defaults to 0;
//   - 2, 11: attribute split only; 11 takes a negative axis;
//   - 13: an optional int64 input split;
//   - 18: or attribute num_outputs n: parts of ceil(d/n), the last what
//     remains.
//
// Without either, the axis is cut into as many equal parts as the node has
// outputs (which must divide it evenly before 18; from 18 the num_outputs
// rule applies, and SONNX refuses the default, GR4). The rules: [attribute]
// no attribute of another version; [axis] the axis exists; [split] one
// non-negative size per output, adding up to the dimension; [num_outputs]
// n >= 1, equal to the outputs, and no negative last part.

package reference

import (
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Split", []int{1, 2, 11, 13, 18}, split)
}

func split(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	if sonnx(opt) && !n.Has("axis") {
		return nil, op.errorf("GR4", "attribute axis must be given explicitly in the profile")
	}
	axis64, err := n.Int("axis", 0)
	if err != nil {
		return nil, err
	}
	if op.version >= 13 && n.Has("split") {
		return nil, op.errorf("attribute", "attribute split exists up to version 11")
	}
	if op.version < 18 && n.Has("num_outputs") {
		return nil, op.errorf("attribute", "attribute num_outputs exists from version 18 on")
	}
	axis, err := toInt(axis64)
	if err != nil {
		return nil, op.errorf("axis", "%v", err)
	}
	var sizes64 []int64
	if op.version < 13 {
		if a, ok, err := n.Ints("split"); err != nil {
			return nil, err
		} else if ok {
			sizes64 = a
		}
	}
	if op.version == 1 || op.version >= 13 {
		s, err := optionalInput(op, in, 1)
		if err != nil {
			return nil, err
		}
		if s != nil {
			if sizes64 != nil {
				return nil, op.errorf("split", "split is given both as an attribute and as an input")
			}
			if sizes64, err = splitSizesInput(op, s); err != nil {
				return nil, err
			}
		}
	}
	var sizes []int // nil when not given: an empty list sets nothing
	if len(sizes64) > 0 {
		if sizes, err = toInts(sizes64); err != nil {
			return nil, op.errorf("split", "%v", err)
		}
	}
	numOutputs := 0
	if n.Has("num_outputs") {
		v, err := n.Int("num_outputs", 0)
		if err != nil {
			return nil, err
		}
		if v < 1 || v > math.MaxInt32 {
			return nil, op.errorf("num_outputs", "num_outputs is %d, expected in [1, 2^31-1]", v)
		}
		numOutputs = int(v)
	}
	outputs := n.NumOutputs
	if err := positiveDims(opt, op, "input", x.Shape()); err != nil { // [DIMS]
		return nil, err
	}
	// [axis]
	r := x.Rank()
	lo := -r
	if op.version < 11 {
		lo = 0
	}
	if r == 0 {
		return nil, op.errorf("axis", "a rank-0 input has no axis to split")
	}
	k, ok := normalizeAxis(axis, lo, r)
	if !ok {
		return nil, op.errorf("axis", "axis %d is outside [%d, %d] for an input of rank %d", axis, lo, r-1, r)
	}
	d := x.Shape()[k]
	switch {
	case sizes != nil: // [split]
		if numOutputs != 0 {
			return nil, op.errorf("split", "split and num_outputs are both given")
		}
		if outputs != 0 && len(sizes) != outputs {
			return nil, op.errorf("split", "split has %d sizes but the node has %d outputs", len(sizes), outputs)
		}
		sum := 0
		for i, s := range sizes {
			if s < 0 {
				return nil, op.errorf("split", "split[%d] = %d is negative", i, s)
			}
			if s > d-sum {
				return nil, op.errorf("split", "the sizes %v add up to more than dimension %d (%d)", sizes, k, d)
			}
			sum += s
		}
		if sum != d {
			return nil, op.errorf("split", "the sizes %v add up to %d, not to dimension %d (%d)", sizes, sum, k, d)
		}
	case numOutputs != 0: // [num_outputs]
		if outputs != 0 && numOutputs != outputs {
			return nil, op.errorf("num_outputs", "num_outputs is %d but the node has %d outputs", numOutputs, outputs)
		}
		if sizes, err = unevenParts(opt, op, d, numOutputs); err != nil {
			return nil, err
		}
	case outputs == 0:
		return nil, op.errorf("num_outputs", "neither split nor num_outputs is given, and the number of outputs is unknown")
	case op.version >= 18:
		if sonnx(opt) {
			return nil, op.errorf("GR4", "give split or num_outputs: the profile takes no default")
		}
		if sizes, err = unevenParts(opt, op, d, outputs); err != nil {
			return nil, err
		}
	default:
		if d%outputs != 0 {
			return nil, op.errorf("split", "dimension %d (%d) does not split evenly into %d outputs", k, d, outputs)
		}
		sizes = make([]int, outputs)
		for i := range sizes {
			sizes[i] = d / outputs
		}
	}
	for i, s := range sizes { // [DIMS]
		if s == 0 && sonnx(opt) {
			return nil, op.errorf("DIMS", "output %d would have length 0 on axis %d, and the profile's tensors have positive dimensions", i, k)
		}
	}
	parts := make([]*tensor.Tensor, len(sizes))
	xStrides := stridesOf(x.Shape())
	offset := 0 // sum of the sizes of the parts before
	src := make([]int, r)
	for m, s := range sizes {
		dY := append([]int{}, x.Shape()...)
		dY[k] = s
		y, err := newTensor(opt, op, x.DataType(), dY)
		if err != nil {
			return nil, err
		}
		if err := forEachIndexPolled(opt, opOf(n), dY, 1, func(flat int, j []int) {
			copy(src, j)
			src[k] += offset
			copyElement(y, flat, x, ravel(src, xStrides))
		}); err != nil {
			return nil, err
		}
		parts[m] = y
		offset += s
	}
	return values(parts...), nil
}

// splitSizesInput reads the sizes given as an input: 1-D int64 from version
// 13; in version 1 of the data's (float) type, holding whole numbers.
func splitSizesInput(op opRef, s *tensor.Tensor) ([]int64, error) {
	if s.Rank() != 1 {
		return nil, op.errorf("split", "split must be a 1-D tensor, got shape %v", s.Shape())
	}
	if op.version >= 13 {
		if s.DataType() != tensor.Int64 {
			return nil, op.errorf("split", "split must be int64, got %v", s.DataType())
		}
		return int64sOf(s)
	}
	if v, err := int64sOf(s); err == nil {
		return v, nil
	}
	f, err := s.Float64s()
	if err != nil {
		return nil, op.errorf("split", "split of type %v holds no sizes", s.DataType())
	}
	out := make([]int64, len(f))
	for i, v := range f {
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			return nil, op.errorf("split", "split[%d] = %v is not a whole number", i, v)
		}
		out[i] = int64(v)
	}
	return out, nil
}

// unevenParts applies version 18's rule: n parts of ceil(d/n), the last one
// what remains. Each part costs a tensor header even when empty: their
// number is bounded by the size limit as if each took 64 bytes.
func unevenParts(opt *ops.Options, op opRef, d, n int) ([]int, error) {
	if int64(n) > opt.TensorLimit()/64 {
		return nil, &ops.Error{Op: op.name, Version: op.version, Rule: "size",
			Msg: fmt.Sprintf("%d outputs are more than the size limit allows", n), Err: ops.ErrLimit}
	}
	chunk := d / n
	if d%n != 0 {
		chunk++
	}
	last := d - chunk*(n-1)
	if last < 0 {
		return nil, op.errorf("num_outputs", "dimension %d cannot be cut into %d parts of %d with a smaller last part", d, n, chunk)
	}
	sizes := make([]int, n)
	for i := range sizes {
		sizes[i] = chunk
	}
	sizes[n-1] = last
	return sizes, nil
}
