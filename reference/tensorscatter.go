package reference

// TensorScatter (version 24), after the ONNX specification and its
// reference evaluator (op_tensor_scatter.py):
//
//	"TensorScatter is a generic tensor update operation, motivated by the
//	requirements for KV cache updates for Attention ops commonly found in
//	LLMs. It is a functional operation that models an in-place update to a
//	KV cache buffer." "The past and present cache tensors have the same
//	shape (batch_size, D1, D2, ..., max_sequence_length, ..., Dn), with the
//	sequence dimension (indicated by the axis attribute) being
//	max_sequence_length"; "The update tensor's shape only differs from the
//	cache tensors in the sequence dimension".
//	linear:   present[i, ..., write_indices[i] + j, ...] = update[i, ..., j, ...]
//	circular: present[i, ..., (write_indices[i] + j) % max_seq_len, ...] = update[i, ..., j, ...]

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("TensorScatter", []int{24}, tensorScatter) }

func tensorScatter(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	past, err := requiredInput(op, in, 0, "past_cache")
	if err != nil {
		return nil, err
	}
	update, err := requiredInput(op, in, 1, "update")
	if err != nil {
		return nil, err
	}
	wt, err := optionalInput(op, in, 2)
	if err != nil {
		return nil, err
	}
	axis, err := n.Int("axis", -2)
	if err != nil {
		return nil, err
	}
	mode, err := n.Str("mode", "linear")
	if err != nil {
		return nil, err
	}
	if mode != "linear" && mode != "circular" {
		return nil, op.errorf("mode", "mode %q", mode)
	}
	r := int64(past.Rank())
	if axis < -r || axis >= r || axis == 0 || axis == -r {
		return nil, op.errorf("axis", "axis %d", axis)
	}
	if axis < 0 {
		axis += r
	}
	a := int(axis)
	if update.Rank() != past.Rank() || update.DataType() != past.DataType() {
		return nil, op.errorf("update", "update must match past_cache")
	}
	for d := range past.Rank() {
		if d != a && update.Shape()[d] != past.Shape()[d] {
			return nil, op.errorf("update", "update must match past_cache off the axis")
		}
	}
	batch, length, steps := past.Shape()[0], past.Shape()[a], update.Shape()[a]
	starts := make([]int64, batch)
	if wt != nil {
		if wt.DataType() != tensor.Int64 || wt.Rank() != 1 || wt.Len() != batch {
			return nil, op.errorf("write_indices", "write_indices must be 1-D int64, one per batch entry")
		}
		for b := range batch {
			starts[b] = exactValue(wt, b).i
		}
	}
	for _, s := range starts {
		if s < 0 || (mode == "linear" && s+int64(steps) > int64(length)) || (mode == "circular" && s >= int64(length)) {
			return nil, op.errorf("write_indices", "write index %d", s)
		}
	}
	y, err := copyAs(opt, op, past, past.Shape())
	if err != nil {
		return nil, err
	}
	strides := stridesOf(past.Shape())
	for u := range update.Len() {
		pos := unravel(u, update.Shape())
		pos[a] += int(starts[pos[0]])
		if mode == "circular" {
			pos[a] %= length
		}
		copyElement(y, ravel(pos, strides), update, u)
	}
	return values(y), nil
}
