// LayerNormalization normalizes X over its axes from axis on: for each
// slice of those axes, Y = (X - Mean) * InvStdDev * Scale + B, Mean the
// slice's mean, InvStdDev = 1/sqrt(Var + epsilon) and Var the mean of the
// squared deviations; Scale and the optional B broadcast unidirectionally
// to the normalized shape X.shape[axis:]. The optional outputs Mean and
// InvStdDev have X's shape with 1 from axis on, of type stash_type (1,
// float, or 16, bfloat16).
//
// Versions: 17. Types: T float16, float, double, bfloat16 (X, Scale, B,
// Y); U float or bfloat16 (Mean, InvStdDev). Attributes: axis (-1),
// epsilon (1e-5), stash_type (1). The rules, in order: [type] X's type,
// Scale and B of X's type; [axis] axis in [-r, r-1]; [stash_type] 1 or 16;
// [scale] Scale and B broadcast to X.shape[axis:]. Every element is
// computed in float64 (ops/internal/norm), which is at least stash_type's
// precision, and rounded once to T and U.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/norm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("LayerNormalization", []int{17}, [2]int{2, 3}, [2]int{1, 3}, layerNormalizationNode)
	declareAttrs("LayerNormalization", AttrSpec{Name: "axis", Type: AttrInt}, AttrSpec{Name: "epsilon", Type: AttrFloat},
		AttrSpec{Name: "stash_type", Type: AttrInt})
}

// NormalizationOptions are the attributes of LayerNormalization and
// RMSNormalization.
type NormalizationOptions struct {
	// Axis is the first normalized axis, in [-r, r-1]; nil means -1, the
	// ONNX default (write Axis: new(1) to set it).
	Axis *int
	// Epsilon is added to the variance (the mean square); nil means 1e-5,
	// the ONNX default.
	Epsilon *float32
}

// axisEpsilon returns o's axis and epsilon, ONNX's defaults where unset.
func (o NormalizationOptions) axisEpsilon() (int64, float64) {
	axis, eps := int64(-1), float32(1e-5)
	if o.Axis != nil {
		axis = int64(*o.Axis)
	}
	if o.Epsilon != nil {
		eps = *o.Epsilon
	}
	return axis, float64(eps)
}

// LayerNormalization returns Y, Mean and InvStdDev of X normalized over its
// axes from o.Axis on (ONNX LayerNormalization, version 17, stash_type 1);
// b may be nil.
func LayerNormalization(x, scale, b *tensor.Tensor, o NormalizationOptions, opts ...Option) (y, mean, invStdDev *tensor.Tensor, err error) {
	op := opRef{"LayerNormalization", 17}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	if x == nil || scale == nil {
		return nil, nil, nil, op.errorf("input", "X and Scale are required")
	}
	axis, epsilon := o.axisEpsilon()
	return layerNormalization(opt, op, nil, x, scale, b, axis, epsilon, int64(tensor.Float), true)
}

func layerNormalizationNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	scale, err := n.requiredInput(in, 1, "Scale")
	if err != nil {
		return nil, err
	}
	b, err := n.tensorInput(in, 2)
	if err != nil {
		return nil, err
	}
	axis, err := n.Int("axis", -1)
	if err != nil {
		return nil, err
	}
	eps, err := n.Float("epsilon", 1e-5)
	if err != nil {
		return nil, err
	}
	stash, err := n.Int("stash_type", int64(tensor.Float))
	if err != nil {
		return nil, err
	}
	y, mean, inv, err := layerNormalization(opt, n.op(), n, x, scale, b, axis, float64(eps), stash, n.NumOutputs > 1)
	if err != nil {
		return nil, err
	}
	switch {
	case n.NumOutputs >= 3:
		return values(y, mean, inv), nil
	case n.NumOutputs == 2:
		return values(y, mean), nil
	}
	return values(y), nil
}

// layerNormalizationShape checks the node and returns the normalized axis
// and the shape of Mean and InvStdDev.
func layerNormalizationShape(op opRef, x, scale, b *tensor.Tensor, axis, stash int64) (int, []int, error) {
	if err := normCheckType(op, "X", x.DataType(), floatBFTypes); err != nil {
		return 0, nil, err
	}
	if err := normSameType(op, "Scale", scale, x.DataType()); err != nil {
		return 0, nil, err
	}
	if err := normSameType(op, "B", b, x.DataType()); err != nil {
		return 0, nil, err
	}
	r := x.Rank()
	a, ok := normalizeAxis(axis, r)
	if !ok {
		return 0, nil, op.errorf("axis", "axis %d is outside [%d, %d] (X rank %d)", axis, -r, r-1, r)
	}
	if stash != int64(tensor.Float) && stash != int64(tensor.BFloat16) {
		return 0, nil, op.errorf("stash_type", "stash_type is %d: Mean and InvStdDev are float (1) or bfloat16 (16)", stash)
	}
	stats := append([]int(nil), x.Shape()...)
	for i := a; i < r; i++ {
		stats[i] = 1
	}
	return a, stats, nil
}

