// ReverseSequence reverses, for every batch entry b, the first
// sequence_lens[b] elements along the time axis, leaving the rest as they
// are. batch_axis and time_axis are 0 and 1 in either order.
//
// Versions: 10. Any element type.
//
// Rules: [rank] the input has rank >= 2; [axes] batch_axis and time_axis
// are 0 and 1, different; [sequence_lens] a 1-D int64 tensor of one length
// per batch entry, each in [0, the time axis's length] (onnxruntime's
// bounds; the specification leaves others undefined); [size] the output
// fits the size limit.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ReverseSequence", []int{10}, [2]int{2, 2}, [2]int{1, 1}, reverseSequenceNode)
	declareAttrs("ReverseSequence", AttrSpec{Name: "batch_axis", Type: AttrInt}, AttrSpec{Name: "time_axis", Type: AttrInt})
}

func reverseSequenceNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	lens, err := n.requiredInput(in, 1, "sequence_lens")
	if err != nil {
		return nil, err
	}
	batchAxis, err := n.intAttr("batch_axis", 1, "axes")
	if err != nil {
		return nil, err
	}
	timeAxis, err := n.intAttr("time_axis", 0, "axes")
	if err != nil {
		return nil, err
	}
	if x.Rank() < 2 {
		return nil, op.errorf("rank", "input must have rank >= 2, got shape %v", x.Shape())
	}
	if batchAxis == timeAxis || (batchAxis != 0 && batchAxis != 1) || (timeAxis != 0 && timeAxis != 1) {
		return nil, op.errorf("axes", "batch_axis and time_axis must be 0 and 1, got %d and %d", batchAxis, timeAxis)
	}
	batch, steps := x.Shape()[batchAxis], x.Shape()[timeAxis]
	if lens.DataType() != tensor.Int64 || lens.Rank() != 1 || lens.Len() != batch {
		return nil, op.errorf("sequence_lens", "sequence_lens must be 1-D int64 of length %d, got %s", batch, lens.Describe())
	}
	seq, _ := int64sOf(lens)
	for b, l := range seq {
		if l < 0 || l > int64(steps) {
			return nil, op.errorf("sequence_lens", "sequence_lens[%d] = %d outside [0, %d]", b, l, steps)
		}
	}
	y, err := opt.newOverwritten(op, x.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 { // nothing to write, however long the loops would run
		return values(y), nil
	}
	block := product(x.Shape()[2:])
	// the output's block at (axis0 = i, axis1 = j) comes from the input's
	// block at the same place, or at the mirrored time step
	rows := x.Shape()[0] * x.Shape()[1]
	gatherBlocks(y, x, block, 0, rows, func(r int) int {
		i, j := r/x.Shape()[1], r%x.Shape()[1]
		b, t := i, j
		if batchAxis == 1 {
			b, t = j, i
		}
		if int64(t) < seq[b] {
			t = int(seq[b]) - 1 - t
		}
		if batchAxis == 1 {
			return t*x.Shape()[1] + b
		}
		return b*x.Shape()[1] + t
	})
	return values(y), nil
}
