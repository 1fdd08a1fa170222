package infer

import (
	"github.com/onnxshape/onnxshape/graph"
	"math"
	"strings"

	"github.com/onnxshape/onnxshape/tensor"
)

// Operators onnxshape may not run, followed by their ONNX shape rules
// alone: matrix products, normalizations, recurrent layers, Einsum,
// quantization, resizing, and the operators whose output size depends on
// the data (NonZero, Unique, TopK with a run-time k, Compress,
// NonMaxSuppression), whose unknown sizes get fresh symbols.

func init() {
	register(matMulRule, "MatMul", "MatMulInteger", "QLinearMatMul")
	register(gemmRule, "Gemm")
	register(batchNormRule, "BatchNormalization")
	register(unary(nil), "InstanceNormalization", "GroupNormalization")
	register(layerNormRule, "LayerNormalization")
	// TensorScatter writes the update into a copy of the cache: the
	// cache's type and shape.
	register(func(c *call, in []*Value) ([]*Value, error) { return []*Value{same(input(in, 0))}, nil }, "TensorScatter")
	register(rnnRule, "RNN", "GRU", "LSTM")
	register(einsumRule, "Einsum")
	register(quantizeRule, "QuantizeLinear")
	register(dequantizeRule, "DequantizeLinear")
	register(dynamicQuantizeRule, "DynamicQuantizeLinear")
	register(topKRule, "TopK")
	register(nonZeroRule, "NonZero")
	register(uniqueRule, "Unique")
	register(compressRule, "Compress")
	register(nmsRule, "NonMaxSuppression")
	register(resizeRule, "Resize", "Upsample")
	register(detRule, "Det")
	register(unary(nil), "LpNormalization", "CumProd", "RotaryEmbedding")
	register(boolOut(unary(nil)), "RegexFullMatch")
	register(rmsNormRule, "RMSNormalization")
	register(lossRule, "NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss")
	register(gridSampleRule, "GridSample")
	register(windowFunctionRule, "HannWindow", "HammingWindow", "BlackmanWindow")
}

// rmsNormRule: Y has X's shape and scale's type (V); RMSNormalization-23
// has no other output.
func rmsNormRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() >= 0 {
		if _, err := c.normAxis(c.int("axis", -1), x.Rank()); err != nil {
			return nil, err
		}
	}
	y := same(x)
	if dt := typeOf(in, 1); dt != tensor.Undefined {
		y.Type = dt
	}
	return []*Value{y}, nil
}

// lossRule: the loss is the target's shape with reduction "none", a scalar
// otherwise; SoftmaxCrossEntropyLoss's log_prob has the scores' shape.
func lossRule(c *call, in []*Value) ([]*Value, error) {
	loss := ranked(typeOf(in, 0), []graph.Dim{})
	if c.str("reduction", "mean") == "none" {
		loss = withType(input(in, 1), typeOf(in, 0))
	}
	return []*Value{loss, same(input(in, 0))}, nil
}

// gridSampleRule: [N, C, grid's spatial sizes...].
func gridSampleRule(c *call, in []*Value) ([]*Value, error) {
	x, grid := input(in, 0), input(in, 1)
	if x.Rank() < 2 || grid.Rank() < 2 {
		return []*Value{Unknown(typeOf(in, 0))}, nil
	}
	shape := append([]graph.Dim{x.Shape[0], x.Shape[1]}, grid.Shape[1:grid.Rank()-1]...)
	return []*Value{ranked(x.Type, shape)}, nil
}

// windowFunctionRule: a 1-D window of the given size, of output_datatype.
func windowFunctionRule(c *call, in []*Value) ([]*Value, error) {
	dt := tensor.DataType(c.int("output_datatype", int64(tensor.Float)))
	n := c.fresh()
	if s := input(in, 0); s != nil && len(s.Elems) == 1 {
		n = s.Elems[0]
	}
	return []*Value{ranked(dt, []graph.Dim{n})}, nil
}

