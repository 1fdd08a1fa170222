// Expand (ONNX Expand 8, 13): the input broadcast to a shape, two-way
// (numpy's multidirectional rule): the output shape is the broadcast of the
// input's shape and the requested one, and Y[j] = X[i] where i is j's last
// rank(X) entries, each taken as 0 on an axis where X has dim 1. The
// versions differ only in the element types they take. The rules of ONNX
// (no SONNX specification yet):
//
//	[shape]     a 1-D int64 tensor of dims >= 0
//	[broadcast] the shapes, aligned at the end, have each pair of dims
//	            equal or one of them 1

package reference

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Expand", []int{8, 13}, expand)
}

func expand(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	s, _, err := intListInput(opt, op, in, 1, "shape", "shape", true)
	if err != nil {
		return nil, err
	}
	if err := positiveDims(opt, op, "input", x.Shape()); err != nil { // [DIMS]
		return nil, err
	}
	for k, d := range s { // [shape]
		if d < 0 {
			return nil, op.errorf("shape", "shape[%d] is %d; dims are >= 0", k, d)
		}
	}
	dY, err := broadcastShape(x.Shape(), s)
	if err != nil { // [broadcast]
		return nil, op.errorf("broadcast", "%v", err)
	}
	if err := positiveDims(opt, op, "output", dY); err != nil { // [DIMS]
		return nil, err
	}
	y, err := newTensor(opt, op, x.DataType(), dY)
	if err != nil {
		return nil, err
	}
	dX := x.Shape()
	lead := len(dY) - len(dX)
	xStrides := stridesOf(dX)
	i := make([]int, len(dX))
	if err := forEachIndexPolled(opt, opOf(n), dY, 1, func(flat int, j []int) {
		for k := range i {
			if dX[k] != 1 {
				i[k] = j[lead+k]
			}
		}
		copyElement(y, flat, x, ravel(i, xStrides))
	}); err != nil {
		return nil, err
	}
	return values(y), nil
}

// broadcastShape returns the multidirectional broadcast of shapes a and b.
func broadcastShape(a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := range out {
		da, db := 1, 1
		if k := i - (n - len(a)); k >= 0 {
			da = a[k]
		}
		if k := i - (n - len(b)); k >= 0 {
			db = b[k]
		}
		switch {
		case da == db || db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			return nil, fmt.Errorf("shapes %v and %v do not broadcast: dimension %d is %d and %d", a, b, i, da, db)
		}
	}
	return out, nil
}
