// Upsample (ONNX Upsample 7, 9; 10 deprecates it): the input enlarged by a
// scale per axis, by nearest neighbour or (multi)linear interpolation, as
// Resize-10 computes it (resize.go): output length floor(length*scale),
// asymmetric coordinates (x_original = x_resized / scale), nearest takes
// the floor, linear reads the edge element past the last one. 7 takes the
// scales as an attribute, 9 as an input; a model of opset 10 or later that
// uses Upsample is refused [deprecated]. The rules:
//
//	[scales] one per axis, each >= 1 (Upsample only enlarges)
//	[mode]   nearest or linear
//
// Under SONNX, mode is given (GR4).

package reference

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Upsample", []int{7, 9, 10}, upsample)
}

func upsample(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	if op.version >= 10 {
		return nil, &ops.Error{Op: op.name, Version: op.version, Rule: "deprecated",
			Msg: "Upsample is deprecated from opset 10: use Resize", Err: fmt.Errorf("%w: Upsample at opset 10 or later", ops.ErrUnsupported)}
	}
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	if sonnx(opt) && !n.Has("mode") {
		return nil, op.errorf("GR4", "attribute mode must be given explicitly in the profile")
	}
	mode, err := n.Str("mode", "nearest")
	if err != nil {
		return nil, err
	}
	var scales []float64
	if op.version < 9 {
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
		t, err := requiredInput(op, in, 1, "scales")
		if err != nil {
			return nil, err
		}
		if scales, err = scalesInput(op, t); err != nil {
			return nil, err
		}
	}
	if mode != "nearest" && mode != "linear" { // [mode]
		return nil, op.errorf("mode", "unknown mode %q (nearest or linear)", mode)
	}
	if len(scales) != x.Rank() { // [scales]
		return nil, op.errorf("scales", "scales has %d values, expected one per axis (%d)", len(scales), x.Rank())
	}
	for k, s := range scales {
		if !(s >= 1) {
			return nil, op.errorf("scales", "scale %v of axis %d is below 1", s, k)
		}
	}
	y, err := resizeTensor(opt, op, x, resizeParams{mode: mode, coord: "asymmetric", nearest: "legacy", keepAspect: "stretch", scales: scales})
	if err != nil {
		return nil, err
	}
	return values(y), nil
}
