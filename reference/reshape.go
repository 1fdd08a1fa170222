// Reshape (ONNX Reshape 1, 5, 13, 14, 19, 21, 23, 24, 25): the input's
// elements, in row-major order, under a new shape S. 1 takes S as an
// attribute, 5 on as an int64 input; 14 adds allowzero (earlier versions
// refuse it, [attribute]); the later versions widen the element types. The
// rules of ONNX Reshape 25 (the SONNX specification gives them no ids):
//
//	[dim]                no entry of S below -1
//	[copy-zero]          with allowzero=0, S[i]=0 copies dim i of X, so i < rank(X)
//	[minus-one]          at most one -1, inferred so that the element count is kept
//	[zero-and-minus-one] with allowzero=1, no 0 beside a -1
//	[infer]              the -1 is inferable: the other dims do not multiply to 0
//	[count]              the output has as many elements as X
//
// Under SONNX (reshape.md) the ids are the specification's: allowzero
// [C1] allowzero is 0 or 1; allowzero [C2] the copy-zero rule; allowzero
// [C3] S's domain (every entry >= -1, no 0 beside a -1 with allowzero=1,
// and a -1 refused when X has a zero dimension); S [C1] at most one -1;
// X [C1] the element count.
//
// The working group's informal specification: onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/reshape/reshape.md.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Reshape", []int{1, 5, 13, 14, 19, 21, 23, 24, 25}, reshape)
}

func reshape(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "data")
	if err != nil {
		return nil, err
	}
	var s []int
	if op.version < 5 {
		var ok bool
		if s, ok, err = intsAttr(n, "shape", "shape"); err != nil {
			return nil, err
		} else if !ok {
			return nil, op.errorf("shape", "attribute shape is required")
		}
	} else if s, _, err = intListInput(opt, op, in, 1, "shape", "shape", true); err != nil {
		return nil, err
	}
	if op.version < 14 && n.Has("allowzero") {
		return nil, op.errorf("attribute", "attribute allowzero exists from version 14 on")
	}
	allowZero := int64(0)
	if op.version >= 14 {
		if allowZero, err = n.Int("allowzero", 0); err != nil {
			return nil, err
		}
		if sonnx(opt) && allowZero != 0 && allowZero != 1 {
			return nil, op.errorf("allowzero [C1]", "allowzero is %d, expected 0 or 1", allowZero)
		}
	}
	out, err := reshapeShape(opt, op, x.Shape(), s, allowZero == 1)
	if err != nil {
		return nil, err
	}
	// [DIMS], after the shape's own rules, which name a -1 beside an
	// empty input.
	if err := positiveDims(opt, op, "input data", x.Shape()); err != nil {
		return nil, err
	}
	y, err := copyAs(opt, op, x, out)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// reshapeShape checks the rules in order and returns the output shape.
func reshapeShape(opt *ops.Options, op opRef, in, s []int, allowZero bool) ([]int, error) {
	out := make([]int, len(s))
	inferAt, zeroAt := -1, -1
	for i, d := range s {
		switch {
		case d < -1: // [dim]
			return nil, op.errorf("allowzero [C3]", "shape[%d] is %d; dims are >= 0, or -1 to infer", i, d)
		case d == -1: // [minus-one]
			if inferAt >= 0 {
				return nil, op.errorf("S [C1]", "shape[%d] and shape[%d] are both -1", inferAt, i)
			}
			inferAt = i
		case d == 0 && !allowZero: // [copy-zero]
			if i >= len(in) {
				return nil, op.errorf("allowzero [C2]", "shape[%d] is 0, which copies dim %d of an input of rank %d", i, i, len(in))
			}
			out[i] = in[i]
		case d == 0:
			zeroAt = i
		default:
			out[i] = d
		}
	}
	if inferAt >= 0 && zeroAt >= 0 { // [zero-and-minus-one]
		return nil, op.errorf("allowzero [C3]", "with allowzero=1, shape %v holds both 0 and -1", s)
	}
	total, err := tensor.NumElements(in)
	if err != nil {
		return nil, op.wrap("X [C1]", err, "input shape %v", in)
	}
	if inferAt >= 0 {
		if total == 0 && sonnx(opt) {
			return nil, op.errorf("allowzero [C3]", "the input %v has a zero dimension: the profile does not infer -1 from it", in)
		}
		out[inferAt] = 1
		known, err := tensor.NumElements(out)
		if err != nil {
			return nil, op.wrap("X [C1]", err, "shape %v", s)
		}
		if known == 0 { // [infer]
			return nil, op.errorf("allowzero [C3]", "shape %v: the dims beside -1 multiply to 0", s)
		}
		if total%known != 0 { // [count]
			return nil, op.errorf("X [C1]", "cannot reshape %v to %v", in, s)
		}
		out[inferAt] = total / known
	}
	count, err := tensor.NumElements(out)
	if err != nil {
		return nil, op.wrap("X [C1]", err, "shape %v", s)
	}
	if count != total { // [count]
		return nil, op.errorf("X [C1]", "cannot reshape %v (%d elements) to %v (%d elements)", in, total, out, count)
	}
	return out, nil
}
