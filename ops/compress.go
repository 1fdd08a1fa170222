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
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
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
		from := func(r int) int { return r/len(keep)*dim + keep[r%len(keep)] }
		// Across the run's cores when large, the blocks taken in turn
		// in grains of about a megabyte (strings, which allocate, on one).
		work, grain := 0, rows
		if size := x.DataType().Size() * block; x.DataType() != tensor.String && size > 0 {
			work, grain = rows*size/4, max(1, (1<<20)/size)
		}
		o := opt.orDefault()
		if parallel.Alone(o.threads(), (rows+grain-1)/grain, work) {
			// No closure for the pool to hold: a small Compress allocates none.
			gatherBlocks(y, x, block, 0, rows, from)
			return values(y), nil
		}
		err := parallel.Shared(o.env.Ctx, o.threads(), rows, grain, work, func(lo, hi int) error {
			gatherBlocks(y, x, block, lo, hi, from)
			return opt.cancelled()
		})
		if err != nil {
			return nil, op.stopped(err)
		}
	}
	return values(y), nil
}
