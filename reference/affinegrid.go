// AffineGrid (20), after the ONNX specification: "Generates a 2D or 3D
// flow field (sampling grid), given a batch of affine matrices theta."
// theta is [N, 2, 3] for size (N, C, H, W) and [N, 3, 4] for (N, C, D, H,
// W); grid[n, h, w] = theta[n] @ [x_w, y_h, 1] (and z_d in 3-D), where, as
// the reference evaluator's np.arange, the coordinates of an axis of
// length L are -1 + i*2/(L-1) with align_corners (only -1 when L is 1) and
// -1 + 1/L + i*2/L without. Computed in float64, the products summed in
// the order of theta's row, each value rounded once.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("AffineGrid", []int{20}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		theta, err := requiredInput(op, in, 0, "theta")
		if err != nil {
			return nil, err
		}
		st, err := requiredInput(op, in, 1, "size")
		if err != nil {
			return nil, err
		}
		if !signalType(theta.DataType()) || st.DataType() != tensor.Int64 || st.Rank() != 1 {
			return nil, op.errorf("type", "theta %v, size %s", theta.DataType(), st.Describe())
		}
		align, err := n.Int("align_corners", 0)
		if err != nil {
			return nil, err
		}
		if k := st.Len(); k != 4 && k != 5 {
			return nil, op.errorf("size", "size has %d elements, expected 4 or 5", k)
		}
		size, _ := int64sOf(st)
		if len(size) != 4 && len(size) != 5 {
			return nil, op.errorf("size", "size %v", size)
		}
		for _, v := range size {
			if v < 0 || v > 1<<40 {
				return nil, op.errorf("size", "size %v", size)
			}
		}
		r := len(size) - 2
		ts := theta.Shape()
		if len(ts) != 3 || int64(ts[0]) != size[0] || ts[1] != r || ts[2] != r+1 {
			return nil, op.errorf("theta", "theta %v, size %v", ts, size)
		}
		shape := []int{int(size[0])}
		for _, v := range size[2:] {
			shape = append(shape, int(v))
		}
		shape = append(shape, r)
		y, err := newTensor(opt, op, theta.DataType(), shape)
		if err != nil {
			return nil, err
		}
		coord := func(i, L int) float64 {
			if align != 0 {
				if L == 1 {
					return -1
				}
				return -1 + float64(i)*(2/float64(L-1))
			}
			step := 2 / float64(L)
			return -1 + step/2 + float64(i)*step
		}
		base := make([]float64, 0, r+1)
		stop := newPoll(opt, op)
		forEachIndexWhile(shape, func(flat int, idx []int) bool {
			b, row := idx[0], idx[r+1]
			// [x, y, (z,) 1]: x of the last spatial axis.
			base = base[:0]
			for a := r; a >= 1; a-- {
				base = append(base, coord(idx[a], shape[a]))
			}
			base = append(base, 1)
			var s float64
			for j, v := range base {
				s += elementAs[float64](theta, (b*r+row)*(r+1)+j) * v
			}
			setElementAs(y, flat, s)
			return !stop.stop(r + 1)
		})
		if stop.err != nil {
			return nil, stop.err
		}
		return values(y), nil
	})
}