// matMulRule: numpy matmul: [..., M, K] x [..., K, N] -> [..., M, N], the
// batch dimensions broadcast, a 1-D operand promoted then dropped.
func matMulRule(c *call, in []*Value) ([]*Value, error) {
	a, b := input(in, 0), input(in, 1)
	dt := typeOf(in, 0)
	switch c.node.OpType {
	case "MatMulInteger":
		dt = tensor.Int32
	case "QLinearMatMul":
		b = input(in, 3)
		dt = typeOf(in, 7)
	}
	if a.Rank() < 1 || b.Rank() < 1 {
		if a.Rank() == 0 || b.Rank() == 0 {
			return nil, c.errorf("rank", "MatMul takes no scalar")
		}
		return []*Value{Unknown(dt)}, nil
	}
	as, bs := a.Shape, b.Shape
	if len(as) == 1 {
		as = []graph.Dim{graph.Const(1), as[0]}
	}
	if len(bs) == 1 {
		bs = []graph.Dim{bs[0], graph.Const(1)}
	}
	ka, kb := as[len(as)-1], bs[len(bs)-2]
	if x, ok := ka.Value(); ok {
		if y, ok := kb.Value(); ok && x != y {
			return nil, c.errorf("shape", "inner dimensions %d and %d differ", x, y)
		}
	}
	batch, ok, err := c.broadcastShapes(ranked(dt, as[:len(as)-2]), ranked(dt, bs[:len(bs)-2]))
	if err != nil || !ok {
		return nil, err
	}
	shape := batch
	if a.Rank() > 1 {
		shape = append(shape, as[len(as)-2])
	}
	if b.Rank() > 1 {
		shape = append(shape, bs[len(bs)-1])
	}
	return []*Value{ranked(dt, shape)}, nil
}

func gemmRule(c *call, in []*Value) ([]*Value, error) {
	a, b := input(in, 0), input(in, 1)
	dt := typeOf(in, 0)
	if a.Rank() != 2 || b.Rank() != 2 {
		if a.Rank() < 0 || b.Rank() < 0 {
			return []*Value{ranked(dt, c.freshShape(2))}, nil
		}
		return nil, c.errorf("rank", "Gemm takes 2-D inputs, not ranks %d and %d", a.Rank(), b.Rank())
	}
	m, ka := a.Shape[0], a.Shape[1]
	if c.int("transA", 0) == 1 {
		m, ka = ka, m
	}
	kb, n := b.Shape[0], b.Shape[1]
	if c.int("transB", 0) == 1 {
		kb, n = n, kb
	}
	if x, ok := ka.Value(); ok {
		if y, ok := kb.Value(); ok && x != y {
			return nil, c.errorf("shape", "inner dimensions %d and %d differ", x, y)
		}
	}
	return []*Value{ranked(dt, []graph.Dim{m, n})}, nil
}

// batchNormRule: Y has X's shape; the statistics outputs (training) have
// input_mean's type and shape ([C], or C x D1 ... Dn with spatial 0).
func batchNormRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	outs := []*Value{same(x)}
	for i := 1; i < c.node.NumOutputs; i++ {
		if m := input(in, 3); m != nil && m.Rank() >= 0 {
			outs = append(outs, same(m))
			continue
		}
		ch := c.fresh()
		if x.Rank() >= 2 {
			ch = x.Shape[1]
		}
		outs = append(outs, ranked(typeOf(in, 3), []graph.Dim{ch}))
	}
	return outs, nil
}

// layerNormRule: Y has X's shape; Mean and InvStdDev keep the axes before
// axis and are 1 from axis on.
func layerNormRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	outs := []*Value{same(x)}
	stat := Unknown(tensor.Float)
	if x.Rank() >= 0 {
		axis, err := c.normAxis(c.int("axis", -1), x.Rank())
		if err != nil {
			return nil, err
		}
		stat = same(x)
		stat.Type = tensor.DataType(c.int("stash_type", int64(tensor.Float)))
		for k := axis; k < x.Rank(); k++ {
			stat.Shape[k] = graph.Const(1)
		}
	}
	return append(outs, stat, stat), nil
}

