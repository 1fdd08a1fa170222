// OptionalHasElement tells whether an optional holds a value, as a bool
// scalar.
//
// Versions: 15 (an optional input, required) and 18 (the input may also be
// a tensor or a sequence, which count as present, or be absent, which
// counts as empty).
//
// Rules: [input] version 15 takes an optional.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("OptionalHasElement", []int{15, 18}, [2]int{0, 1}, [2]int{1, 1}, optionalHasElementNode)
	declareAttrs("OptionalHasElement")
}

func optionalHasElementNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var v tensor.Value
	if len(in) > 0 {
		v = in[0]
	}
	if err := checkValue(n.op(), "input", v); err != nil {
		return nil, err
	}
	o, isOptional := v.(*tensor.Optional)
	if n.Version < 18 && (v == nil || !isOptional) {
		return nil, n.op().errorf("input", "OptionalHasElement-%d takes an optional input", n.Version)
	}
	has := v != nil && (!isOptional || o.Value != nil)
	return values(tensor.Scalar(has)), nil
}
