// Unsqueeze (ONNX Unsqueeze 1, 11, 13, 21, 23, 24, 25): the input with a
// dimension of size 1 inserted at each axis A names, counted in the output.
// 1 and 11 take A as an attribute (1 only non-negative axes); 13 on as an
// int64 input; the later versions widen the element types. The SONNX
// specification (sonnx-unsqueeze.md, ONNX Unsqueeze 25), rY = rank(X) + len(A):
//
//	A [C1] Value Domain: every A[i] in [-rY, rY-1]
//	A [C2] Uniqueness: no axis designated twice, after normalisation
//	Y [C1] Shape consistency: dY is dX with a 1 inserted at each k of A'
//	       (A normalised and sorted)
//
// and the mapping X[i_0, ..., i_{rX-1}] = Y[j_0, ..., j_{rY-1}], where j is
// i with a 0 inserted at each k of A'. Under SONNX, A is a 1-D tensor with
// at least one axis [axes].
//
// The working group's informal specification: onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/unsqueeze/unsqueeze.md.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Unsqueeze", []int{1, 11, 13, 21, 23, 24, 25}, unsqueeze)
}

func unsqueeze(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "data")
	if err != nil {
		return nil, err
	}
	var axes64 []int64
	if op.version < 13 {
		var ok bool
		if axes64, ok, err = n.Ints("axes"); err != nil {
			return nil, err
		} else if !ok {
			return nil, op.errorf("axes", "attribute axes is required")
		}
	} else {
		a, err := requiredInput(op, in, 1, "axes")
		if err != nil {
			return nil, err
		}
		if a.Rank() > 1 || (sonnx(opt) && a.Rank() != 1) {
			return nil, op.errorf("axes", "axes must be a 1-D tensor, got shape %v", a.Shape())
		}
		if a.DataType() != tensor.Int64 {
			return nil, op.errorf("axes", "axes must be int64, got %v", a.DataType())
		}
		axes64, _ = tensor.ToSlice[int64](a)
	}
	axes, err := toInts(axes64)
	if err != nil {
		return nil, op.errorf("A [C1]", "%v", err)
	}
	if err := positiveDims(opt, op, "input data", x.Shape()); err != nil { // [DIMS]
		return nil, err
	}
	if sonnx(opt) && len(axes) == 0 {
		return nil, op.errorf("axes", "the profile needs at least one axis")
	}
	rY := x.Rank() + len(axes)
	// A [C1] and [C2]: A' is A normalised into [0, rY-1].
	norm, err := normalizeAxes(op, axes, rY, op.version == 1, "A [C1]", "A [C2]", "output")
	if err != nil {
		return nil, err
	}
	inserted := make([]bool, rY)
	for _, k := range norm {
		inserted[k] = true
	}
	// Y [C1]: dX with a 1 inserted at each k of A'.
	dY := make([]int, 0, rY)
	for k, i := 0, 0; k < rY; k++ {
		if inserted[k] {
			dY = append(dY, 1)
		} else {
			dY = append(dY, x.Shape()[i])
			i++
		}
	}
	y, err := newTensor(opt, op, x.DataType(), dY)
	if err != nil {
		return nil, err
	}
	// Y[j] = X[i], i being j without the inserted (zero) positions.
	xStrides := stridesOf(x.Shape())
	i := make([]int, x.Rank())
	forEachIndex(dY, func(flat int, j []int) {
		i = i[:0]
		for k, jk := range j {
			if !inserted[k] {
				i = append(i, jk)
			}
		}
		copyElement(y, flat, x, ravel(i, xStrides))
	})
	return values(y), nil
}