// rnnRule: Y [seq, dirs, batch, hidden] and the last states [dirs, batch,
// hidden] (layout 1 puts batch first).
func rnnRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	dt := typeOf(in, 0)
	hidden := c.int("hidden_size", 0)
	h := c.fresh()
	if hidden > 0 {
		h = graph.Const(hidden)
	} else if r := input(in, 2); r.Rank() == 3 {
		h = r.Shape[2]
	}
	dirs := graph.Const(1)
	if c.str("direction", "forward") == "bidirectional" {
		dirs = graph.Const(2)
	}
	seq, batch := c.fresh(), c.fresh()
	layout := c.int("layout", 0)
	if x.Rank() == 3 {
		seq, batch = x.Shape[0], x.Shape[1]
		if layout == 1 {
			seq, batch = batch, seq
		}
	}
	y := ranked(dt, []graph.Dim{seq, dirs, batch, h})
	state := ranked(dt, []graph.Dim{dirs, batch, h})
	if layout == 1 {
		y = ranked(dt, []graph.Dim{batch, seq, dirs, h})
		state = ranked(dt, []graph.Dim{batch, dirs, h})
	}
	outs := []*Value{y, state}
	if c.node.OpType == "LSTM" {
		outs = append(outs, same(state))
	}
	return outs, nil
}

// einsumRule: every letter stands for one size; the output lists the
// letters after "->", or, implicitly, those that occur once in order.
func einsumRule(c *call, in []*Value) ([]*Value, error) {
	eq := strings.ReplaceAll(c.str("equation", ""), " ", "")
	dt := typeOf(in, 0)
	lhs, rhs, explicit := strings.Cut(eq, "->")
	terms := strings.Split(lhs, ",")
	if len(terms) != len(in) {
		return nil, c.errorf("equation", "the equation has %d operands, the node %d inputs", len(terms), len(in))
	}
	size := map[rune]graph.Dim{}
	count := map[rune]int{}
	var ellipsis []graph.Dim
	for i, t := range terms {
		v := input(in, i)
		if v.Rank() < 0 {
			return []*Value{Unknown(dt)}, nil
		}
		letters := strings.Replace(t, "...", ".", 1)
		ell := v.Rank() - (len([]rune(letters)) - strings.Count(letters, "."))
		if ell < 0 || (ell > 0 && !strings.Contains(letters, ".")) {
			return nil, c.errorf("equation", "term %q does not fit an input of rank %d", t, v.Rank())
		}
		k := 0
		for _, r := range letters {
			if r == '.' {
				e, _, err := c.broadcastShapes(ranked(dt, ellipsis), ranked(dt, v.Shape[k:k+ell]))
				if err != nil {
					return nil, err
				}
				ellipsis = e
				k += ell
				continue
			}
			d := v.Shape[k]
			if old, ok := size[r]; !ok || old.Equal(graph.Const(1)) || isFresh(old) {
				size[r] = d
			}
			count[r]++
			k++
		}
	}
	var out []graph.Dim
	if explicit {
		for _, r := range strings.Replace(rhs, "...", ".", 1) {
			if r == '.' {
				out = append(out, ellipsis...)
				continue
			}
			d, ok := size[r]
			if !ok {
				return nil, c.errorf("equation", "output letter %q is in no input", r)
			}
			out = append(out, d)
		}
	} else {
		out = append(out, ellipsis...)
		for r := 'A'; r <= 'z'; r++ {
			if count[r] == 1 {
				out = append(out, size[r])
			}
		}
	}
	return []*Value{ranked(dt, out)}, nil
}

// quantizeRule: x's shape, of the zero point's type (uint8 without one,
// output_dtype from version 21).
func quantizeRule(c *call, in []*Value) ([]*Value, error) {
	dt := tensor.Uint8
	if zp := input(in, 2); zp != nil {
		dt = zp.Type
	}
	if v := c.int("output_dtype", 0); v != 0 {
		dt = tensor.DataType(v)
	}
	return []*Value{withType(input(in, 0), dt)}, nil
}

// dequantizeRule: x's shape, of the scale's type (output_dtype from 23).
func dequantizeRule(c *call, in []*Value) ([]*Value, error) {
	dt := typeOf(in, 1)
	if dt == tensor.Undefined {
		dt = tensor.Float
	}
	if v := c.int("output_dtype", 0); v != 0 {
		dt = tensor.DataType(v)
	}
	return []*Value{withType(input(in, 0), dt)}, nil
}

func dynamicQuantizeRule(c *call, in []*Value) ([]*Value, error) {
	return []*Value{withType(input(in, 0), tensor.Uint8), ranked(tensor.Float, []graph.Dim{}), ranked(tensor.Uint8, []graph.Dim{})}, nil
}

