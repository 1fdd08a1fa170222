// TensorScatter writes update into a copy of past_cache along the sequence
// axis (axis, -2 by default; never the batch axis 0): for batch entry b,
// update's positions 0..S-1 on the axis go to write_indices[b]+0..S-1
// (mode linear) or to those positions modulo the axis's length L (mode
// circular). It models the in-place update of an attention KV cache.
//
// Versions: 24. Any element type.
//
// Rules: [axis] in [-r, r-1] and not the batch axis; [update] update has
// past_cache's type and shape except on the axis; [write_indices] a 1-D
// int64 tensor of one index per batch entry (all 0 when absent), each in
// [0, L-S] (linear; the positions must lie in the cache) or [0, L-1]
// (circular); [mode] linear or circular; [size] the output fits the size
// limit. Within one batch entry of a circular update longer than L, the
// later positions win (the reference evaluator's order).

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("TensorScatter", []int{24}, [2]int{2, 3}, [2]int{1, 1}, tensorScatterNode)
	declareAttrs("TensorScatter", AttrSpec{Name: "axis", Type: AttrInt}, AttrSpec{Name: "mode", Type: AttrString})
}

func tensorScatterNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	past, err := n.requiredInput(in, 0, "past_cache")
	if err != nil {
		return nil, err
	}
	update, err := n.requiredInput(in, 1, "update")
	if err != nil {
		return nil, err
	}
	wt, err := n.tensorInput(in, 2)
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
		return nil, op.errorf("mode", "mode must be linear or circular, got %q", mode)
	}
	ps := past.Shape()
	a, ok := normalizeAxis(axis, len(ps))
	if !ok || a == 0 {
		return nil, op.errorf("axis", "axis %d must be in [%d, %d] and not the batch axis", axis, -len(ps), len(ps)-1)
	}
	us := update.Shape()
	sameOff := len(us) == len(ps) && update.DataType() == past.DataType()
	for d := 0; sameOff && d < len(ps); d++ {
		sameOff = d == a || us[d] == ps[d]
	}
	if !sameOff {
		return nil, op.errorf("update", "update must be %v of past_cache's shape %v off axis %d, got %s", past.DataType(), ps, a, update.Describe())
	}
	batch, length, steps := ps[0], ps[a], us[a]
	starts := make([]int64, batch)
	if wt != nil {
		if wt.DataType() != tensor.Int64 || wt.Rank() != 1 || wt.Len() != batch {
			return nil, op.errorf("write_indices", "write_indices must be 1-D int64 of length %d, got %s", batch, wt.Describe())
		}
		starts, _ = int64sOf(wt)
	}
	for b, s := range starts {
		hi := int64(length - 1)
		if mode == "linear" {
			hi = int64(length - steps)
		}
		if s < 0 || s > hi {
			return nil, op.errorf("write_indices", "write_indices[%d] = %d outside [0, %d] (mode %s, cache length %d, update length %d)", b, s, hi, mode, length, steps)
		}
	}
	y, err := opt.newOverwritten(op, past.DataType(), ps)
	if err != nil {
		return nil, err
	}
	copyTensor(y, past)
	mid, inner := product(ps[1:a]), product(ps[a+1:])
	if y.Len() == 0 || update.Len() == 0 { // nothing to write, however long the loops would run
		return values(y), nil
	}
	for b := range batch {
		for m := range mid {
			row := b*mid + m
			for j := range steps {
				at := int(starts[b]) + j
				if mode == "circular" {
					at %= length
				}
				copyElems(y, (row*length+at)*inner, update, (row*steps+j)*inner, inner)
			}
		}
	}
	return values(y), nil
}
