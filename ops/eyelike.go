// EyeLike creates a 2-D tensor of the shape of its input, ones on the
// diagonal k (0 the main one, positive above it, negative below) and zeros
// elsewhere, of type dtype (the input's type when absent).
//
// Versions: 9 and 22 (adds bfloat16). Types: float16, float, double, the
// 8- to 64-bit integers, bool (and bfloat16 from 22).
//
// Rules: [rank] the input is 2-D; [dtype] the input's type and dtype are
// types the version allows; [size] the output fits the size limit. A k
// past the edge gives all zeros.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("EyeLike", []int{9, 22}, [2]int{1, 1}, [2]int{1, 1}, eyeLikeNode)
	declareAttrs("EyeLike", AttrSpec{Name: "dtype", Type: AttrInt}, AttrSpec{Name: "k", Type: AttrInt})
}

func eyeLikeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	dt := x.DataType()
	if n.Has("dtype") {
		a, _, err := n.attr("dtype", AttrInt)
		if err != nil {
			return nil, err
		}
		dt = tensor.DataType(a.Int)
	}
	k64, err := n.Int("k", 0)
	if err != nil {
		return nil, err
	}
	if !eyeLikeType(x.DataType(), op.version) {
		return nil, op.errorf("dtype", "%s-%d takes no input of type %v", op.name, op.version, x.DataType())
	}
	if !eyeLikeType(dt, op.version) {
		return nil, op.errorf("dtype", "%s-%d makes no output of type %v", op.name, op.version, dt)
	}
	if x.Rank() != 2 {
		return nil, op.errorf("rank", "input must be 2-D, got shape %v", x.Shape())
	}
	y, err := opt.newTensor(op, dt, x.Shape())
	if err != nil {
		return nil, err
	}
	one, err := oneOf(dt)
	if err != nil {
		return nil, op.wrap("dtype", err, "one")
	}
	rows, cols := x.Shape()[0], x.Shape()[1]
	// A diagonal past either edge has no element: clamped to [-rows,
	// cols], -k and i+k cannot overflow.
	k := int(min(max(k64, -int64(rows)), int64(cols)))
	size := dt.Size()
	for i := max(0, -k); i < rows && i+k < cols; i++ {
		copy(y.Bytes()[(i*cols+i+k)*size:], one)
	}
	return values(y), nil
}

func eyeLikeType(dt tensor.DataType, version int) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64,
		tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.Bool:
		return true
	case tensor.BFloat16:
		return version >= 22
	}
	return false
}

// eyeLikeOnes holds the bytes of the value 1 in each type EyeLike makes
// (true for bool), converted once rather than at every run.
var eyeLikeOnes = func() map[tensor.DataType][]byte {
	ones := map[tensor.DataType][]byte{}
	for _, dt := range []tensor.DataType{tensor.Float16, tensor.Float, tensor.Double, tensor.Int8, tensor.Int16, tensor.Int32,
		tensor.Int64, tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.Bool, tensor.BFloat16} {
		if one, err := convertOne(dt); err == nil {
			ones[dt] = one
		}
	}
	return ones
}()

// oneOf returns the bytes of the value 1 in type dt (true for bool).
func oneOf(dt tensor.DataType) ([]byte, error) {
	if one, ok := eyeLikeOnes[dt]; ok {
		return one, nil
	}
	return convertOne(dt)
}

// convertOne converts the value 1 to type dt.
func convertOne(dt tensor.DataType) ([]byte, error) {
	one, err := tensor.New(dt, 1)
	if err != nil {
		return nil, err
	}
	if err := convert.Into(one, tensor.MustFromSlice([]int64{1}), 0, 1, convert.DefaultCast); err != nil {
		return nil, err
	}
	return one.Bytes(), nil
}
