// Concat (ONNX Concat 1, 4, 11, 13): the inputs joined along one axis d.
// 1 has axis optional (default 1), 4 on requires it; 11 on takes a negative
// axis in [-r, r-1]; 13 adds bfloat16. The SONNX specification
// (sonnx-concat.md, ONNX Concat 13), in its order:
//
//	inputs [C1] 1 to 2^31-1 inputs
//	inputs [C2] one rank, and the same dims except on d; no broadcasting [R2]
//	inputs [C3] one element type [R3]; the output has it
//	axis   [C1] d in [0, r-1] (ONNX from 11: [-r, r-1])
//
// and E2/E3: concat_result[..., i, ...] = A_k[..., i - sum_{j<k} D_j^d, ...]
// for the k with sigma_{k-1} <= i < sigma_k (sigma_k = sum_{j<=k} D_j^d).
// Under SONNX, the axis is given explicitly (GR4), is not negative ([R1] of
// sonnx-notes.md), and the type is one the document lists ([R1]).
//
// The working group's informal specification: onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/concat/concat.md.

package reference

import (
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Concat", []int{1, 4, 11, 13}, concat)
}

// concatTypes are the element types sonnx-concat.md lists.
var concatTypes = map[tensor.DataType]bool{
	tensor.BFloat16: true, tensor.Bool: true, tensor.Complex128: true, tensor.Complex64: true,
	tensor.Double: true, tensor.Float: true, tensor.Float16: true, tensor.Int16: true,
	tensor.Int32: true, tensor.Int64: true, tensor.Int8: true, tensor.String: true,
	tensor.Uint16: true, tensor.Uint32: true, tensor.Uint64: true, tensor.Uint8: true,
}

func concat(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	axis64 := int64(1) // Concat-1's default
	switch {
	case n.Has("axis"):
		var err error
		if axis64, err = n.Int("axis", 0); err != nil {
			return nil, err
		}
	case op.version >= 4:
		return nil, op.errorf("axis", "attribute axis is required from version 4")
	case sonnx(opt):
		return nil, op.errorf("GR4", "attribute axis must be given explicitly in the profile")
	}
	a := make([]*tensor.Tensor, len(in))
	for k := range in {
		t, err := requiredInput(op, in, k, fmt.Sprintf("inputs[%d]", k))
		if err != nil {
			return nil, err
		}
		a[k] = t
	}
	axis, err := toInt(axis64)
	if err != nil {
		return nil, op.errorf("axis [C1]", "axis: %v", err)
	}
	for k, t := range a { // [DIMS]
		if err := positiveDims(opt, op, fmt.Sprintf("inputs[%d]", k), t.Shape()); err != nil {
			return nil, err
		}
	}
	// inputs [C1]
	if len(a) < 1 || int64(len(a)) > math.MaxInt32 {
		return nil, op.errorf("inputs [C1]", "%d inputs, expected 1 to 2^31-1", len(a))
	}
	r := a[0].Rank()
	lo := -r
	if op.version < 11 || sonnx(opt) {
		lo = 0
	}
	d, axisOK := normalizeAxis(axis, lo, r)
	// inputs [C2]: the dims off the axis are compared once the axis is known
	// to be valid; its own constraint comes last.
	for k, t := range a {
		if t.Rank() != r {
			return nil, op.errorf("inputs [C2]", "input %d has rank %d but input 0 has rank %d", k, t.Rank(), r)
		}
		for j := 0; axisOK && j < r; j++ {
			if j != d && t.Shape()[j] != a[0].Shape()[j] {
				return nil, op.errorf("inputs [C2]", "input %d has shape %v and input 0 has shape %v: dimension %d differs off the axis (no broadcasting, [R2])", k, t.Shape(), a[0].Shape(), j)
			}
		}
	}
	// inputs [C3]
	for k, t := range a {
		if t.DataType() != a[0].DataType() {
			return nil, op.errorf("inputs [C3]", "input %d is %v but input 0 is %v ([R3])", k, t.DataType(), a[0].DataType())
		}
	}
	// axis [C1]
	if r == 0 {
		return nil, op.errorf("axis [C1]", "axis %d: the inputs have rank 0", axis)
	}
	if !axisOK {
		return nil, op.errorf("axis [C1]", "axis %d is outside [%d, %d] for inputs of rank %d", axis, lo, r-1, r)
	}
	if sonnx(opt) && !concatTypes[a[0].DataType()] {
		return nil, op.errorf("R1", "type %v is not among the types the profile's Concat supports", a[0].DataType())
	}
	// E7: the output's dim on d is the sum of the inputs'; sigma[k] is the
	// sum up to input k included.
	sigma := make([]int, len(a))
	total := 0
	for k, t := range a {
		if t.Shape()[d] > math.MaxInt-total {
			return nil, op.errorf("size", "the sum of the dimensions on axis %d overflows an int", d)
		}
		total += t.Shape()[d]
		sigma[k] = total
	}
	dY := append([]int{}, a[0].Shape()...)
	dY[d] = total
	y, err := newTensor(opt, op, a[0].DataType(), dY)
	if err != nil {
		return nil, err
	}
	src := make([]int, r)
	if err := forEachIndexPolled(opt, opOf(n), dY, 1, func(flat int, idx []int) {
		i := idx[d]
		k := 0
		for i >= sigma[k] {
			k++
		}
		copy(src, idx)
		src[d] = i - (sigma[k] - a[k].Shape()[d]) // E3: i' = i - sum_{j<k} D_j^d
		copyElement(y, flat, a[k], ravel(src, stridesOf(a[k].Shape())))
	}); err != nil {
		return nil, err
	}
	return values(y), nil
}
