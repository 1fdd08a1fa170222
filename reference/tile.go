// Tile (ONNX Tile 1, 6, 13): the input repeated along each axis: output dim
// k is dX_k * repeats_k, and Y[j] = X[j mod dX]. 1 takes two more inputs,
// tiles and axis (one integer each, int32 or int64), and repeats the input
// tiles times along that one axis; 6 and 13 take repeats, a 1-D int64 input
// with one entry per axis. The rules of ONNX (Tile is outside SONNX):
//
//	[axis]    (version 1) axis in [-r, r-1]; tiles >= 0
//	[repeats] one entry per input axis, each >= 0

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Tile", []int{1, 6, 13}, tile)
}

func tile(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	r := x.Rank()
	var repeats []int
	if op.version < 6 {
		var v [2]int // tiles, axis
		for i, name := range []string{"tiles", "axis"} {
			t, err := requiredInput(op, in, i+1, name)
			if err != nil {
				return nil, err
			}
			v64, err := int64sOf(t)
			if err != nil || len(v64) != 1 {
				return nil, op.errorf("axis", "%s must be one int64 (or int32), got %s", name, t.Describe())
			}
			if v[i], err = toInt(v64[0]); err != nil {
				return nil, op.errorf("axis", "%s: %v", name, err)
			}
		}
		k, ok := normalizeAxis(v[1], -r, r) // [axis]
		if !ok {
			return nil, op.errorf("axis", "axis %d is outside [%d, %d] (input rank %d)", v[1], -r, r-1, r)
		}
		if v[0] < 0 {
			return nil, op.errorf("axis", "tiles is %d; it must be >= 0", v[0])
		}
		repeats = make([]int, r)
		for i := range repeats {
			repeats[i] = 1
		}
		repeats[k] = v[0]
	} else if repeats, _, err = intListInput(opt, op, in, 1, "repeats", "repeats", true); err != nil {
		return nil, err
	}
	// [repeats]
	if len(repeats) != r {
		return nil, op.errorf("repeats", "repeats %v has %d entries for an input of rank %d", repeats, len(repeats), r)
	}
	dX := x.Shape()
	dY := make([]int, r)
	for k, m := range repeats {
		if m < 0 {
			return nil, op.errorf("repeats", "repeats[%d] is %d; it must be >= 0", k, m)
		}
		d, err := tensor.NumElements([]int{dX[k], m})
		if err != nil {
			return nil, op.errorf("size", "axis %d: %d repeats of %d elements is more than an int can count", k, m, dX[k])
		}
		dY[k] = d
	}
	y, err := newTensor(opt, op, x.DataType(), dY)
	if err != nil {
		return nil, err
	}
	xStrides := stridesOf(dX)
	i := make([]int, r)
	if err := forEachIndexPolled(opt, opOf(n), dY, 1, func(flat int, j []int) {
		for k := range j {
			i[k] = j[k] % dX[k]
		}
		copyElement(y, flat, x, ravel(i, xStrides))
	}); err != nil {
		return nil, err
	}
	return values(y), nil
}
