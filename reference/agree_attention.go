package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// attentionBound returns the bound Agree states for Attention, whose fast
// kernel computes in float32 (float64 for double) with Q K^T and P V
// summed in the GEMM engine's order, an online softmax over key tiles and
// exp32, where the reference sums in float64 in the order of the formulas.
// The online softmax sums each row's exponentials tile by tile (512 keys)
// against a running maximum and rescales the sum and the output row by
// exp(m_old - m_new) when a tile raises it: each tile adds one exp32
// (within 2e) and one product (e) to the relative error of the row's sum
// and of its output row, so with t = ceil(T/512) tiles the sums below
// carry 3*t*e beside the (T-1)*e of a sum of T terms in any order.
// With e the computing type's unit roundoff, o the output's, d the head
// size, T the total sequence, S = |scale|*d*max|Q|*max|K| + max|finite
// mask| (a bound on the scores), a score is within (d+4)*e*S, a
// probability within the relative r = 2*(d+4)*e*S + (T+8+3t)*e, an output
// within (r + (T+2+3t)*e + o)*max|V| and a score output within (d+4)*e*S +
// o*S (probabilities: r + o); the bound is four times the largest of
// these. Presents are copies and agree bit for bit.
func attentionBound(n *ops.Node, in []tensor.Value, dt tensor.DataType) (float64, bool) {
	if n.OpType != "Attention" || len(in) < 3 {
		return 0, false
	}
	var t [4]*tensor.Tensor
	for i := range t {
		if i < len(in) {
			t[i], _ = in[i].(*tensor.Tensor)
		}
	}
	if t[0] == nil || t[1] == nil || t[2] == nil {
		return 0, false
	}
	maxAbs := func(x *tensor.Tensor) float64 {
		if x == nil || x.DataType() == tensor.Bool {
			return 0
		}
		v, err := x.Float64s()
		if err != nil {
			return 0
		}
		m := 0.0
		for _, f := range v {
			if !math.IsInf(f, 0) && !math.IsNaN(f) {
				m = max(m, math.Abs(f))
			}
		}
		return m
	}
	q := t[0]
	d := q.Shape()[q.Rank()-1]
	if q.Rank() == 3 {
		if h, _ := n.Int("q_num_heads", 0); h > 0 {
			d /= int(h)
		}
	}
	total := t[1].Shape()[1]
	if t[1].Rank() == 4 {
		total = t[1].Shape()[2]
	}
	if len(in) > 4 {
		if pk, ok := in[4].(*tensor.Tensor); ok && pk != nil && pk.Rank() == 4 {
			total += pk.Shape()[2]
		}
	}
	scale := 1 / math.Sqrt(float64(max(d, 1)))
	if n.Has("scale") {
		scale = math.Abs(float64(attrFloat(n, "scale", 0)))
	}
	e := 0x1p-24
	if q.DataType() == tensor.Double {
		e = 0x1p-53
	}
	var o float64
	switch dt {
	case tensor.Float:
		o = 0x1p-24
	case tensor.Double:
		o = 0x1p-53
	case tensor.Float16:
		o = 0x1p-11
	case tensor.BFloat16:
		o = 0x1p-8
	default:
		return 0, false
	}
	s := scale*float64(d)*maxAbs(t[0])*maxAbs(t[1]) + maxAbs(t[3])
	df, tf := float64(d), float64(total)
	tiles := math.Ceil(tf / 512)
	r := 2*(df+4)*e*s + (tf+8+3*tiles)*e
	bound := max((r+(tf+2+3*tiles)*e+o)*maxAbs(t[2]), (df+4)*e*s+o*s, r+o)
	return 4 * bound, true
}

// flexAttentionBound returns the bound Agree states for FlexAttention
// (ai.onnx.preview), whose fast kernel sums Q K^T and P V in float32
// (float64 when Q or the softmax precision is double) in the GEMM
// engine's order, with exp32, where the reference sums in float64; both
// round to Q's type and the precision's at the same points. With e the
// computing type's unit roundoff, u the largest of Q's type's and the
// precision's (a value the engines compute a little apart may round to
// neighbours there), o the output's, d the head size, S the keys and s =
// |scale|*d*max|Q|*max|K|: a score is within (d+4)*e*s + 2*u*s, a
// probability within the relative r = 2*that + (S+8)*e + 2*u, and an
// output within (r + (S+2)*e + 2*u + o)*max|V|; the bound is four times
// that. It holds for modifiers that move no score or probability further
// apart than they were (masks, added constants: those the tests use),
// not for any subgraph.
func flexAttentionBound(n *ops.Node, in []tensor.Value, dt tensor.DataType) (float64, bool) {
	if n.OpType != "FlexAttention" || len(in) < 3 {
		return 0, false
	}
	var t [3]*tensor.Tensor
	for i := range t {
		t[i], _ = in[i].(*tensor.Tensor)
		if t[i] == nil || t[i].Rank() != 4 {
			return 0, false
		}
	}
	maxAbs := func(x *tensor.Tensor) float64 {
		v, err := x.Float64s()
		if err != nil {
			return 0
		}
		m := 0.0
		for _, f := range v {
			if !math.IsInf(f, 0) && !math.IsNaN(f) {
				m = max(m, math.Abs(f))
			}
		}
		return m
	}
	unit := func(dt tensor.DataType) float64 {
		switch dt {
		case tensor.Double:
			return 0x1p-53
		case tensor.Float16:
			return 0x1p-11
		case tensor.BFloat16:
			return 0x1p-8
		}
		return 0x1p-24
	}
	qt := t[0].DataType()
	precision := tensor.Float
	if qt == tensor.Double {
		precision = tensor.Double
	}
	if p, _ := n.Int("softmax_precision", 0); n.Has("softmax_precision") {
		precision = tensor.DataType(p)
	}
	e := 0x1p-24
	if qt == tensor.Double || precision == tensor.Double {
		e = 0x1p-53
	}
	u := max(unit(qt), unit(precision))
	d, keys := float64(t[0].Shape()[3]), float64(t[1].Shape()[2])
	scale := 1 / math.Sqrt(max(d, 1))
	if n.Has("scale") {
		scale = math.Abs(float64(attrFloat(n, "scale", 0)))
	}
	s := scale * d * maxAbs(t[0]) * maxAbs(t[1])
	score := (d+4)*e*s + 2*u*s
	r := 2*score + (keys+8)*e + 2*u
	return 4 * (r + (keys+2)*e + 2*u + unit(dt)) * maxAbs(t[2]), true
}
