// SpaceToDepth moves spatial blocks into channels: an input [N, C, H, W]
// becomes [N, C*b*b, H/b, W/b], b = blocksize, the output channel index
// being (row offset in the block, column offset, input channel). It is the
// inverse of DepthToSpace in DCR mode.
//
// Versions: 1 and 13 differ only in the element types they allow. The
// rules, as ONNX states them (SpaceToDepth is outside the SONNX profile):
//
//	[rank]      the input is 4-D
//	[blocksize] blocksize is given and > 0
//	[spatial]   H and W are divisible by blocksize
//
// The kernel is one copy plan: the reshape to rank 6 and the transpose of
// the specification's reference formula, as one permutation (plans.go).

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SpaceToDepth", []int{1, 13}, [2]int{1, 1}, [2]int{1, 1}, spaceToDepthNode)
}

// SpaceToDepthOptions are the parameters of SpaceToDepth.
type SpaceToDepthOptions struct {
	// Blocksize is the side of the blocks moved from space to depth; it is
	// required (> 0).
	Blocksize int
}

// SpaceToDepth rearranges input's spatial blocks into channels (ONNX
// SpaceToDepth, version 13).
func SpaceToDepth(input *tensor.Tensor, o SpaceToDepthOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"SpaceToDepth", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return spaceToDepth(opt, op, input, o.Blocksize)
}

func spaceToDepthNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, b, err := blockInput(n, in)
	if err != nil {
		return nil, err
	}
	y, err := spaceToDepth(opt, op, x, b)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func spaceToDepth(opt *Options, op opRef, x *tensor.Tensor, b int) (*tensor.Tensor, error) {
	if err := checkInput(op, "input", x); err != nil {
		return nil, err
	}
	out, err := spaceToDepthShape(op, x.Shape(), b)
	if err != nil {
		return nil, err
	}
	y, err := opt.orDefault().newOverwritten(op, x.DataType(), out)
	if err != nil {
		return nil, err
	}
	in := x.Shape()
	n, c, h, w := in[0], in[1], in[2]/b, in[3]/b
	if err := movement.PermutePlan([]int{n, c, h, b, w, b}, []int{0, 3, 5, 1, 2, 4}).Run(opt.moves(), y, x); err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}

// spaceToDepthShape checks the rules and returns the output shape.
func spaceToDepthShape(op opRef, in []int, b int) ([]int, error) {
	if len(in) != 4 {
		return nil, op.errorf("rank", "the input has shape %v; it must be 4-D [N, C, H, W]", in)
	}
	if b <= 0 {
		return nil, op.errorf("blocksize", "blocksize is %d; it must be > 0", b)
	}
	if in[2]%b != 0 || in[3]%b != 0 {
		return nil, op.errorf("spatial", "H = %d and W = %d must both be divisible by blocksize %d", in[2], in[3], b)
	}
	c, err := tensor.NumElements([]int{in[1], b, b})
	if err != nil {
		return nil, op.errorf("size", "the output of %v with blocksize %d has more channels than an int can count", in, b)
	}
	return []int{in[0], c, in[2] / b, in[3] / b}, nil
}