// topKRule: x's shape with axis k long; k an attribute until 10, an input
// after, a fresh symbol when not known.
func topKRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() < 0 {
		return []*Value{Unknown(x.Type), Unknown(tensor.Int64)}, nil
	}
	axis, err := c.normAxis(c.int("axis", -1), x.Rank())
	if err != nil {
		return nil, err
	}
	k := c.fresh()
	if c.version() < 10 {
		k = graph.Const(c.int("k", 0))
	} else if kv := input(in, 1); kv != nil && len(kv.Elems) == 1 {
		k = kv.Elems[0]
	}
	out := same(x)
	out.Shape[axis] = k
	return []*Value{out, withType(out, tensor.Int64)}, nil
}

func nonZeroRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	r := c.fresh()
	if x.Rank() >= 0 {
		r = graph.Const(int64(x.Rank()))
	}
	return []*Value{ranked(tensor.Int64, []graph.Dim{r, c.fresh()})}, nil
}

// uniqueRule: Y has a fresh number of items (along axis, when given); the
// index outputs are 1-D.
func uniqueRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	n := c.fresh()
	y := ranked(x.Type, []graph.Dim{n})
	inverse := ranked(tensor.Int64, []graph.Dim{c.fresh()})
	if x.Rank() >= 0 {
		if total, ok := x.NumElements(); ok {
			inverse.Shape[0] = total
		}
	}
	if c.node.Has("axis") {
		if x.Rank() < 0 {
			y = Unknown(x.Type)
		} else {
			axis, err := c.normAxis(c.int("axis", 0), x.Rank())
			if err != nil {
				return nil, err
			}
			y = same(x)
			inverse.Shape[0] = x.Shape[axis]
			y.Shape[axis] = n
		}
	}
	return []*Value{y, ranked(tensor.Int64, []graph.Dim{n}), inverse, ranked(tensor.Int64, []graph.Dim{n})}, nil
}

func compressRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if !c.node.Has("axis") {
		return []*Value{ranked(x.Type, []graph.Dim{c.fresh()})}, nil
	}
	if x.Rank() < 0 {
		return []*Value{same(x)}, nil
	}
	axis, err := c.normAxis(c.int("axis", 0), x.Rank())
	if err != nil {
		return nil, err
	}
	out := same(x)
	out.Shape[axis] = c.fresh()
	return []*Value{out}, nil
}

func nmsRule(c *call, in []*Value) ([]*Value, error) {
	return []*Value{ranked(tensor.Int64, []graph.Dim{c.fresh(), graph.Const(3)})}, nil
}

func detRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() < 2 {
		return []*Value{same(x)}, nil
	}
	return []*Value{ranked(x.Type, append([]graph.Dim{}, x.Shape[:x.Rank()-2]...))}, nil
}

// resizeRule (and Upsample): each axis floor(d*scale) (computed in
// float32, as ONNX does), or the given sizes; scales an attribute of
// Upsample-7, an input after.
func resizeRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() < 0 {
		return []*Value{same(x)}, nil
	}
	r := x.Rank()
	var scales []float64
	var scalesIn, sizesIn *Value
	switch {
	case c.node.OpType == "Upsample" && c.version() < 9:
		fs, _, _ := c.node.Floats("scales")
		for _, f := range fs {
			scales = append(scales, float64(f))
		}
	case c.node.OpType == "Upsample" || c.version() < 11:
		scalesIn = input(in, 1)
	default:
		scalesIn, sizesIn = input(in, 2), input(in, 3)
	}
	if scalesIn != nil && scalesIn.Rank() == 1 && scalesIn.Shape[0].Equal(graph.Const(0)) {
		scalesIn = nil
	}
	axes := make([]int, r)
	for i := range axes {
		axes[i] = i
	}
	if a, ok := c.ints("axes"); ok {
		var err error
		if axes, err = c.normAxes(a, r); err != nil {
			return nil, err
		}
	}
	out := same(x)
	unknown := func() ([]*Value, error) {
		for _, k := range axes {
			out.Shape[k] = c.fresh()
		}
		return []*Value{out}, nil
	}
	if sizesIn != nil {
		sizes, _ := shapeInput(sizesIn)
		if sizes == nil {
			return unknown()
		}
		if len(sizes) != len(axes) {
			return nil, c.errorf("sizes", "sizes has %d values, expected %d", len(sizes), len(axes))
		}
		policy := c.str("keep_aspect_ratio_policy", "stretch")
		if policy == "stretch" {
			for i, k := range axes {
				out.Shape[k] = sizes[i]
			}
			return []*Value{out}, nil
		}
		scale := math.NaN()
		for i, k := range axes {
			s, ok1 := sizes[i].Value()
			d, ok2 := x.Shape[k].Value()
			if !ok1 || !ok2 {
				return unknown()
			}
			if d == 0 {
				continue
			}
			f := float64(s) / float64(d)
			if scale != scale || (policy == "not_larger" && f < scale) || (policy == "not_smaller" && f > scale) {
				scale = f
			}
		}
		if scale != scale {
			scale = 1
		}
		for _, k := range axes {
			d, _ := x.Shape[k].Value()
			out.Shape[k] = graph.Const(int64(scale*float64(d) + 0.5))
		}
		return []*Value{out}, nil
	}
	if scalesIn != nil {
		if scalesIn.Const == nil {
			return unknown()
		}
		fs, err := scalesIn.Const.Float64s()
		if err != nil {
			return unknown()
		}
		scales = fs
	}
	if scales == nil {
		return unknown()
	}
	if len(scales) != len(axes) {
		return nil, c.errorf("scales", "scales has %d values, expected %d", len(scales), len(axes))
	}
	for i, k := range axes {
		s := scales[i]
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, c.errorf("scales", "scale %v is not a positive number", s)
		}
		d := x.Shape[k]
		if n, ok := d.Value(); ok {
			out.Shape[k] = graph.Const(int64(math.Floor(float64(float32(n) * float32(s)))))
		} else if s == math.Trunc(s) {
			out.Shape[k] = d.Mul(graph.Const(int64(s)))
		} else if inv := 1 / s; inv == math.Trunc(inv) {
			out.Shape[k] = d.FloorDiv(graph.Const(int64(inv)))
		} else {
			out.Shape[k] = c.fresh()
		}
	}
	return []*Value{out}, nil
}

