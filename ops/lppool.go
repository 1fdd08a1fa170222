// LpPool slides a window over the spatial axes of X (N x C x D1 x ... x
// Dn) and writes the p-norm of each window, (sum of |x|^p)^(1/p); padding
// adds nothing. The window geometry and the sums are
// ops/internal/window's.
//
// Versions: 1 (p a float, default 2.0), 2 (p an int, default 2), 11 (no
// change we see), 18 (ceil_mode, dilations), 22 (bfloat16). Types:
// float16, float, double, bfloat16; float16 and bfloat16 are computed in
// float32, each |x|^p in float64 rounded to the computing type.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/window"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("LpPool", []int{1, 2, 11, 18, 22}, [2]int{1, 1}, [2]int{1, 1}, lpPoolNode)
	declareAttrs("LpPool",
		AttrSpec{Name: "auto_pad", Type: AttrString},
		AttrSpec{Name: "kernel_shape", Type: AttrInts},
		AttrSpec{Name: "pads", Type: AttrInts},
		AttrSpec{Name: "strides", Type: AttrInts},
		AttrSpec{Name: "p", Type: AttrFloat, Before: 2},
		AttrSpec{Name: "p", Type: AttrInt, From: 2},
		AttrSpec{Name: "ceil_mode", Type: AttrInt, From: 18},
		AttrSpec{Name: "dilations", Type: AttrInts, From: 18})
}

func lpPoolNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	a, err := readPoolAttrs(n, n.Version >= 18, n.Version >= 18)
	if err != nil {
		return nil, err
	}
	p, err := lpPoolP(n)
	if err != nil {
		return nil, err
	}
	y, err := averagePool(opt, n.op(), nil, x, a, window.Pool{Lp: true, P: p})
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// lpPoolP reads the attribute p of LpPool and GlobalLpPool: a float in
// version 1, an int from version 2, default 2 in both; it must be positive.
func lpPoolP(n *Node) (float64, error) {
	var p float64
	if n.Version < 2 {
		f, err := n.Float("p", 2)
		if err != nil {
			return 0, err
		}
		p = float64(f)
	} else {
		i, err := n.Int("p", 2)
		if err != nil {
			return 0, err
		}
		p = float64(i)
	}
	if !(p > 0) || math.IsInf(p, 0) {
		return 0, n.op().errorf("p", "p is %v, expected a positive number", p)
	}
	return p, nil
}
