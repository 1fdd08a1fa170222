// OneHot writes, for every index, a row of depth elements along a new axis:
// values[1] (on) where the row's position equals the index, values[0]
// (off) elsewhere. The output has the rank of indices plus one, the new
// axis at axis (-1, the last, by default), and the type of values.
//
// Versions: 9 and 11 (11 counts negative indices from the end of the
// depth: -1 is depth-1). Indices and depth of any numeric type (floats are
// truncated toward zero); values of any type. An index outside
// [-depth, depth-1] gives a row of off values (the specification's rule;
// onnxshape reads negative indices at 9 too, as onnxruntime).
//
// Rules: [axis] in [-r-1, r] for r = rank(indices); [depth] a one-element
// numeric tensor, its value >= 1; [values] a 1-D tensor of two elements;
// [indices] numeric; [size] the output fits the size limit.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("OneHot", []int{9, 11}, [2]int{3, 3}, [2]int{1, 1}, oneHotNode)
	declareAttrs("OneHot", AttrSpec{Name: "axis", Type: AttrInt})
}

func oneHotNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	var args [3]*tensor.Tensor
	for i, name := range []string{"indices", "depth", "values"} {
		t, err := n.requiredInput(in, i, name)
		if err != nil {
			return nil, err
		}
		args[i] = t
	}
	indices, depthT, vals := args[0], args[1], args[2]
	axis, err := n.Int("axis", -1)
	if err != nil {
		return nil, err
	}
	r := indices.Rank()
	a, ok := normalizeAxis(axis, r+1)
	if !ok {
		return nil, op.errorf("axis", "axis %d outside [%d, %d]", axis, -r-1, r)
	}
	if !numericType(depthT.DataType()) || depthT.Len() != 1 {
		return nil, op.errorf("depth", "depth must be a one-element numeric tensor, got %s", depthT.Describe())
	}
	dv, _ := depthT.Float64s()
	if !(dv[0] >= 1) || dv[0] > math.MaxInt32 {
		return nil, op.errorf("depth", "depth must be >= 1, got %v", dv[0])
	}
	depth := int(dv[0])
	if vals.Rank() != 1 || vals.Len() != 2 {
		return nil, op.errorf("values", "values must be a 1-D tensor of two elements, got %s", vals.Describe())
	}
	if !numericType(indices.DataType()) {
		return nil, op.errorf("indices", "indices must be numeric, got %v", indices.DataType())
	}
	shape := append(append(append([]int{}, indices.Shape()[:a]...), depth), indices.Shape()[a:]...)
	outer, inner := product(indices.Shape()[:a]), product(indices.Shape()[a:])
	if vals.DataType() != tensor.String {
		y, err := opt.newOverwritten(op, vals.DataType(), shape)
		if err != nil {
			return nil, err
		}
		if y.Len() == 0 { // nothing to write, however long the loops would run
			return values(y), nil
		}
		var idx any
		switch indices.DataType() {
		case tensor.Int64:
			idx, _ = tensor.Data[int64](indices)
		case tensor.Int32:
			idx, _ = tensor.Data[int32](indices)
		default:
			if err := opt.charge(op, "indices as float64", int64(indices.Len())*8); err != nil {
				return nil, err
			}
			idx, _ = indices.Float64s()
		}
		vb := vals.Bytes()
		yb := y.Bytes()
		var err2 error
		switch es := vals.DataType().Size(); es {
		case 1:
			err2 = oneHotFillIdx(opt, idx, asElems[uint8](yb), asElems[uint8](vb), outer, depth, inner)
		case 2:
			err2 = oneHotFillIdx(opt, idx, asElems[uint16](yb), asElems[uint16](vb), outer, depth, inner)
		case 4:
			err2 = oneHotFillIdx(opt, idx, asElems[uint32](yb), asElems[uint32](vb), outer, depth, inner)
		case 8:
			err2 = oneHotFillIdx(opt, idx, asElems[uint64](yb), asElems[uint64](vb), outer, depth, inner)
		default:
			err2 = oneHotFillIdx(opt, idx, asElems[[2]uint64](yb), asElems[[2]uint64](vb), outer, depth, inner)
		}
		if err2 != nil {
			return nil, err2
		}
		return values(y), nil
	}
	if err := opt.checkSize(op, tensor.Double, indices.Shape()); err != nil {
		return nil, err
	}
	if err := opt.charge(op, "indices as float64", int64(indices.Len())*8); err != nil {
		return nil, err
	}
	idx, _ := indices.Float64s()
	y, err := opt.newOverwritten(op, vals.DataType(), shape)
	if err != nil {
		return nil, err
	}
	for o := range outer {
		for d := range depth {
			for i := range inner {
				f := math.Trunc(idx[o*inner+i])
				if f < 0 {
					f += float64(depth)
				}
				which := 0
				if f == float64(d) { // NaN and out-of-range indices match no row
					which = 1
				}
				copyElems(y, (o*depth+d)*inner+i, vals, which, 1)
			}
		}
	}
	return values(y), nil
}

// oneHotFillIdx is oneHotFill for indices of any of the types it reads.
func oneHotFillIdx[E comparable](opt *Options, idx any, y, vals []E, outer, depth, inner int) error {
	switch v := idx.(type) {
	case []int64:
		return oneHotFill(opt, v, y, vals, outer, depth, inner)
	case []int32:
		return oneHotFill(opt, v, y, vals, outer, depth, inner)
	}
	return oneHotFill(opt, idx.([]float64), y, vals, outer, depth, inner)
}

// oneHotFill writes y, [outer, depth, inner], blocks of outer across the
// cores: each part's range filled with off once (a clear when off is
// zero), then on stored at each index's row, the only other write.
func oneHotFill[I int32 | int64 | float64, E comparable](opt *Options, idx []I, y, vals []E, outer, depth, inner int) error {
	off, on := vals[0], vals[1]
	var zero E
	block, fd := depth*inner, float64(depth)
	return parallelRange(opt, outer, len(y), func(lo, hi int) error {
		part := y[lo*block : hi*block]
		if off == zero {
			clear(part)
		} else {
			part[0] = off
			for k := 1; k < len(part); k *= 2 {
				copy(part[k:], part[:k])
			}
		}
		for o := lo; o < hi; o++ {
			row := y[o*block : (o+1)*block]
			for i, v := range idx[o*inner : (o+1)*inner] {
				// an index in (-depth-1, depth), truncated toward zero and
				// counted from the end when negative; NaN and indices
				// outside match no row (int64 beyond 2^53 rounds, but stays
				// outside)
				f := float64(v)
				if !(f > -fd-1 && f < fd) {
					continue
				}
				d := int(f)
				if d < 0 {
					d += depth
				}
				row[d*inner+i] = on
			}
		}
		return nil
	})
}

// numericType reports whether dt holds numbers (bool excluded).
func numericType(dt tensor.DataType) bool {
	return dt.IsFloat() || dt.IsInteger()
}