func init() {
	register(attentionRule, "Attention")
	register(affineGridRule, "AffineGrid")
}

// attentionRule (Attention-23): Q, K and V are [B, heads, seq, head size]
// or [B, seq, heads*head size] (q_num_heads, kv_num_heads); Y has Q's
// layout with V's head size; the present key and value append K and V to
// the past along the sequence; the optional qk output is [B, q heads,
// q seq, total seq].
func attentionRule(c *call, in []*Value) ([]*Value, error) {
	q, k, v := input(in, 0), input(in, 1), input(in, 2)
	pastK, pastV := input(in, 4), input(in, 5)
	dt := typeOf(in, 0)
	outs := make([]*Value, max(c.node.NumOutputs, 1))
	for i := range outs {
		outs[i] = Unknown(dt)
	}
	if q.Rank() < 0 || k.Rank() < 0 || v.Rank() < 0 || q.Rank() != k.Rank() || q.Rank() != v.Rank() {
		return outs, nil
	}
	batch := q.Shape[0]
	var qHeads, kvHeads, qSeq, kvSeq, headK, headV graph.Dim
	if q.Rank() == 4 {
		qHeads, qSeq = q.Shape[1], q.Shape[2]
		kvHeads, kvSeq, headK, headV = k.Shape[1], k.Shape[2], k.Shape[3], v.Shape[3]
	} else if q.Rank() == 3 {
		qn, kn := c.int("q_num_heads", 0), c.int("kv_num_heads", 0)
		if qn <= 0 || kn <= 0 {
			return nil, c.errorf("heads", "3-D inputs need q_num_heads and kv_num_heads")
		}
		qHeads, kvHeads = graph.Const(qn), graph.Const(kn)
		qSeq, kvSeq = q.Shape[1], k.Shape[1]
		headK, headV = k.Shape[2].FloorDiv(kvHeads), v.Shape[2].FloorDiv(kvHeads)
	} else {
		return nil, c.errorf("rank", "Q has rank %d, expected 3 or 4", q.Rank())
	}
	total := kvSeq
	if pastK.Rank() == 4 {
		total = pastK.Shape[2].Add(kvSeq)
	}
	if q.Rank() == 4 {
		outs[0] = ranked(dt, []graph.Dim{batch, qHeads, qSeq, headV})
	} else {
		outs[0] = ranked(dt, []graph.Dim{batch, qSeq, qHeads.Mul(headV)})
	}
	if len(outs) > 1 {
		outs[1] = ranked(typeOf(in, 1), []graph.Dim{batch, kvHeads, total, headK})
	}
	if len(outs) > 2 {
		vt := typeOf(in, 2)
		if pastV != nil {
			vt = pastV.Type
		}
		outs[2] = ranked(vt, []graph.Dim{batch, kvHeads, total, headV})
	}
	if len(outs) > 3 {
		outs[3] = ranked(dt, []graph.Dim{batch, qHeads, qSeq, total})
	}
	return outs, nil
}

