// Optional wraps its input, a tensor or a sequence, as an optional value;
// without an input it makes an empty optional of the type its attribute
// type describes.
//
// Versions: 15. Rules: [input] an input or the type attribute.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Optional", []int{15}, [2]int{0, 1}, [2]int{1, 1}, optionalNode)
	declareAttrs("Optional", AttrSpec{Name: "type", Type: AttrTypeProto})
}

func optionalNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	if len(in) > 0 && in[0] != nil {
		if err := checkValue(n.op(), "input", in[0]); err != nil {
			return nil, err
		}
		if _, nested := in[0].(*tensor.Optional); nested {
			return nil, n.op().errorf("input", "an optional holds a tensor or a sequence, not another optional")
		}
		return []tensor.Value{&tensor.Optional{Value: in[0]}}, nil
	}
	a, ok, err := n.attr("type", AttrTypeProto)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, n.op().errorf("input", "an Optional without input needs attribute type")
	}
	return []tensor.Value{&tensor.Optional{ElemType: a.String}}, nil
}
