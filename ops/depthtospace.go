// DepthToSpace moves blocks of channels into space: an input [N, C, H, W]
// becomes [N, C/(b*b), H*b, W*b], b = blocksize. In DCR mode (depth, column,
// row) the channel index splits as [b, b, C/(b*b)], in CRD mode as
// [C/(b*b), b, b]; the block's row and column offsets then go beside H and W.
//
// Versions: 1 has DCR only (a node that sets mode is refused, rule
// [attribute]); 11 adds mode (DCR, the default, or CRD); 13 only widens the
// element types. The rules, as ONNX states them (DepthToSpace is outside the
// SONNX profile):
//
//	[rank]      the input is 4-D
//	[blocksize] blocksize is given and > 0
//	[mode]      mode is DCR or CRD
//	[channels]  C is divisible by blocksize*blocksize
//
// The kernel is one copy plan: the reshape to rank 6 and the transpose of
// the specification's reference formula, as one permutation (plans.go).

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("DepthToSpace", []int{1, 11, 13}, [2]int{1, 1}, [2]int{1, 1}, depthToSpaceNode)
}

// DepthToSpaceOptions are the parameters of DepthToSpace.
type DepthToSpaceOptions struct {
	// Blocksize is the side of the blocks moved from depth to space; it is
	// required (> 0).
	Blocksize int
	// Mode is "DCR" (the default when empty) or "CRD".
	Mode string
}

// DepthToSpace rearranges input's channels into spatial blocks (ONNX
// DepthToSpace, version 13).
func DepthToSpace(input *tensor.Tensor, o DepthToSpaceOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"DepthToSpace", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	mode := o.Mode
	if mode == "" {
		mode = "DCR"
	}
	return depthToSpace(opt, op, input, o.Blocksize, mode)
}

func depthToSpaceNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, b, err := blockInput(n, in)
	if err != nil {
		return nil, err
	}
	mode := "DCR"
	if n.Version < 11 {
		if n.Has("mode") {
			return nil, op.errorf("attribute", "attribute mode exists from version 11 on")
		}
	} else if mode, err = n.Str("mode", "DCR"); err != nil {
		return nil, err
	}
	y, err := depthToSpace(opt, op, x, b, mode)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func depthToSpace(opt *Options, op opRef, x *tensor.Tensor, b int, mode string) (*tensor.Tensor, error) {
	if err := checkInput(op, "input", x); err != nil {
		return nil, err
	}
	out, err := depthToSpaceShape(op, x.Shape(), b, mode)
	if err != nil {
		return nil, err
	}
	y, err := opt.orDefault().newOverwritten(op, x.DataType(), out)
	if err != nil {
		return nil, err
	}
	in := x.Shape()
	n, c, h, w := in[0], in[1]/(b*b), in[2], in[3]
	var plan movement.Plan
	if mode == "DCR" {
		plan = movement.PermutePlan([]int{n, b, b, c, h, w}, []int{0, 3, 4, 1, 5, 2})
	} else {
		plan = movement.PermutePlan([]int{n, c, b, b, h, w}, []int{0, 1, 4, 2, 5, 3})
	}
	if err := plan.Run(opt.moves(), y, x); err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}

// depthToSpaceShape checks the rules and returns the output shape.
func depthToSpaceShape(op opRef, in []int, b int, mode string) ([]int, error) {
	if len(in) != 4 {
		return nil, op.errorf("rank", "the input has shape %v; it must be 4-D [N, C, H, W]", in)
	}
	if b <= 0 {
		return nil, op.errorf("blocksize", "blocksize is %d; it must be > 0", b)
	}
	if mode != "DCR" && mode != "CRD" {
		return nil, op.errorf("mode", "mode is %q; it must be DCR or CRD", mode)
	}
	bb, err := tensor.NumElements([]int{b, b})
	if err != nil || in[1]%bb != 0 {
		return nil, op.errorf("channels", "C = %d is not divisible by blocksize*blocksize = %d*%d", in[1], b, b)
	}
	h, errH := tensor.NumElements([]int{in[2], b})
	w, errW := tensor.NumElements([]int{in[3], b})
	if errH != nil || errW != nil {
		return nil, op.errorf("size", "the output of %v with blocksize %d has more elements than an int can count", in, b)
	}
	return []int{in[0], in[1] / bb, h, w}, nil
}
