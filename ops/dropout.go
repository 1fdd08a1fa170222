// Dropout, as inference runs it: the output is the input, and the optional
// mask marks every element as kept. Training-mode dropout zeroes elements
// at random (its result depends on a generator the specification does not
// fix), so onnxshape runs it only when nothing is dropped (ratio 0) and
// refuses it otherwise as unsupported.
//
// Versions: 1 and 6 take is_test (0, the default, is training mode) and
// ratio as attributes (1 also consumed_inputs); 7 and 10 are always
// inference, ratio an attribute, 10 makes the mask bool (before it has
// the data's type); 12, 13 and 22 take ratio and training_mode as optional
// inputs and a seed attribute (13 adds bfloat16, 22 the float 8 types).
//
// Rules: [type] the data is a float type of the version; [ratio] ratio is
// in [0, 1); [training] random dropout is not supported.

package ops

import (
	"fmt"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Dropout", []int{1, 6, 7, 10}, [2]int{1, 1}, [2]int{1, 2}, dropoutNode)
	register("Dropout", []int{12, 13, 22}, [2]int{1, 3}, [2]int{1, 2}, dropoutNode)
	declareAttrs("Dropout",
		AttrSpec{Name: "consumed_inputs", Type: AttrInts, Before: 6},
		AttrSpec{Name: "is_test", Type: AttrInt, Before: 7},
		AttrSpec{Name: "ratio", Type: AttrFloat, Before: 12},
		AttrSpec{Name: "seed", Type: AttrInt, From: 12})
}

// dropoutTypeOK reports whether version v of Dropout takes data of type dt.
func dropoutTypeOK(dt tensor.DataType, v int) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.BFloat16:
		return v >= 13
	case tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ:
		return v >= 22
	}
	return false
}

// dropoutMode reads the ratio and whether the node runs in training mode.
func dropoutMode(n *Node, in []tensor.Value) (ratio float64, training bool, err error) {
	op := n.op()
	if n.Version < 12 {
		r, err := n.Float("ratio", 0.5)
		if err != nil {
			return 0, false, err
		}
		isTest, err := n.Int("is_test", 0)
		if err != nil {
			return 0, false, err
		}
		return float64(r), n.Version < 7 && isTest == 0, nil
	}
	ratio = 0.5
	r, err := n.tensorInput(in, 1)
	if err != nil {
		return 0, false, err
	}
	if r != nil {
		v, err := r.Float64s()
		if err != nil || len(v) != 1 || !r.DataType().IsFloat() {
			return 0, false, op.errorf("ratio", "ratio must be a float scalar, got %s", r.Describe())
		}
		ratio = v[0]
	}
	m, err := n.tensorInput(in, 2)
	if err != nil {
		return 0, false, err
	}
	if m != nil {
		if m.DataType() != tensor.Bool || m.Len() != 1 {
			return 0, false, op.errorf("training_mode", "training_mode must be a bool scalar, got %s", m.Describe())
		}
		b, _ := tensor.ToSlice[bool](m)
		training = b[0]
	}
	return ratio, training, nil
}

func dropoutNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	if err := checkInput(op, "data", x); err != nil {
		return nil, err
	}
	if !dropoutTypeOK(x.DataType(), n.Version) {
		return nil, op.errorf("type", "data is %v, which version %d does not take", x.DataType(), n.Version)
	}
	ratio, training, err := dropoutMode(n, in)
	if err != nil {
		return nil, err
	}
	if !(ratio >= 0 && ratio < 1) {
		return nil, op.errorf("ratio", "ratio is %v, outside [0, 1)", ratio)
	}
	if training && ratio > 0 {
		return nil, op.wrap("training", ErrUnsupported, "training-mode dropout with ratio %v drops elements at random", ratio)
	}
	out := []tensor.Value{x} // the output is the input: a view, at no cost
	if n.NumOutputs > 1 {
		mask, err := dropoutMask(opt.orDefault(), op, x, n.Version)
		if err != nil {
			return nil, err
		}
		out = append(out, mask)
	}
	return out, nil
}

// dropoutMask is the mask of an inference run: every element kept, as
// true (version 10 on) or as 1 in the data's type (before).
func dropoutMask(opt *Options, op opRef, x *tensor.Tensor, version int) (*tensor.Tensor, error) {
	dt := tensor.Bool
	if version < 10 {
		dt = x.DataType()
	}
	m, err := opt.newOverwritten(op, dt, x.Shape())
	if err != nil {
		return nil, err
	}
	one, err := dropoutOne(dt)
	if err != nil {
		return nil, op.errorf("type", "%v", err)
	}
	b := m.Bytes()
	for i := 0; i < len(b); i += len(one) {
		copy(b[i:], one)
	}
	return m, nil
}

// dropoutOne is the little-endian bytes of 1 (true) in type dt.
func dropoutOne(dt tensor.DataType) ([]byte, error) {
	switch dt {
	case tensor.Bool:
		return []byte{1}, nil
	case tensor.Float16:
		return []byte{0x00, 0x3c}, nil
	case tensor.Float:
		return []byte{0x00, 0x00, 0x80, 0x3f}, nil
	case tensor.Double:
		return []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, nil
	}
	return nil, fmt.Errorf("no mask of type %v", dt)
}
