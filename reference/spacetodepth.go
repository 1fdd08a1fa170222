// SpaceToDepth (ONNX SpaceToDepth 1, 13): spatial blocks moved into
// channels: X [N, C, H, W] becomes Y [N, C*b*b, H/b, W/b], b = blocksize,
// with Y[n, (i*b + j)*C + c, h, w] = X[n, c, h*b+i, w*b+j] (the inverse of
// DepthToSpace in DCR mode). The versions differ only in the element types
// they take. The rules of ONNX (outside SONNX):
//
//	[rank]      X is 4-D
//	[blocksize] blocksize is given and > 0
//	[spatial]   H and W are divisible by b

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SpaceToDepth", []int{1, 13}, spaceToDepth)
}

func spaceToDepth(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, b, err := blockInput(n, in)
	if err != nil {
		return nil, err
	}
	dX := x.Shape()
	if len(dX) != 4 { // [rank]
		return nil, op.errorf("rank", "the input has shape %v; it must be 4-D [N, C, H, W]", dX)
	}
	if b <= 0 { // [blocksize]
		return nil, op.errorf("blocksize", "blocksize is %d; it must be > 0", b)
	}
	if dX[2]%b != 0 || dX[3]%b != 0 { // [spatial]
		return nil, op.errorf("spatial", "H = %d and W = %d must both be divisible by blocksize %d", dX[2], dX[3], b)
	}
	c, err := tensor.NumElements([]int{dX[1], b, b})
	if err != nil {
		return nil, op.errorf("size", "the output of %v with blocksize %d has more channels than an int can count", dX, b)
	}
	y, err := newTensor(opt, op, x.DataType(), []int{dX[0], c, dX[2] / b, dX[3] / b})
	if err != nil {
		return nil, err
	}
	xStrides := stridesOf(dX)
	if err := forEachIndexPolled(opt, opOf(n), y.Shape(), 1, func(flat int, j []int) {
		block, channel := j[1]/dX[1], j[1]%dX[1] // block = i*b + j
		i, jj := block/b, block%b
		copyElement(y, flat, x, ravel([]int{j[0], channel, j[2]*b + i, j[3]*b + jj}, xStrides))
	}); err != nil {
		return nil, err
	}
	return values(y), nil
}