func layerNormalization(opt *Options, op opRef, n *Node, x, scale, b *tensor.Tensor, axis int64, eps float64, stash int64, stats bool) (y, mean, inv *tensor.Tensor, err error) {
	a, statShape, err := layerNormalizationShape(op, x, scale, b, axis, stash)
	if err != nil {
		return nil, nil, nil, err
	}
	nshape := x.Shape()[a:]
	sc, err := normBroadcastParam(opt, op, n, 1, "scale", "Scale", scale, nshape)
	if err != nil {
		return nil, nil, nil, err
	}
	bias, err := normBroadcastParam(opt, op, n, 2, "scale", "B", b, nshape)
	if err != nil {
		return nil, nil, nil, err
	}
	l := normLastAxes(x.Shape(), a)
	var means, invs []float64
	if stats {
		if err := opt.orDefault().scratch(op, "Mean and InvStdDev in float64", 2*l.Slices, 8); err != nil {
			return nil, nil, nil, err
		}
		means, invs = make([]float64, l.Slices), make([]float64, l.Slices)
	}
	y, err = normalizeInto(opt, op, norm.StdDev, eps, l, x, x.DataType(), sc, bias, norm.Stats{Means: means, Factors: invs})
	if err != nil || !stats {
		return y, nil, nil, err
	}
	u := tensor.DataType(stash)
	if mean, err = normStatsTensor(opt, op, u, statShape, means); err != nil {
		return nil, nil, nil, err
	}
	if inv, err = normStatsTensor(opt, op, u, statShape, invs); err != nil {
		return nil, nil, nil, err
	}
	return y, mean, inv, nil
}

// What the normalization operators share (BatchNormalization,
// InstanceNormalization, LayerNormalization, GroupNormalization,
// RMSNormalization, MeanVarianceNormalization, LpNormalization, LRN): their
// parameters read as float64, their statistics' tensors, and the runs of
// the engine (ops/internal/norm), which computes every element in float64
// and rounds it once to float32 or float64 (float16 and bfloat16 then from
// float32), giving the reference engine's bits; BatchNormalization's
// inference differs within the bound reference.Agree states.

// normParam64s returns the elements of node n's input i, t, as float64:
// the copy the node made once at load (packNormParam) when t is that
// constant, else a new one, charged first. n may be nil (a call outside a
// model).
func normParam64s(opt *Options, op opRef, n *Node, i int, what string, t *tensor.Tensor) ([]float64, error) {
	if p := n.packedInput(i, t); p != nil && len(p.t64) == t.Len() {
		return p.t64, nil
	}
	if err := opt.orDefault().scratch(op, what+" in float64", t.Len(), 8); err != nil {
		return nil, err
	}
	v, err := t.Float64s()
	if err != nil {
		return nil, op.wrap("type", err, "%s", what)
	}
	return v, nil
}

// packNormParam is PackConstants' packer of a normalization's scale or
// bias: its float64 values, which every run reads (normParam64s); nothing
// for a type the kernel refuses (it then reports it at the run).
func packNormParam(_ *Node, t *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	if !floatBFTypes.has(t.DataType()) {
		return nil, nil
	}
	if cfg.Charge != nil {
		if err := cfg.Charge(8 * int64(t.Len())); err != nil {
			return nil, err
		}
	}
	v, err := t.Float64s()
	if err != nil {
		return nil, nil
	}
	return &weightPack{t64: v}, nil
}

// normCheckType refuses an input of a type outside set.
func normCheckType(op opRef, what string, dt tensor.DataType, set typeSet) error {
	if !set.has(dt) {
		return op.errorf("type", "%s is %v, which version %d does not accept", what, dt, op.version)
	}
	return nil
}

// normSameType refuses an input t whose type is not want's (the spec
// gives both one type variable).
func normSameType(op opRef, what string, t *tensor.Tensor, want tensor.DataType) error {
	if t != nil && t.DataType() != want {
		return op.errorf("type", "%s is %v, but X is %v (one type T)", what, t.DataType(), want)
	}
	return nil
}

// normStatsTensor returns a tensor of type dt and shape holding v,
// rounded (through float32 for float16 and bfloat16), charged first.
func normStatsTensor(opt *Options, op opRef, dt tensor.DataType, shape []int, v []float64) (*tensor.Tensor, error) {
	t, err := opt.orDefault().newOverwritten(op, dt, shape)
	if err != nil {
		return nil, err
	}
	switch dt {
	case tensor.Double:
		copy(asElems[float64](t.Bytes()), v)
	case tensor.Float:
		out := asElems[float32](t.Bytes())
		for i, f := range v {
			out[i] = float32(f)
		}
	default:
		bits := asElems[uint16](t.Bytes())
		for i, f := range v {
			bits[i] = reduceFloat32ToHalf(dt, float32(f))
		}
	}
	return t, nil
}

