// SequenceMap runs its body once per item of its input sequence, with the
// matching item of each additional sequence input and each additional
// tensor input whole, and collects each body output into a sequence.
//
// Versions: 17. The body has one input per node input and one output per
// node output; a sequence of no items makes sequences of no items, of the
// element type the body declares (float when it declares none).
//
// Constraints, in order: [input] the first input is a sequence;
// [sequence-length] every sequence input has as many items as the first;
// [body] the body is set, with one input per node input and one output
// per node output; [type] the body's outputs are tensors, each of one
// element type at every item.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SequenceMap", []int{17}, [2]int{1, -1}, [2]int{1, -1}, sequenceMapNode)
	declareAttrs("SequenceMap", AttrSpec{Name: "body", Type: AttrGraph})
}

func sequenceMapNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	first, ok := in[0].(*tensor.Sequence)
	if !ok || first == nil {
		return nil, op.errorf("input", "input_sequence is %s, not a sequence", describe(in[0]))
	}
	if err := checkValue(op, "input_sequence", first); err != nil {
		return nil, err
	}
	count := len(first.Items)
	for i, v := range in[1:] {
		if err := checkValue(op, "additional_inputs", v); err != nil {
			return nil, err
		}
		switch v := v.(type) {
		case *tensor.Sequence:
			if len(v.Items) != count {
				return nil, op.errorf("sequence-length", "additional input %d has %d items, input_sequence %d", i, len(v.Items), count)
			}
		case *tensor.Tensor:
		default:
			return nil, op.errorf("input", "additional input %d is %s, not a sequence or a tensor", i, describe(v))
		}
	}
	body, err := n.GraphAttr("body")
	if err != nil {
		return nil, err
	}
	if body == nil || body.Run == nil {
		return nil, op.errorf("body", "attribute body holds no graph")
	}
	if body.Inputs != len(in) {
		return nil, op.errorf("body", "the body has %d inputs, the node %d", body.Inputs, len(in))
	}
	if n.NumOutputs > 0 && body.Outputs != n.NumOutputs {
		return nil, op.errorf("body", "the body has %d outputs, the node %d", body.Outputs, n.NumOutputs)
	}
	res := make([]*tensor.Sequence, body.Outputs)
	for k := range res {
		res[k] = &tensor.Sequence{ElemType: tensor.Float}
		if k < len(body.OutputTypes) && body.OutputTypes[k].Valid() {
			res[k].ElemType = body.OutputTypes[k]
		}
	}
	args := make([]tensor.Value, len(in))
	for i := 0; i < count; i++ {
		if err := opt.cancelled(); err != nil {
			return nil, op.stopped(err)
		}
		for j, v := range in {
			if s, ok := v.(*tensor.Sequence); ok {
				args[j] = s.Items[i]
			} else {
				args[j] = v
			}
		}
		out, err := body.Run(opt, args)
		if err != nil {
			return nil, err
		}
		if len(out) != body.Outputs {
			return nil, op.errorf("body", "the body produced %d outputs, it declares %d", len(out), body.Outputs)
		}
		for k, v := range out {
			t, ok := v.(*tensor.Tensor)
			if !ok || t == nil {
				return nil, op.errorf("type", "body output %d is %s, not a tensor", k, describe(v))
			}
			if i == 0 {
				res[k].ElemType = t.DataType()
			} else if t.DataType() != res[k].ElemType {
				return nil, op.errorf("type", "body output %d is %v at one item and %v at another", k, res[k].ElemType, t.DataType())
			}
			if err := opt.charge(op, "a sequence item", int64(t.ByteLen())+64); err != nil {
				return nil, err
			}
			res[k].Items = append(res[k].Items, t)
		}
	}
	out := make([]tensor.Value, len(res))
	for k, s := range res {
		out[k] = s
	}
	return out, nil
}
