// NonZero returns the indices of the elements that are not zero, as an
// int64 tensor of shape [rank, count]: column c holds the coordinates of
// the c-th nonzero element in row-major order (numpy's nonzero).
//
// Versions: 9 and 13 (adds bfloat16). Numeric types and bool; NaN is not
// zero. A scalar is read as a 1-D tensor of one element, as numpy does
// (output [1, count]).
//
// Rules: [type] not a string or complex; [size] the output fits the size
// limit.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("NonZero", []int{9, 13}, [2]int{1, 1}, [2]int{1, 1}, nonZeroNode)
	declareAttrs("NonZero")
}

func nonZeroNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	// the types of Cast-1 (numbers and bool), and bfloat16 from 13
	dt := x.DataType()
	if dt != tensor.BFloat16 && castTypeSince(dt) > 1 || dt == tensor.BFloat16 && op.version < 13 {
		return nil, op.errorf("type", "%s-%d takes no %v", op.name, op.version, dt)
	}
	shape := x.Shape()
	if len(shape) == 0 {
		shape = []int{1}
	}
	if err := opt.charge(op, "nonzero mask", int64(x.Len())); err != nil {
		return nil, err
	}
	nz := nonZeroMask(x)
	count := 0
	for _, b := range nz {
		count += int(b)
	}
	y, err := opt.newOverwritten(op, tensor.Int64, []int{len(shape), count})
	if err != nil {
		return nil, err
	}
	out := asElems[int64](y.Bytes())
	// Row by row of the last axis, the outer index walked once a row.
	last := len(shape) - 1
	inner := shape[last]
	outerPos := make([]int, last)
	c := 0
	for r := 0; inner > 0 && r < len(nz)/inner; r++ {
		for j, b := range nz[r*inner : (r+1)*inner] {
			if b != 0 {
				for d, p := range outerPos {
					out[d*count+c] = int64(p)
				}
				out[last*count+c] = int64(j)
				c++
			}
		}
		for d := last - 1; d >= 0; d-- {
			if outerPos[d]++; outerPos[d] < shape[d] {
				break
			}
			outerPos[d] = 0
		}
	}
	return opt.result(y), nil
}

// nonZeroMask returns 1 for every element of x that is not zero (NaN is
// not zero; -0 is), 0 for the others.
func nonZeroMask(x *tensor.Tensor) []byte {
	m := make([]byte, x.Len())
	if x.DataType() == tensor.Float {
		for i, f := range asElems[float32](x.Bytes()) {
			m[i] = convert.B2U(f != 0)
		}
		return m
	}
	if x.DataType().IsFloat() {
		var v [convert.Chunk]float64
		for c := 0; c < x.Len(); c += convert.Chunk {
			part := v[:min(convert.Chunk, x.Len()-c)]
			convert.DecodeFloats(part, x, c)
			for i, f := range part {
				m[c+i] = convert.B2U(f != 0)
			}
		}
		return m
	}
	size := x.DataType().Size()
	b := x.Bytes()
	for i := range m {
		for _, byt := range b[i*size : (i+1)*size] {
			if byt != 0 {
				m[i] = 1
				break
			}
		}
	}
	return m
}
