// Reshape gives a tensor a new shape that holds the same elements in the
// same row-major order. The data is not touched: the output is a view of the
// input, made in O(rank) whatever its size.
//
// Versions: 1 takes the shape as an attribute; 5 and 13 take it as an int64
// input; 14 adds the allowzero attribute (a node of an earlier version that
// sets it is refused, rule [attribute], as the ONNX checker refuses it); 19,
// 21, 23, 24 and 25 only widen the element types. The requested shape S is
// read as ONNX Reshape 25 says, with the ids of the SONNX specification
// (reshape.md of the working group), qualified by the section that states
// each:
//
//	allowzero [C1] allowzero is 0 or 1
//	allowzero [C2] with allowzero=0, S[i]=0 copies dim i of X, so i < rank(X)
//	allowzero [C3] the domain of S: no entry below -1; with allowzero=1 no 0
//	               beside a -1; a -1 must be inferable (X has no zero
//	               dimension, the other dims do not multiply to 0)
//	S [C1]         at most one -1, inferred so that the element count is kept
//	X [C1]         the result has as many elements as X
//
// Under the SONNX profile, allowzero must be 0 or 1 (ONNX reads any value
// other than 1 as 0) and a -1 is refused when X has a zero dimension, where
// ONNX (numpy) still infers it when the other dims multiply to a non-zero.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Reshape", []int{1}, [2]int{1, 1}, [2]int{1, 1}, reshapeNode)
	register("Reshape", []int{5, 13, 14, 19, 21, 23, 24, 25}, [2]int{2, 2}, [2]int{1, 1}, reshapeNode)
}

// ReshapeOptions are the parameters of Reshape.
type ReshapeOptions struct {
	// Shape is the requested shape: 0 copies the input's dim at that index
	// (unless AllowZero), and one entry may be -1, inferred. nil or empty
	// asks for a scalar.
	Shape []int
	// AllowZero makes a 0 in Shape a dimension of size 0 (ONNX allowzero=1).
	AllowZero bool
}

// Reshape returns a view of data with the shape o.Shape (ONNX Reshape,
// version 25).
func Reshape(data *tensor.Tensor, o ReshapeOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Reshape", 25}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return reshape(opt, op, data, o.Shape, o.AllowZero)
}

func reshapeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	var shape []int
	if n.Version < 5 {
		var ok bool
		if shape, ok, err = n.intsAttr("shape", "shape"); err != nil {
			return nil, err
		} else if !ok {
			return nil, op.errorf("shape", "attribute shape is required")
		}
	} else if shape, _, err = n.int64ListInput(opt, in, 1, "shape", "shape", true); err != nil {
		return nil, err
	}
	allowZero := false
	if n.Version < 14 && n.Has("allowzero") {
		return nil, op.errorf("attribute", "attribute allowzero exists from version 14 on")
	}
	if n.Version >= 14 {
		az, err := n.Int("allowzero", 0)
		if err != nil {
			return nil, err
		}
		if opt.orDefault().Profile == ProfileSONNX && az != 0 && az != 1 {
			return nil, op.errorf("allowzero [C1]", "allowzero is %d, expected 0 or 1", az)
		}
		allowZero = az == 1
	}
	y, err := reshape(opt, op, x, shape, allowZero)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func reshape(opt *Options, op opRef, x *tensor.Tensor, shape []int, allowZero bool) (*tensor.Tensor, error) {
	if err := checkInput(op, "data", x); err != nil {
		return nil, err
	}
	out, err := reshapeShape(opt, op, x.Shape(), shape, allowZero)
	if err != nil {
		return nil, err
	}
	// After the shape's own rules, which name a -1 beside an empty input.
	if err := opt.positiveDims(op, "input data", x.Shape()); err != nil {
		return nil, err
	}
	return x.View(out...)
}

// reshapeShape checks the constraints and returns the output shape for an
// input of shape in and the requested shape.
func reshapeShape(opt *Options, op opRef, in, shape []int, allowZero bool) ([]int, error) {
	out := make([]int, len(shape))
	inferAt, zeroAt := -1, -1
	for i, d := range shape {
		switch {
		case d < -1:
			return nil, op.errorf("allowzero [C3]", "shape[%d] is %d; dims are >= 0, or -1 to infer", i, d)
		case d == -1:
			if inferAt >= 0 {
				return nil, op.errorf("S [C1]", "shape[%d] and shape[%d] are both -1; at most one dim is inferred", inferAt, i)
			}
			inferAt = i
		case d == 0 && !allowZero:
			if i >= len(in) {
				return nil, op.errorf("allowzero [C2]", "shape[%d] is 0, which copies dim %d of the input, but the input has rank %d", i, i, len(in))
			}
			out[i] = in[i]
		case d == 0:
			zeroAt = i
		default:
			out[i] = d
		}
	}
	if inferAt >= 0 && zeroAt >= 0 {
		return nil, op.errorf("allowzero [C3]", "with allowzero=1, shape %v holds both 0 (at %d) and -1 (at %d)", shape, zeroAt, inferAt)
	}
	total, err := tensor.NumElements(in)
	if err != nil {
		return nil, op.wrap("X [C1]", err, "input shape %v", in)
	}
	if inferAt >= 0 {
		if total == 0 && opt.orDefault().Profile == ProfileSONNX {
			return nil, op.errorf("allowzero [C3]", "the input %v has a zero dimension: the profile does not infer -1 from it", in)
		}
		out[inferAt] = 1
		known, err := tensor.NumElements(out)
		if err != nil {
			return nil, op.wrap("X [C1]", err, "shape %v", shape)
		}
		if known == 0 {
			return nil, op.errorf("allowzero [C3]", "shape %v: the dims beside -1 multiply to 0, so -1 is ambiguous", shape)
		}
		if total%known != 0 {
			return nil, op.errorf("X [C1]", "cannot reshape %v (%d elements) to %v: %d is not a multiple of %d", in, total, shape, total, known)
		}
		out[inferAt] = total / known
	}
	n, err := tensor.NumElements(out)
	if err != nil {
		return nil, op.wrap("X [C1]", err, "shape %v", shape)
	}
	if n != total {
		return nil, op.errorf("X [C1]", "cannot reshape %v (%d elements) to %v (%d elements)", in, total, out, n)
	}
	return out, nil
}
