// DepthToSpace (ONNX DepthToSpace 1, 11, 13): blocks of channels moved into
// space: X [N, C, H, W] becomes Y [N, C/(b*b), H*b, W*b], b = blocksize,
// with, for C' = C/(b*b),
//
//	DCR: Y[n, c, h*b+i, w*b+j] = X[n, (i*b + j)*C' + c, h, w]
//	CRD: Y[n, c, h*b+i, w*b+j] = X[n, c*b*b + i*b + j, h, w]
//
// (the reshape to rank 6 and transpose of the specification's formula). 1
// has DCR only (mode breaks [attribute]); 11 adds mode; 13 widens the
// element types. The rules of ONNX (outside SONNX):
//
//	[rank]      X is 4-D
//	[blocksize] blocksize is given and > 0
//	[mode]      DCR or CRD
//	[channels]  C is divisible by b*b

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("DepthToSpace", []int{1, 11, 13}, depthToSpace)
}

func depthToSpace(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, b, err := blockInput(n, in)
	if err != nil {
		return nil, err
	}
	mode := "DCR"
	if op.version < 11 {
		if n.Has("mode") {
			return nil, op.errorf("attribute", "attribute mode exists from version 11 on")
		}
	} else if mode, err = n.Str("mode", "DCR"); err != nil {
		return nil, err
	}
	dX := x.Shape()
	if len(dX) != 4 { // [rank]
		return nil, op.errorf("rank", "the input has shape %v; it must be 4-D [N, C, H, W]", dX)
	}
	if b <= 0 { // [blocksize]
		return nil, op.errorf("blocksize", "blocksize is %d; it must be > 0", b)
	}
	if mode != "DCR" && mode != "CRD" { // [mode]
		return nil, op.errorf("mode", "mode is %q; it must be DCR or CRD", mode)
	}
	bb, err := tensor.NumElements([]int{b, b})
	if err != nil || dX[1]%bb != 0 { // [channels]
		return nil, op.errorf("channels", "C = %d is not divisible by blocksize*blocksize = %d*%d", dX[1], b, b)
	}
	h, errH := tensor.NumElements([]int{dX[2], b})
	w, errW := tensor.NumElements([]int{dX[3], b})
	if errH != nil || errW != nil {
		return nil, op.errorf("size", "the output of %v with blocksize %d has more elements than an int can count", dX, b)
	}
	c := dX[1] / bb
	y, err := newTensor(opt, op, x.DataType(), []int{dX[0], c, h, w})
	if err != nil {
		return nil, err
	}
	xStrides := stridesOf(dX)
	if err := forEachIndexPolled(opt, opOf(n), y.Shape(), 1, func(flat int, j []int) {
		i, jj := j[2]%b, j[3]%b // the offsets in the block
		var channel int
		if mode == "DCR" {
			channel = (i*b+jj)*c + j[1]
		} else {
			channel = j[1]*bb + i*b + jj
		}
		copyElement(y, flat, x, ravel([]int{j[0], channel, j[2] / b, j[3] / b}, xStrides))
	}); err != nil {
		return nil, err
	}
	return values(y), nil
}

// blockInput reads what DepthToSpace and SpaceToDepth share: the input and
// the required blocksize attribute.
func blockInput(n *ops.Node, in []tensor.Value) (*tensor.Tensor, int, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, 0, err
	}
	if !n.Has("blocksize") {
		return nil, 0, op.errorf("blocksize", "attribute blocksize is required")
	}
	b, err := intAttr(n, "blocksize", 0, "blocksize")
	return x, b, err
}
