// Compress keeps the slices of its input along axis whose entry of the 1-D
// bool condition is true; without axis, the elements of the flattened
// input. A condition shorter than the axis leaves the rest out (numpy's
// compress).
//
// Versions: 9 and 11 (negative axis). Any element type.
//
// Rules: [axis] in [-r, r-1]; [condition] a 1-D bool tensor, no true entry
// past the end of the axis (numpy refuses it); [size] the output fits the
// size limit.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Compress", []int{9, 11}, [2]int{2, 2}, [2]int{1, 1}, compressNode)
	declareAttrs("Compress", AttrSpec{Name: "axis", Type: AttrInt})
}

func compressNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	cond, err := n.requiredInput(in, 1, "condition")
	if err != nil {
		return nil, err
	}
	if cond.DataType() != tensor.Bool || cond.Rank() != 1 {
		return nil, op.errorf("condition", "condition must be a 1-D bool tensor, got %s", cond.Describe())
	}
	shape := x.Shape()
	axis := 0
	if n.Has("axis") {
		a, err := n.Int("axis", 0)
		if err != nil {
			return nil, err
		}
		var ok bool
		if axis, ok = normalizeAxis(a, x.Rank()); !ok || (a < 0 && op.version < 11) {
			return nil, op.errorf("axis", "axis %d outside [%d, %d]", a, -x.Rank(), x.Rank()-1)
		}
	} else {
		shape = []int{x.Len()}
	}
	dim := shape[axis]
	var keep []int
	for i, c := range cond.Bytes() {
		if c != 0 {
			if i >= dim {
				return nil, op.errorf("condition", "condition is true at %d, past the axis's length %d", i, dim)
			}
			keep = append(keep, i)
		}
	}
	out := append([]int{}, shape...)
	out[axis] = len(keep)
	y, err := opt.newOverwritten(op, x.DataType(), out)
	if err != nil {
		return nil, err
	}
	outer, block := product(shape[:axis]), product(shape[axis+1:])
	rows := outer * len(keep)
	if rows > 0 && block > 0 {
		gatherBlocks(y, x, block, 0, rows, func(r int) int { return r/len(keep)*dim + keep[r%len(keep)] })
	}
	return values(y), nil
}
