// OptionalGetElement returns the value an optional holds (not a copy).
//
// Versions: 15 (an optional input) and 18 (also a tensor or a sequence,
// returned as they are).
//
// Rules: [input] version 15 takes an optional; [empty] the optional holds
// a value (ONNX: "an error if the input value is an empty optional").

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("OptionalGetElement", []int{15, 18}, [2]int{1, 1}, [2]int{1, 1}, optionalGetElementNode)
	declareAttrs("OptionalGetElement")
}

func optionalGetElementNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	if len(in) == 0 || in[0] == nil {
		return nil, n.op().errorf("input", "required input input (#0) is missing")
	}
	if err := checkValue(n.op(), "input", in[0]); err != nil {
		return nil, err
	}
	o, isOptional := in[0].(*tensor.Optional)
	switch {
	case !isOptional && n.Version < 18:
		return nil, n.op().errorf("input", "OptionalGetElement-%d takes an optional input, got %s", n.Version, in[0].Describe())
	case !isOptional:
		return []tensor.Value{in[0]}, nil
	case o.Value == nil:
		return nil, n.op().errorf("empty", "the optional is empty")
	}
	return []tensor.Value{o.Value}, nil
}
