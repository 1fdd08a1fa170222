// CausalConvWithState is a causal, depthwise 1-D convolution that carries
// its left context between calls (Gated DeltaNet's and Mamba's short
// convolution): the input [batch, channels, length] is joined after
// past_state [batch, channels, k-1] (zeros when absent), each channel is
// convolved with its own kernel weight[c, 0, :] over the joined sequence
// without padding, bias[c] is added, and activation "silu" (or its alias
// "swish") maps y to y * sigmoid(y). present_state is the last k-1
// positions of the joined sequence (past values or zeros when the input is
// shorter than k-1).
//
// Versions: 27. Types: float, float16, bfloat16, all inputs of one type.
// The rules, in order: [activation] none, silu or swish; [type]; [rank]
// input and weight 3-D; [weight] [channels, 1, k] with k >= 1; [bias]
// [channels]; [past_state] [batch, channels, k-1].
//
// Each output element is the sum of its k products in float64, in the
// order of the taps, plus the bias, rounded to float32 and then to the
// input's type (the spec's Conv output is of the input's type); the
// activation is computed on that value in float64 and rounded the same
// way. The reference engine computes the same expressions, so the two
// agree bit for bit. The work is a few multiply-adds per element, done
// directly (no lowering to gemm, which a depthwise kernel of a few taps
// would not profit from).

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("CausalConvWithState", []int{27}, [2]int{2, 4}, [2]int{1, 2}, causalConvWithStateNode)
	declareAttrs("CausalConvWithState", AttrSpec{Name: "activation", Type: AttrString})
}

// CausalConvWithStateOptions are CausalConvWithState's attributes; the
// zero value is the ONNX default (no activation).
type CausalConvWithStateOptions struct {
	Activation string // "none" (or ""), "silu" or "swish"
}

// CausalConvWithState runs the causal depthwise convolution (ONNX
// CausalConvWithState, version 27) and returns the output and the present
// state; bias and pastState may be nil.
func CausalConvWithState(input, weight, bias, pastState *tensor.Tensor, o CausalConvWithStateOptions, opts ...Option) (y, present *tensor.Tensor, err error) {
	op := opRef{"CausalConvWithState", 27}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, nil, err
	}
	for _, in := range []struct {
		name string
		t    *tensor.Tensor
	}{{"input", input}, {"weight", weight}} {
		if err := checkInput(op, in.name, in.t); err != nil {
			return nil, nil, err
		}
	}
	act := o.Activation
	if act == "" {
		act = "none"
	}
	return causalConvWithState(opt, op, input, weight, bias, pastState, act)
}

func causalConvWithStateNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	w, err := n.requiredInput(in, 1, "weight")
	if err != nil {
		return nil, err
	}
	bias, err := n.tensorInput(in, 2)
	if err != nil {
		return nil, err
	}
	past, err := n.tensorInput(in, 3)
	if err != nil {
		return nil, err
	}
	act, err := n.Str("activation", "none")
	if err != nil {
		return nil, err
	}
	y, present, err := causalConvWithState(opt, n.op(), x, w, bias, past, act)
	if err != nil {
		return nil, err
	}
	return values(y, present), nil
}

// causalConvShape is a checked CausalConvWithState call.
type causalConvShape struct {
	batch, channels, length, k int
	silu                       bool
}

// causalConvCheck checks the operands in the order of the rules.
func causalConvCheck(op opRef, x, w, bias, past *tensor.Tensor, act string) (causalConvShape, error) {
	var s causalConvShape
	switch act {
	case "none":
	case "silu", "swish":
		s.silu = true
	default:
		return s, op.errorf("activation", "activation is %q, expected none, silu or swish", act)
	}
	dt := x.DataType()
	if dt != tensor.Float && dt != tensor.Float16 && dt != tensor.BFloat16 {
		return s, op.errorf("type", "input is %v; CausalConvWithState takes float, float16 or bfloat16", dt)
	}
	for _, r := range []struct {
		name string
		t    *tensor.Tensor
	}{{"weight", w}, {"bias", bias}, {"past_state", past}} {
		if r.t != nil && r.t.DataType() != dt {
			return s, op.errorf("type", "%s is %v, expected the input's type %v", r.name, r.t.DataType(), dt)
		}
	}
	if x.Rank() != 3 || w.Rank() != 3 {
		return s, op.errorf("rank", "input %v and weight %v must be 3-D", x.Shape(), w.Shape())
	}
	xs, ws := x.Shape(), w.Shape()
	s.batch, s.channels, s.length, s.k = xs[0], xs[1], xs[2], ws[2]
	if ws[0] != s.channels || ws[1] != 1 || s.k < 1 {
		return s, op.errorf("weight", "weight %v must be [channels %d, 1, k >= 1]", ws, s.channels)
	}
	if bias != nil && !tensor.SameShape(bias.Shape(), []int{s.channels}) {
		return s, op.errorf("bias", "bias %v must be [%d]", bias.Shape(), s.channels)
	}
	if past != nil && !tensor.SameShape(past.Shape(), []int{s.batch, s.channels, s.k - 1}) {
		return s, op.errorf("past_state", "past_state %v must be [%d, %d, %d]", past.Shape(), s.batch, s.channels, s.k-1)
	}
	return s, nil
}

