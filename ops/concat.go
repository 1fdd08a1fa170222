// Concat joins tensors along one axis: every input has the same rank, type
// and dimensions except on the axis, where the output's dimension is the sum
// of the inputs'. Zero-sized inputs are ordinary: they add nothing.
//
// Versions: 1 (axis optional, default 1), 4 (axis required), 11 (axis may
// be negative, in [-r, r-1]) and 13 (adds bfloat16; same semantics).
// Versions 1 and 4 take a non-negative axis only.
//
// The constraints are those of the SONNX specification of Concat (based on
// ONNX Concat 13; github.com/onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/concat/concat.md), checked
// in its order:
//
//	inputs [C1] 1 to 2^31-1 inputs
//	inputs [C2] the same rank, and the same dimensions except on axis:
//	            no broadcasting ([R2])
//	inputs [C3] the same element type ([R3]); the output has it too
//	axis   [C1] axis in [0, r-1] (ONNX from 11: [-r, r-1]); rank-0 inputs
//	            have no axis at all
//
// ONNX shares all of them except the sign of the axis. Under ProfileSONNX a
// negative axis is refused ([R1] of sonnx-notes.md, a transient restriction,
// and the domain of axis [C1]), so is a missing axis (GR4: no default
// values) and an element type outside the document's list ([R1]: "types
// that support the concat operation").

package ops

import (
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Concat", []int{1, 4, 11, 13}, [2]int{0, -1}, [2]int{1, 1}, concatNode) // no input: the kernel refuses it as inputs [C1]
}

// ConcatOptions are the parameters of Concat.
type ConcatOptions struct {
	// Axis is the axis to join along; negative values count from the end.
	Axis int
}

// Concat returns the inputs joined along o.Axis (ONNX Concat, version 13).
// The output is a new tensor; the inputs are not modified.
func Concat(inputs []*tensor.Tensor, o ConcatOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Concat", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return concat(opt, op, inputs, o.Axis)
}

func concatNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	axis := int64(1) // Concat-1's default
	switch {
	case n.Has("axis"):
		var err error
		if axis, err = n.Int("axis", 0); err != nil {
			return nil, err
		}
	case n.Version >= 4:
		return nil, op.errorf("axis", "attribute axis is required from version 4")
	case opt.orDefault().Profile == ProfileSONNX:
		return nil, op.errorf("GR4", "attribute axis must be given explicitly in the profile (ONNX's default is 1)")
	}
	inputs := make([]*tensor.Tensor, len(in))
	for i := range in {
		t, err := n.tensorInput(in, i)
		if err == nil && t == nil {
			err = op.errorf("input", "required input inputs[%d] (#%d) is missing", i, i)
		}
		if err != nil {
			return nil, err
		}
		inputs[i] = t
	}
	ax, err := toInt(axis)
	if err != nil {
		return nil, op.errorf("axis [C1]", "axis: %v", err)
	}
	y, err := concat(opt, op, inputs, ax)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// sonnxConcatTypes are the element types sonnx-concat.md lists.
var sonnxConcatTypes = map[tensor.DataType]bool{
	tensor.BFloat16: true, tensor.Bool: true, tensor.Complex128: true, tensor.Complex64: true,
	tensor.Double: true, tensor.Float: true, tensor.Float16: true, tensor.Int16: true,
	tensor.Int32: true, tensor.Int64: true, tensor.Int8: true, tensor.String: true,
	tensor.Uint16: true, tensor.Uint32: true, tensor.Uint64: true, tensor.Uint8: true,
}

