package ops

// What the normalization operators share (BatchNormalization,
// InstanceNormalization, LayerNormalization, GroupNormalization,
// RMSNormalization, MeanVarianceNormalization, LpNormalization, LRN): their
// parameters read as float64, their statistics' tensors, and the runs of
// the engine (ops/internal/norm), which computes every element in float64
// and rounds it once to float32 or float64 (float16 and bfloat16 then from
// float32), giving the reference engine's bits; BatchNormalization's
// inference differs within the bound reference.Agree states.

import (
	"github.com/onnxshape/onnxshape/ops/internal/norm"
	"github.com/onnxshape/onnxshape/tensor"
)

// normFloat64s returns t's elements as float64, charged first.
func normFloat64s(opt *Options, op opRef, what string, t *tensor.Tensor) ([]float64, error) {
	if err := opt.orDefault().scratch(op, what+" in float64", t.Len(), 8); err != nil {
		return nil, err
	}
	v, err := t.Float64s()
	if err != nil {
		return nil, op.wrap("type", err, "%s", what)
	}
	return v, nil
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
	run := func(xs any, ys any) error {
		par := reduceParallel(opt, op)
		switch xv := xs.(type) {
		case []float32:
			if yv, ok := ys.([]float32); ok {
				return norm.Normalize(stat, eps, l, xv, yv, scale, bias, st, par)
			}
			return norm.Normalize(stat, eps, l, xv, ys.([]float64), scale, bias, st, par)
		case []float64:
			if yv, ok := ys.([]float32); ok {
				return norm.Normalize(stat, eps, l, xv, yv, scale, bias, st, par)
			}
			return norm.Normalize(stat, eps, l, xv, ys.([]float64), scale, bias, st, par)
		}
		return nil
	}
	xs, err := normLoad(opt, op, x)
	if err != nil {
		return nil, err
	}
	ys, flush, err := normOut(opt, op, y)
	if err != nil {
		return nil, err
	}
	if err := run(xs, ys); err != nil {
		return nil, err
	}
	flush()
	return y, nil
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

// normBroadcastParam returns a parameter of shape pshape broadcast
// unidirectionally to the normalized shape nshape, expanded to one value
// per element of a slice, or the [rule] error when it does not broadcast.
func normBroadcastParam(opt *Options, op opRef, rule, what string, t *tensor.Tensor, nshape []int) (norm.Param, error) {
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
	v, err := normFloat64s(opt, op, what, t)
	if err != nil {
		return norm.Param{}, err
	}
	n := 1
	for _, d := range nshape {
		n *= d
	}
	if len(v) == n {
		return norm.Param{V: v}, nil
	}
	if err := opt.orDefault().scratch(op, what+" broadcast", n, 8); err != nil {
		return norm.Param{}, err
	}
	out := make([]float64, n)
	idx := make([]int, len(nshape))
	for j := range out {
		k := 0
		for i, d := range p {
			if d != 1 {
				k = k*d + idx[off+i]
			} else {
				k = k * d
			}
		}
		out[j] = v[k]
		for a := len(idx) - 1; a >= 0; a-- {
			idx[a]++
			if idx[a] < nshape[a] {
				break
			}
			idx[a] = 0
		}
	}
	return norm.Param{V: out}, nil
}
