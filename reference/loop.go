// Loop (ONNX Loop 1, 11, 13, 16, 19, 21, 23, 24, 25): "Generic Looping
// construct". The spec's pseudo-code, for inputs (M, cond, v_initial...):
//
//	i = 0; keepgoing = cond (true when absent)
//	while (M absent or i < M) and keepgoing:
//	    keepgoing_out, v..., scan... = body(i, keepgoing, v...)
//	    keepgoing = keepgoing_out when cond is given (or M is absent)
//	    i++
//
// The node's outputs are the final v... and each scan output's values of
// every iteration stacked along a new first axis. The body runs on the
// run's engine. M that is not one int64 breaks [trip-count], cond not one
// bool [cond], a body of the wrong arity [body], scan outputs of changing
// shape [scan-output].

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Loop", []int{1, 11, 13, 16, 19, 21, 23, 24, 25}, loop)
}

func loop(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	m, err := optionalInput(op, in, 0)
	if err != nil {
		return nil, err
	}
	trips := int64(-1)
	if m != nil {
		if m.DataType() != tensor.Int64 || m.Len() != 1 {
			return nil, op.errorf("trip-count", "M must be one int64, got %s", m.Describe())
		}
		v, _ := m.Int64s()
		trips = v[0]
	}
	c, err := optionalInput(op, in, 1)
	if err != nil {
		return nil, err
	}
	keepgoing := true
	if c != nil {
		if keepgoing, err = conditionOf(op, "cond", c); err != nil {
			return nil, err
		}
	}
	g, err := graphAttr(op, n, "body")
	if err != nil {
		return nil, err
	}
	v := append([]tensor.Value{}, in[2:]...)
	for i, x := range v {
		if err := flowKind(op, "loop-carried input", i, x); err != nil {
			return nil, err
		}
	}
	if g.Inputs != 2+len(v) {
		return nil, op.errorf("body", "the body has %d inputs, the node gives %d loop-carried values (the body takes 2 more)", g.Inputs, len(v))
	}
	k := g.Outputs - 1 - len(v)
	if k < 0 {
		return nil, op.errorf("body", "the body has %d outputs, fewer than the condition and %d loop-carried values", g.Outputs, len(v))
	}
	scans := make([][]*tensor.Tensor, k)
	for i := int64(0); (trips < 0 || i < trips) && keepgoing; i++ {
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		args := append([]tensor.Value{tensor.Scalar(i), tensor.Scalar(keepgoing)}, v...)
		out, err := g.Run(opt, args)
		if err != nil {
			return nil, err
		}
		if len(out) != g.Outputs {
			return nil, op.errorf("body", "the body produced %d outputs, it declares %d", len(out), g.Outputs)
		}
		if c != nil || m == nil {
			t, ok := out[0].(*tensor.Tensor)
			if !ok || t == nil {
				return nil, op.errorf("cond", "the body's condition output is not a tensor")
			}
			if keepgoing, err = conditionOf(op, "the body's condition output", t); err != nil {
				return nil, err
			}
		}
		for j, x := range out[1 : 1+len(v)] {
			if err := flowKind(op, "loop-carried output", j, x); err != nil {
				return nil, err
			}
			v[j] = x
		}
		for j, x := range out[1+len(v):] {
			t, err := keepScanElement(opt, op, j, x, scans[j])
			if err != nil {
				return nil, err
			}
			scans[j] = append(scans[j], t)
		}
	}
	res := v
	for j, list := range scans {
		y, err := stackAlong(opt, op, list, 0, g.OutputTypes, 1+len(v)+j)
		if err != nil {
			return nil, err
		}
		res = append(res, y)
	}
	return res, nil
}

// keepScanElement checks one step's scan output j against the steps
// before it and charges the run for keeping it.
func keepScanElement(opt *ops.Options, op opRef, j int, x tensor.Value, before []*tensor.Tensor) (*tensor.Tensor, error) {
	t, ok := x.(*tensor.Tensor)
	if !ok || t == nil || !t.DataType().Valid() {
		return nil, op.errorf("scan-output", "scan output %d is not a tensor", j)
	}
	if len(before) > 0 && (before[0].DataType() != t.DataType() || !tensor.SameShape(before[0].Shape(), t.Shape())) {
		return nil, op.errorf("scan-output", "scan output %d is %s in one iteration and %s in another", j, before[0].Describe(), t.Describe())
	}
	if err := opt.Charge(int64(t.ByteLen()) + 64); err != nil {
		return nil, op.wrap("size", err, "a scan output's element")
	}
	return t, nil
}

// stackAlong returns the tensors of list (one shape) stacked along a new
// axis: y[..., s, ...] = list[s][...], axis in [0, rank] (the callers
// check it). An empty list is an empty tensor of
// the type the body declares for its output out (float when none).
func stackAlong(opt *ops.Options, op opRef, list []*tensor.Tensor, axis int, types []tensor.DataType, out int) (*tensor.Tensor, error) {
	if len(list) == 0 {
		dt := tensor.Float
		if out < len(types) && types[out].Valid() {
			dt = types[out]
		}
		return tensor.New(dt, 0)
	}
	shape := list[0].Shape()
	yshape := append(append(append([]int{}, shape[:axis]...), len(list)), shape[axis:]...)
	y, err := newTensor(opt, op, list[0].DataType(), yshape)
	if err != nil {
		return nil, err
	}
	outer, inner := 1, 1
	for _, d := range shape[:axis] {
		outer *= d
	}
	for _, d := range shape[axis:] {
		inner *= d
	}
	for o := 0; o < outer; o++ {
		for s, t := range list {
			for i := 0; i < inner; i++ {
				copyElement(y, (o*len(list)+s)*inner+i, t, o*inner+i)
			}
		}
	}
	return y, nil
}
