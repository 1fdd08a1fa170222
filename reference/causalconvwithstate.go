// CausalConvWithState, version 27. ONNX Operators.md: "Stateful causal 1D
// depthwise convolution ... The convolution is causal (looks only at
// current and past positions) and depthwise (each channel is convolved
// independently with its own kernel)." As the spec's reference
// (op_causal_conv_with_state.py) writes it: padded = concat(past_state or
// zeros [batch, channels, k-1], input) along the length; output =
// Conv(padded, weight, bias, group = channels, no padding), of the
// input's type; with activation silu or swish, output * sigmoid(output);
// present_state = padded[:, :, -(k-1):]. Types: float, float16, bfloat16.
// Each sum of products is computed in float64 in the order of the taps,
// plus the bias, rounded to float32 and then to the input's type; SiLU is
// computed in float64 on that and rounded the same way.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("CausalConvWithState", []int{27}, causalConvWithState)
}

func causalConvWithState(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	w, err := requiredInput(op, in, 1, "weight")
	if err != nil {
		return nil, err
	}
	bias, err := optionalInput(op, in, 2)
	if err != nil {
		return nil, err
	}
	past, err := optionalInput(op, in, 3)
	if err != nil {
		return nil, err
	}
	act, err := n.Str("activation", "none")
	if err != nil {
		return nil, err
	}
	if act != "none" && act != "silu" && act != "swish" {
		return nil, op.errorf("activation", "activation is %q, expected none, silu or swish", act)
	}
	dt := x.DataType()
	if dt != tensor.Float && dt != tensor.Float16 && dt != tensor.BFloat16 {
		return nil, op.errorf("type", "input is %v; CausalConvWithState takes float, float16 or bfloat16", dt)
	}
	for _, t := range []*tensor.Tensor{w, bias, past} {
		if t != nil && t.DataType() != dt {
			return nil, op.errorf("type", "every input must be of the input's type %v, got %v", dt, t.DataType())
		}
	}
	if x.Rank() != 3 || w.Rank() != 3 {
		return nil, op.errorf("rank", "input %v and weight %v must be 3-D", x.Shape(), w.Shape())
	}
	batch, channels, length := x.Shape()[0], x.Shape()[1], x.Shape()[2]
	k := w.Shape()[2]
	if w.Shape()[0] != channels || w.Shape()[1] != 1 || k < 1 {
		return nil, op.errorf("weight", "weight %v must be [%d, 1, k >= 1]", w.Shape(), channels)
	}
	if bias != nil && !tensor.SameShape(bias.Shape(), []int{channels}) {
		return nil, op.errorf("bias", "bias %v must be [%d]", bias.Shape(), channels)
	}
	if past != nil && !tensor.SameShape(past.Shape(), []int{batch, channels, k - 1}) {
		return nil, op.errorf("past_state", "past_state %v must be [%d, %d, %d]", past.Shape(), batch, channels, k-1)
	}
	y, err := newTensor(opt, op, dt, []int{batch, channels, length})
	if err != nil {
		return nil, err
	}
	present, err := newTensor(opt, op, dt, []int{batch, channels, k - 1})
	if err != nil {
		return nil, err
	}
	xv, _ := x.Float64s()
	wv, _ := w.Float64s()
	var bv, pv []float64
	if bias != nil {
		bv, _ = bias.Float64s()
	}
	if past != nil {
		pv, _ = past.Float64s()
	}
	// padded(b, c, p): position p of the joined sequence, p in [0, length+k-1).
	padded := func(b, c, p int) float64 {
		if p >= k-1 {
			return xv[(b*channels+c)*length+p-(k-1)]
		}
		if pv == nil {
			return 0
		}
		return pv[(b*channels+c)*(k-1)+p]
	}
	for b := range batch {
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		for c := range channels {
			for t := range length {
				sum := 0.0
				for j := range k {
					sum += wv[c*k+j] * padded(b, c, t+j)
				}
				if bv != nil {
					sum += bv[c]
				}
				v := roundAs(dt, sum)
				if act != "none" {
					v = roundAs(dt, v/(1+math.Exp(-v)))
				}
				_ = storeFloat(y, (b*channels+c)*length+t, v)
			}
			for i := range k - 1 {
				copyPadded := padded(b, c, length+i)
				_ = storeFloat(present, (b*channels+c)*(k-1)+i, copyPadded)
			}
		}
	}
	return values(y, present), nil
}

// roundAs rounds v to float32, then to dt when dt is float16 or bfloat16.
func roundAs(dt tensor.DataType, v float64) float64 {
	f := float32(v)
	switch dt {
	case tensor.Float16:
		return float64(tensor.F16FromFloat32(f).Float32())
	case tensor.BFloat16:
		return float64(tensor.BF16FromFloat32(f).Float32())
	}
	return float64(f)
}