// affineGridRule: theta [N, 2, 3] and size [N, C, H, W] give [N, H, W, 2];
// theta [N, 3, 4] and size [N, C, D, H, W] give [N, D, H, W, 3].
func affineGridRule(c *call, in []*Value) ([]*Value, error) {
	size, n := shapeInput(input(in, 1))
	dt := typeOf(in, 0)
	if size == nil {
		if n < 0 {
			return []*Value{Unknown(dt)}, nil
		}
		return []*Value{ranked(dt, c.freshShape(n))}, nil
	}
	if len(size) < 3 {
		return nil, c.errorf("size", "size has %d values, expected 4 or 5", len(size))
	}
	shape := append(append([]graph.Dim{size[0]}, size[2:]...), graph.Const(int64(len(size)-2)))
	return []*Value{ranked(dt, shape)}, nil
}

func init() {
	register(causalConvWithStateRule, "CausalConvWithState")
	register(linearAttentionRule, "LinearAttention")
	register(flexAttentionRule, "ai.onnx.preview.FlexAttention")
}

// causalConvWithStateRule (CausalConvWithState-27): the output has the
// input's shape [B, C, L]; present_state is [B, C, k-1], k the weight's
// last axis.
func causalConvWithStateRule(c *call, in []*Value) ([]*Value, error) {
	x, w, past := input(in, 0), input(in, 1), input(in, 3)
	dt := typeOf(in, 0)
	present := Unknown(dt)
	switch {
	case x.Rank() == 3 && w.Rank() == 3:
		present = ranked(dt, []graph.Dim{x.Shape[0], x.Shape[1], w.Shape[2].Sub(graph.Const(1))})
	case past.Rank() == 3:
		present = withType(past, dt)
	}
	return []*Value{withType(x, dt), present}, nil
}

// linearAttentionRule (LinearAttention-27): query [B, T, Hq*dk], key
// [B, T, Hkv*dk], value [B, T, Hkv*dv]; the output is [B, T, Hq*dv] of
// the query's type, present_state [B, Hkv, dk, dv] of past_state's type
// (the query's without one).
func linearAttentionRule(c *call, in []*Value) ([]*Value, error) {
	q, k, v, past := input(in, 0), input(in, 1), input(in, 2), input(in, 3)
	dt := typeOf(in, 0)
	st := dt
	if past != nil {
		st = past.Type
	}
	outs := []*Value{Unknown(dt), Unknown(st)}
	qh, kvh := c.int("q_num_heads", 0), c.int("kv_num_heads", 0)
	if qh <= 0 || kvh <= 0 {
		return nil, c.errorf("heads", "q_num_heads %d and kv_num_heads %d must be positive", qh, kvh)
	}
	if past.Rank() == 4 {
		outs[1] = withType(past, st)
	}
	if q.Rank() != 3 || k.Rank() != 3 || v.Rank() != 3 {
		return outs, nil
	}
	dv := v.Shape[2].FloorDiv(graph.Const(kvh))
	outs[0] = ranked(dt, []graph.Dim{q.Shape[0], q.Shape[1], graph.Const(qh).Mul(dv)})
	if past.Rank() != 4 {
		outs[1] = ranked(st, []graph.Dim{q.Shape[0], graph.Const(kvh), k.Shape[2].FloorDiv(graph.Const(kvh)), dv})
	}
	return outs, nil
}

// flexAttentionRule (ai.onnx.preview FlexAttention-1): Q [B, Hq, L, E],
// V [B, Hkv, S, Ev] give Y [B, Hq, L, Ev] of Q's type.
func flexAttentionRule(c *call, in []*Value) ([]*Value, error) {
	q, v := input(in, 0), input(in, 2)
	dt := typeOf(in, 0)
	if q.Rank() != 4 || v.Rank() != 4 {
		return []*Value{Unknown(dt)}, nil
	}
	return []*Value{ranked(dt, []graph.Dim{q.Shape[0], q.Shape[1], q.Shape[2], v.Shape[3]})}, nil
}
