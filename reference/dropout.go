// Dropout (ONNX Dropout, versions 1 to 22), as inference runs it:
//
//	output = data
//	mask   = 1 (true from version 10) for every element
//
// Training mode (is_test = 0 before version 7; the training_mode input
// from version 12) zeroes elements at random when ratio > 0: the
// specification fixes no generator, so it is refused as unsupported. With
// ratio = 0 nothing is dropped and training mode is inference.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Dropout", []int{1, 6, 7, 10, 12, 13, 22}, dropout)
}

func dropout(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "data")
	if err != nil {
		return nil, err
	}
	if !x.DataType().Valid() {
		return nil, op.errorf("input", "input data has no element type (a zero tensor.Tensor?)")
	}
	// [type] T: float16, float, double; bfloat16 from 13; float 8 from 22.
	dt := x.DataType()
	switch {
	case dt == tensor.Float16 || dt == tensor.Float || dt == tensor.Double:
	case dt == tensor.BFloat16 && op.version >= 13:
	case (dt == tensor.Float8E4M3FN || dt == tensor.Float8E4M3FNUZ || dt == tensor.Float8E5M2 || dt == tensor.Float8E5M2FNUZ) && op.version >= 22:
	default:
		return nil, op.errorf("type", "data is %v, which version %d does not take", dt, op.version)
	}
	ratio, training := 0.5, false
	if op.version < 12 {
		r, err := n.Float("ratio", 0.5)
		if err != nil {
			return nil, err
		}
		isTest, err := n.Int("is_test", 0)
		if err != nil {
			return nil, err
		}
		ratio, training = float64(r), op.version < 7 && isTest == 0
	} else {
		r, err := optionalInput(op, in, 1)
		if err != nil {
			return nil, err
		}
		if r != nil {
			v, err := r.Float64s()
			if err != nil || len(v) != 1 || !r.DataType().IsFloat() {
				return nil, op.errorf("ratio", "ratio must be a float scalar, got %s", r.Describe())
			}
			ratio = v[0]
		}
		m, err := optionalInput(op, in, 2)
		if err != nil {
			return nil, err
		}
		if m != nil {
			if m.DataType() != tensor.Bool || m.Len() != 1 {
				return nil, op.errorf("training_mode", "training_mode must be a bool scalar, got %s", m.Describe())
			}
			b, _ := tensor.ToSlice[bool](m)
			training = b[0]
		}
	}
	// [ratio] 0 <= ratio < 1
	if !(ratio >= 0 && ratio < 1) {
		return nil, op.errorf("ratio", "ratio is %v, outside [0, 1)", ratio)
	}
	if training && ratio > 0 { // [training]
		return nil, op.wrap("training", ops.ErrUnsupported, "training-mode dropout with ratio %v drops elements at random", ratio)
	}
	y, err := newTensor(opt, op, dt, x.Shape())
	if err != nil {
		return nil, err
	}
	for i := range x.Len() {
		copyElement(y, i, x, i)
	}
	if n.NumOutputs < 2 {
		return values(y), nil
	}
	maskType := tensor.Bool
	if op.version < 10 {
		maskType = dt
	}
	mask, err := newTensor(opt, op, maskType, x.Shape())
	if err != nil {
		return nil, err
	}
	for i := range mask.Len() {
		if maskType == tensor.Bool {
			b, _ := tensor.Data[bool](mask)
			b[i] = true
		} else if err := storeFloat(mask, i, 1); err != nil {
			return nil, op.wrap("type", err, "mask")
		}
	}
	return values(y, mask), nil
}