// normalizeInto runs norm.Normalize of x laid out as l into a new tensor
// of type ydt and x's shape.
func normalizeInto(opt *Options, op opRef, stat norm.Stat, eps float64, l norm.Layout, x *tensor.Tensor, ydt tensor.DataType, scale, bias norm.Param, st norm.Stats) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	y, err := opt.newOverwritten(op, ydt, x.Shape())
	if err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "the slices in float64", norm.Scratch(l, opt.threads()), 8); err != nil {
		return nil, err
	}
	// Typed views without boxing them in interfaces: a small call paid
	// an allocation for each of the two.
	switch {
	case x.DataType() == tensor.Double && ydt == tensor.Double:
		err = normalizeAs[float64, float64](opt, op, stat, eps, l, x, y, scale, bias, st)
	case x.DataType() == tensor.Double:
		err = normalizeAs[float64, float32](opt, op, stat, eps, l, x, y, scale, bias, st)
	case ydt == tensor.Double:
		err = normalizeAs[float32, float64](opt, op, stat, eps, l, x, y, scale, bias, st)
	default:
		err = normalizeAs[float32, float32](opt, op, stat, eps, l, x, y, scale, bias, st)
	}
	if err != nil {
		return nil, err
	}
	return y, nil
}

// normalizeAs runs norm.Normalize over x's elements as X (float64 for
// double, float32 otherwise, converted first for the half types) into y's
// as Y.
func normalizeAs[X, Y norm.Float](opt *Options, op opRef, stat norm.Stat, eps float64, l norm.Layout, x, y *tensor.Tensor, scale, bias norm.Param, st norm.Stats) error {
	xs, err := reduceLoad[X](opt, op, x)
	if err != nil {
		return err
	}
	ys, flush, err := reduceOut[Y](opt, op, y)
	if err != nil {
		return err
	}
	if err := norm.Normalize(stat, eps, l, xs, ys, scale, bias, st, reduceParallel(opt, op)); err != nil {
		return err
	}
	flush()
	return nil
}

// normLoad returns x's elements as []float64 for double, else []float32.
func normLoad(opt *Options, op opRef, x *tensor.Tensor) (any, error) {
	if x.DataType() == tensor.Double {
		return reduceLoad[float64](opt, op, x)
	}
	return reduceLoad[float32](opt, op, x)
}

// normOut returns where to write y's elements ([]float64 for double, else
// []float32) and what stores them into y.
func normOut(opt *Options, op opRef, y *tensor.Tensor) (any, func(), error) {
	if y.DataType() == tensor.Double {
		return reduceOut[float64](opt, op, y)
	}
	return reduceOut[float32](opt, op, y)
}

// normLastAxes returns the layout of slices made of X's axes from axis on
// (LayerNormalization, RMSNormalization): contiguous slices.
func normLastAxes(shape []int, axis int) norm.Layout {
	l := norm.Layout{Slices: 1, N: 1}
	for i, d := range shape {
		if i < axis {
			l.Slices *= d
		} else {
			l.N *= d
		}
	}
	return l
}

// normBroadcastParam returns node n's input i, t, a parameter broadcast
// unidirectionally to the normalized shape nshape, expanded to one value
// per element of a slice, or the [rule] error when it does not broadcast.
func normBroadcastParam(opt *Options, op opRef, n *Node, i int, rule, what string, t *tensor.Tensor, nshape []int) (norm.Param, error) {
	if t == nil {
		return norm.Param{}, nil
	}
	p := t.Shape()
	if len(p) > len(nshape) {
		return norm.Param{}, op.errorf(rule, "%s has shape %v, which does not broadcast to the normalized shape %v", what, p, nshape)
	}
	off := len(nshape) - len(p)
	for i, d := range p {
		if d != 1 && d != nshape[off+i] {
			return norm.Param{}, op.errorf(rule, "%s has shape %v, which does not broadcast to the normalized shape %v", what, p, nshape)
		}
	}
	v, err := normParam64s(opt, op, n, i, what, t)
	if err != nil {
		return norm.Param{}, err
	}
	size := 1
	for _, d := range nshape {
		size *= d
	}
	if len(v) == size {
		return norm.Param{V: v}, nil
	}
	if err := opt.orDefault().scratch(op, what+" broadcast", size, 8); err != nil {
		return norm.Param{}, err
	}
	out := norm.ExpandParam(v, p, nshape)
	return norm.Param{V: out}, nil
}
