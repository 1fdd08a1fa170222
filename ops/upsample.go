// Upsample enlarges a tensor by a scale per axis, by nearest-neighbour or
// (multi)linear interpolation. It is the predecessor of Resize.
//
// Versions: 7 takes the scales as an attribute, 9 as an input; both allow
// modes nearest and linear. Version 10 deprecates the operator in favour of
// Resize-10 (which has the same semantics): a model of opset 10 or later
// that uses it is refused. The output length is floor(length * scale); the
// coordinates are asymmetric (x_original = x_resized / scale), nearest takes
// the floor and linear reads the edge element past the last one, as Resize-10
// does; the ONNX reference implements nearest with integer scales only, by
// repetition, which these rules reproduce. The constraints:
//
//	[scales] one per axis, each >= 1 (Upsample only enlarges)
//	[mode]   nearest or linear

package ops

import (
	"fmt"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Upsample", []int{7}, [2]int{1, 1}, [2]int{1, 1}, upsampleNode)
	register("Upsample", []int{9}, [2]int{2, 2}, [2]int{1, 1}, upsampleNode)
	register("Upsample", []int{10}, [2]int{2, 2}, [2]int{1, 1}, upsampleDeprecated)
}

// UpsampleOptions are the parameters of Upsample.
type UpsampleOptions struct {
	// Mode is "nearest" (the default when empty) or "linear".
	Mode string
	// Scales holds one factor >= 1 per axis of x.
	Scales []float32
}

// Upsample returns x enlarged as o says (ONNX Upsample, version 9).
func Upsample(x *tensor.Tensor, o UpsampleOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Upsample", 9}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	scales := make([]float64, len(o.Scales))
	for i, s := range o.Scales {
		scales[i] = float64(s)
	}
	return upsample(opt, op, nil, x, orString(o.Mode, "nearest"), scales)
}

func upsampleNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	if opt.orDefault().Profile == ProfileSONNX && !n.Has("mode") {
		return nil, op.errorf("GR4", "attribute mode must be given explicitly in the profile (ONNX's default is nearest)")
	}
	mode, err := n.Str("mode", "nearest")
	if err != nil {
		return nil, err
	}
	var scales []float64
	if n.Version < 9 {
		s, ok, err := n.Floats("scales")
		if err != nil {
			return nil, err
		} else if !ok {
			return nil, op.errorf("scales", "attribute scales is required")
		}
		for _, v := range s {
			scales = append(scales, float64(v))
		}
	} else {
		t, err := n.requiredInput(in, 1, "scales")
		if err != nil {
			return nil, err
		}
		if scales, err = resizeScalesInput(op, t); err != nil {
			return nil, err
		}
	}
	y, err := upsample(opt, op, n, x, mode, scales)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

func upsampleDeprecated(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	return nil, &Error{Op: n.OpType, Version: n.Version, Rule: "deprecated",
		Msg: "Upsample is deprecated from opset 10: use Resize", Err: fmt.Errorf("%w: Upsample at opset 10 or later", ErrUnsupported)}
}

// upsampleParams checks Upsample's constraints and returns the Resize-10
// parameters that compute it.
func upsampleParams(op opRef, rank int, mode string, scales []float64) (resizeParams, error) {
	if mode != "nearest" && mode != "linear" {
		return resizeParams{}, op.errorf("mode", "unknown mode %q (nearest or linear)", mode)
	}
	if len(scales) != rank {
		return resizeParams{}, op.errorf("scales", "scales has %d values, expected one per axis (%d)", len(scales), rank)
	}
	for k, s := range scales {
		if !(s >= 1) {
			return resizeParams{}, op.errorf("scales", "scale %v of axis %d is below 1", s, k)
		}
	}
	return resizeParams{mode: mode, coord: "asymmetric", nearest: "legacy", keepAspect: "stretch", scales: scales}, nil
}

// upsampleShape returns the output shape of Upsample.
func upsampleShape(op opRef, in []int, mode string, scales []float64) ([]int, error) {
	p, err := upsampleParams(op, len(in), mode, scales)
	if err != nil {
		return nil, err
	}
	return resizeShape(op, in, p)
}

// upsample is Upsample on x; n, when not nil, is the node (it keeps its
// plans between runs, as Resize's).
func upsample(opt *Options, op opRef, n *Node, x *tensor.Tensor, mode string, scales []float64) (*tensor.Tensor, error) {
	if err := checkInput(op, "X", x); err != nil {
		return nil, err
	}
	p, err := upsampleParams(op, x.Rank(), mode, scales)
	if err != nil {
		return nil, err
	}
	return resize(opt, op, n, x, p)
}
