// FlexAttention, version 1 of domain ai.onnx.preview. ONNX
// Operators.md: "Computes scaled dot-product attention over rank-4
// (batched, multi-head) inputs, with optional user-provided customization
// subgraphs at two stages":
//
//	Scores = (Q @ K^T) * scale
//	Scores = score_mod(Scores)             # if 'score_mod' is provided
//	Probs = Softmax(Scores, axis=-1)
//	Probs = prob_mod(Probs)                # if 'prob_mod' is provided
//	Y = Probs @ V
//
// As the spec's function body and reference (op_flex_attention.py) write
// it: query head h reads key/value head h / (Hq/Hkv); scale defaults to
// 1/sqrt(E); Q and K are each multiplied by sqrt(scale) (float32, cast to
// Q's type) in Q's type; the scores are Q's type, cast to the softmax
// precision's (float, or double for double inputs, unless
// softmax_precision says otherwise), which the modifiers, the softmax
// (exp(x - max) / sum) and the product with V (cast to it) keep; Y is
// cast back to Q's type. Sums are float64, rounded to the type at each of
// those points.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn("ai.onnx.preview", "FlexAttention", []int{1}, flexAttention)
}

func flexAttention(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	var q, k, v *tensor.Tensor
	var err error
	for i, p := range []**tensor.Tensor{&q, &k, &v} {
		if *p, err = requiredInput(op, in, i, []string{"Q", "K", "V"}[i]); err != nil {
			return nil, err
		}
	}
	dt := q.DataType()
	if dt != tensor.Float && dt != tensor.Float16 && dt != tensor.Double && dt != tensor.BFloat16 {
		return nil, op.errorf("type", "Q is %v", dt)
	}
	if k.DataType() != dt || v.DataType() != dt {
		return nil, op.errorf("type", "Q, K and V must share one type")
	}
	if q.Rank() != 4 || k.Rank() != 4 || v.Rank() != 4 {
		return nil, op.errorf("rank", "Q, K and V must be 4-D")
	}
	B, Hq, L, E := q.Shape()[0], q.Shape()[1], q.Shape()[2], q.Shape()[3]
	Hkv, S, Ev := k.Shape()[1], k.Shape()[2], v.Shape()[3]
	if k.Shape()[0] != B || v.Shape()[0] != B || v.Shape()[1] != Hkv || v.Shape()[2] != S || k.Shape()[3] != E ||
		(Hkv == 0 && Hq != 0) || (Hkv != 0 && Hq%Hkv != 0) {
		return nil, op.errorf("shape", "Q %v, K %v and V %v disagree", q.Shape(), k.Shape(), v.Shape())
	}
	precision := tensor.Float
	if dt == tensor.Double {
		precision = tensor.Double
	}
	if n.Has("softmax_precision") {
		p, err := n.Int("softmax_precision", 0)
		if err != nil {
			return nil, err
		}
		switch tensor.DataType(p) {
		case tensor.Float, tensor.Float16, tensor.Double, tensor.BFloat16:
			precision = tensor.DataType(p)
		default:
			return nil, op.errorf("softmax_precision", "softmax_precision is %d", p)
		}
	}
	var mods [2]*ops.Subgraph
	for i, name := range []string{"score_mod", "prob_mod"} {
		if mods[i], err = n.GraphAttr(name); err != nil {
			return nil, err
		}
		if g := mods[i]; g != nil && (g.Run == nil || g.Inputs != 1 || g.Outputs != 1) {
			return nil, op.errorf(name, "%s must be a graph of one input and one output", name)
		}
	}
	scale := 1 / math.Sqrt(float64(E))
	if n.Has("scale") {
		s, err := n.Float("scale", 0)
		if err != nil {
			return nil, err
		}
		scale = float64(s)
	}
	y, err := newTensor(opt, op, dt, []int{B, Hq, L, Ev})
	if err != nil {
		return nil, err
	}
	qv, _ := q.Float64s()
	kv, _ := k.Float64s()
	vv, _ := v.Float64s()
	sqrtScale := roundFlex(dt, float64(float32(math.Sqrt(float64(float32(scale))))))
	group := 1
	if Hkv > 0 {
		group = Hq / Hkv
	}
	// Scores = (Q*sqrt(scale)) @ (K*sqrt(scale))^T in Q's type, then cast.
	scores := make([]float64, B*Hq*L*S)
	for b := range B {
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		for h := range Hq {
			for i := range L {
				for j := range S {
					sum := 0.0
					for e := range E {
						qe := roundFlex(dt, qv[((b*Hq+h)*L+i)*E+e]*sqrtScale)
						ke := roundFlex(dt, kv[((b*Hkv+h/group)*S+j)*E+e]*sqrtScale)
						sum += qe * ke
					}
					scores[((b*Hq+h)*L+i)*S+j] = roundFlex(precision, roundFlex(dt, sum))
				}
			}
		}
	}
	shape := []int{B, Hq, L, S}
	if scores, err = flexMod(opt, op, "score_mod", mods[0], precision, shape, scores); err != nil {
		return nil, err
	}
	// Softmax over the keys: exp(x - max) / sum, in the precision's type.
	for r := range B * Hq * L {
		row := scores[r*S : (r+1)*S]
		m := math.Inf(-1)
		for _, x := range row {
			if x > m || math.IsNaN(x) {
				m = x
			}
		}
		sum := 0.0
		for j, x := range row {
			row[j] = math.Exp(x - m)
			sum += row[j]
		}
		for j := range row {
			row[j] = roundFlex(precision, row[j]/sum)
		}
	}
	if scores, err = flexMod(opt, op, "prob_mod", mods[1], precision, shape, scores); err != nil {
		return nil, err
	}
	// Y = Probs @ V, V cast to the precision's type; Y cast back.
	for b := range B {
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		for h := range Hq {
			for i := range L {
				for e := range Ev {
					sum := 0.0
					for j := range S {
						sum += scores[((b*Hq+h)*L+i)*S+j] * roundFlex(precision, vv[((b*Hkv+h/group)*S+j)*Ev+e])
					}
					_ = storeFloat(y, ((b*Hq+h)*L+i)*Ev+e, roundFlex(precision, sum))
				}
			}
		}
	}
	return values(y), nil
}

// flexMod runs modifier g (nil for none) on the tensor of type dt and
// shape holding x and returns its output's elements.
func flexMod(opt *ops.Options, op opRef, name string, g *ops.Subgraph, dt tensor.DataType, shape []int, x []float64) ([]float64, error) {
	if g == nil {
		return x, nil
	}
	t, err := newTensor(opt, op, dt, shape)
	if err != nil {
		return nil, err
	}
	for i, v := range x {
		_ = storeFloat(t, i, v)
	}
	out, err := g.Run(opt, []tensor.Value{t})
	if err != nil {
		return nil, err
	}
	var r tensor.Value
	if len(out) == 1 {
		r = out[0]
	}
	res, ok := r.(*tensor.Tensor)
	if !ok || res == nil || res.DataType() != dt || !tensor.SameShape(res.Shape(), shape) {
		return nil, op.errorf(name, "%s must produce one %v tensor of shape %v", name, dt, shape)
	}
	return res.Float64s()
}

// roundFlex rounds v to dt (double: v itself).
func roundFlex(dt tensor.DataType, v float64) float64 {
	if dt == tensor.Double {
		return v
	}
	return roundAs(dt, v)
}
