// SequenceMap (ONNX SequenceMap 17): "Applies a sub-graph to each sample
// in the input sequence(s)". For i in 0 .. len(input_sequence)-1 the body
// gets item i of input_sequence and of every additional sequence input,
// and every additional tensor input whole; output k is the sequence of
// the body's output k over i. A first input that is not a sequence breaks
// [input], sequences of different lengths [sequence-length], a body of
// the wrong arity [body], a body output that is no tensor or changes type
// [type].

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SequenceMap", []int{17}, sequenceMap)
}

func sequenceMap(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	seq, ok := in[0].(*tensor.Sequence)
	if !ok || seq == nil {
		return nil, op.errorf("input", "input_sequence is not a sequence")
	}
	count := len(seq.Items)
	for i, v := range in[1:] {
		switch v := v.(type) {
		case *tensor.Sequence:
			if v != nil && len(v.Items) != count {
				return nil, op.errorf("sequence-length", "additional input %d has %d items, input_sequence %d", i, len(v.Items), count)
			}
		case *tensor.Tensor:
		default:
			return nil, op.errorf("input", "additional input %d is not a sequence or a tensor", i)
		}
	}
	g, err := graphAttr(op, n, "body")
	if err != nil {
		return nil, err
	}
	if g.Inputs != len(in) {
		return nil, op.errorf("body", "the body has %d inputs, the node %d", g.Inputs, len(in))
	}
	if n.NumOutputs > 0 && g.Outputs != n.NumOutputs {
		return nil, op.errorf("body", "the body has %d outputs, the node %d", g.Outputs, n.NumOutputs)
	}
	res := make([]tensor.Value, g.Outputs)
	seqs := make([]*tensor.Sequence, g.Outputs)
	for k := range seqs {
		seqs[k] = &tensor.Sequence{ElemType: tensor.Float}
		if k < len(g.OutputTypes) && g.OutputTypes[k].Valid() {
			seqs[k].ElemType = g.OutputTypes[k]
		}
		res[k] = seqs[k]
	}
	for i := 0; i < count; i++ {
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		args := make([]tensor.Value, len(in))
		for j, v := range in {
			args[j] = v
			if s, ok := v.(*tensor.Sequence); ok {
				args[j] = s.Items[i]
			}
		}
		out, err := g.Run(opt, args)
		if err != nil {
			return nil, err
		}
		if len(out) != g.Outputs {
			return nil, op.errorf("body", "the body produced %d outputs, it declares %d", len(out), g.Outputs)
		}
		for k, v := range out {
			t, ok := v.(*tensor.Tensor)
			if !ok || t == nil {
				return nil, op.errorf("type", "body output %d is not a tensor", k)
			}
			if i == 0 {
				seqs[k].ElemType = t.DataType()
			} else if t.DataType() != seqs[k].ElemType {
				return nil, op.errorf("type", "body output %d is %v at one item and %v at another", k, seqs[k].ElemType, t.DataType())
			}
			if err := opt.Charge(int64(t.ByteLen()) + 64); err != nil {
				return nil, op.wrap("size", err, "a sequence item")
			}
			seqs[k].Items = append(seqs[k].Items, t)
		}
	}
	return res, nil
}