// causalConvOutputShapes returns the shapes of output and present_state.
func causalConvOutputShapes(s causalConvShape) (y, present []int) {
	return []int{s.batch, s.channels, s.length}, []int{s.batch, s.channels, s.k - 1}
}

func causalConvWithState(opt *Options, op opRef, x, w, bias, past *tensor.Tensor, act string) (*tensor.Tensor, *tensor.Tensor, error) {
	opt = opt.orDefault()
	s, err := causalConvCheck(op, x, w, bias, past, act)
	if err != nil {
		return nil, nil, err
	}
	dt := x.DataType()
	yShape, pShape := causalConvOutputShapes(s)
	y, err := opt.newOverwritten(op, dt, yShape)
	if err != nil {
		return nil, nil, err
	}
	present, err := opt.newOverwritten(op, dt, pShape)
	if err != nil {
		return nil, nil, err
	}
	causalConvPresent(s, x, past, present)
	load := func(t *tensor.Tensor) ([]float32, error) {
		if t == nil {
			return nil, nil
		}
		if dt != tensor.Float {
			if err := opt.scratch(op, "an input in float32", t.Len(), 4); err != nil {
				return nil, err
			}
		}
		return convert.LoadFloatsPolled[float32](opt.env.Ctx, t)
	}
	xs, err := load(x)
	if err != nil {
		return nil, nil, err
	}
	ws, err := load(w)
	if err != nil {
		return nil, nil, err
	}
	bs, err := load(bias)
	if err != nil {
		return nil, nil, err
	}
	ps, err := load(past)
	if err != nil {
		return nil, nil, err
	}
	ys, flush, err := attentionOut[float32](opt, op, y)
	if err != nil {
		return nil, nil, err
	}
	k, l := s.k, s.length
	err = parallelRange(opt, s.batch*s.channels, s.batch*s.channels*l*k, func(lo, hi int) error {
		c := opt.canceller()
		for r := lo; r < hi; r++ {
			if c.Stop(l * k) {
				return op.stopped(c.Err)
			}
			ch := r % s.channels
			kern := ws[ch*k : ch*k+k]
			row := xs[r*l : r*l+l]
			var prev []float32 // the k-1 positions before the row
			if ps != nil {
				prev = ps[r*(k-1) : r*(k-1)+k-1]
			}
			b := 0.0
			if bs != nil {
				b = float64(bs[ch])
			}
			out := ys[r*l : r*l+l]
			for t := range l {
				// Output t reads joined positions t..t+k-1, joined position
				// p being prev[p] for p < k-1 and row[p-(k-1)] after.
				sum := 0.0
				for j := range k {
					p := t + j
					var v float32
					if p >= k-1 {
						v = row[p-(k-1)]
					} else if prev != nil {
						v = prev[p]
					}
					sum += float64(kern[j]) * float64(v)
				}
				out[t] = causalConvValue(dt, sum+b, s.silu)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	flush()
	return y, present, nil
}

// causalConvValue rounds a convolution sum to dt (through float32) and
// applies SiLU when asked, rounding its result the same way.
func causalConvValue(dt tensor.DataType, sum float64, silu bool) float32 {
	v := float32(convert.RoundToType(dt, float64(float32(sum))))
	if !silu {
		return v
	}
	f := float64(v)
	return float32(convert.RoundToType(dt, float64(float32(f/(1+math.Exp(-f))))))
}

// causalConvPresent copies the last k-1 joined positions of every row
// into present: from past (or zeros) while the input is shorter, then
// the input's last ones. It moves bytes: the types are the input's.
func causalConvPresent(s causalConvShape, x, past, present *tensor.Tensor) {
	size := x.DataType().Size()
	k1, l := s.k-1, s.length
	xb, pb := x.Bytes(), present.Bytes()
	var qb []byte
	if past != nil {
		qb = past.Bytes()
	}
	for r := range s.batch * s.channels {
		for i := range k1 {
			p := l + i // the joined position of present's element i
			dst := pb[(r*k1+i)*size:][:size]
			switch {
			case p >= k1:
				copy(dst, xb[(r*l+p-k1)*size:][:size])
			case qb != nil:
				copy(dst, qb[(r*k1+p)*size:][:size])
			default:
				clear(dst)
			}
		}
	}
}