// concatShape checks the constraints, in the order of the SONNX document,
// and returns the output shape and the axis in [0, r-1]. shapes and types
// describe the inputs, one entry each.
func concatShape(opt *Options, op opRef, shapes [][]int, types []tensor.DataType, axis int) ([]int, int, error) {
	sonnx := opt.orDefault().Profile == ProfileSONNX
	// inputs [C1]
	if len(shapes) < 1 || int64(len(shapes)) > math.MaxInt32 {
		return nil, 0, op.errorf("inputs [C1]", "%d inputs, expected 1 to 2^31-1", len(shapes))
	}
	r := len(shapes[0])
	lo := -r
	if op.version < 11 || sonnx {
		lo = 0
	}
	// The axis is checked under its own constraint below; until then C2
	// compares the dimensions off the axis only when the axis is valid.
	k, axisOK := axis, axis >= lo && axis < r
	if k < 0 {
		k += r
	}
	// inputs [C2]
	for i, s := range shapes {
		if len(s) != r {
			return nil, 0, op.errorf("inputs [C2]", "input %d has rank %d (shape %v) but input 0 has rank %d (shape %v): all inputs must have one rank", i, len(s), s, r, shapes[0])
		}
		if !axisOK {
			continue
		}
		for j := range s {
			if j != k && s[j] != shapes[0][j] {
				return nil, 0, op.errorf("inputs [C2]", "input %d has shape %v and input 0 has shape %v: dimension %d differs off the axis %d (no broadcasting, [R2])", i, s, shapes[0], j, k)
			}
		}
	}
	// inputs [C3]
	for i, t := range types {
		if t != types[0] {
			return nil, 0, op.errorf("inputs [C3]", "input %d is %v but input 0 is %v: all inputs must have one type ([R3])", i, t, types[0])
		}
	}
	// axis [C1]
	if r == 0 {
		return nil, 0, op.errorf("axis [C1]", "axis %d: the inputs have rank 0 and no axis to join along", axis)
	}
	if !axisOK {
		if sonnx && axis < 0 && axis >= -r {
			return nil, 0, op.errorf("axis [C1]", "axis %d is negative: the profile takes axis in [0, %d]", axis, r-1)
		}
		return nil, 0, op.errorf("axis [C1]", "axis %d is outside [%d, %d] for inputs of rank %d", axis, lo, r-1, r)
	}
	// [R1]: the types the profile's document lists.
	if sonnx && len(types) > 0 && !sonnxConcatTypes[types[0]] {
		return nil, 0, op.errorf("R1", "type %v is not among the types the profile's Concat supports", types[0])
	}
	out := append([]int{}, shapes[0]...)
	out[k] = 0
	for _, s := range shapes {
		if s[k] > math.MaxInt-out[k] {
			return nil, 0, op.errorf("size", "the sum of the dimensions on axis %d overflows an int", k)
		}
		out[k] += s[k]
	}
	return out, k, nil
}

func concat(opt *Options, op opRef, inputs []*tensor.Tensor, axis int) (*tensor.Tensor, error) {
	sonnx := opt.orDefault().Profile == ProfileSONNX
	for i, x := range inputs {
		// The names are made only for a message (a call's worth of time
		// on a small Concat).
		if x == nil || !x.DataType().Valid() {
			return nil, checkInput(op, fmt.Sprintf("inputs[%d]", i), x)
		}
		if !sonnx {
			continue
		}
		if err := opt.positiveDims(op, fmt.Sprintf("inputs[%d]", i), x.Shape()); err != nil {
			return nil, err
		}
	}
	shapes := make([][]int, len(inputs))
	types := make([]tensor.DataType, len(inputs))
	for i, t := range inputs {
		if t == nil {
			return nil, op.errorf("input", "input %d is nil", i)
		}
		shapes[i], types[i] = t.Shape(), t.DataType()
	}
	shape, k, err := concatShape(opt, op, shapes, types, axis)
	if err != nil {
		return nil, err
	}
	y, err := opt.orDefault().newOverwritten(op, types[0], shape)
	if err != nil {
		return nil, err
	}
	if st, ok := movement.NewStitch(y, inputs, k); ok {
		if err := st.Join(opt.moves()); err != nil {
			return nil, op.stopped(err)
		}
		return y, nil
	}
	// Narrow rows: each input is one box of the output, at its offset on
	// axis k, copied by a strided loop.
	at := make([]int, len(shape))
	for _, x := range inputs {
		if err := movement.BoxPlan(x.Shape(), x.Shape(), nil, nil, shape, at).Run(opt.moves(), y, x); err != nil {
			return nil, op.stopped(err)
		}
		at[k] += x.Shape()[k]
	}
	return y, nil
}
