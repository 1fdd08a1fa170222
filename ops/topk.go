// TopK returns the k largest (largest=1, the default) or smallest elements
// of each slice of X along axis, and their indices (int64) along the axis:
// outputs Values and Indices, of X's shape with the axis of length k.
// Equal elements come in the order of their indices, as the spec asks; a
// NaN counts as larger than every number, as numpy's sort orders it
// (onnxruntime does not define its place). sorted=0 leaves the order to the
// implementation: this one always sorts.
//
// Versions: 1 (k an attribute; float16, float, double), 10 (k an input, a
// 1-D int64 tensor of one element), 11 (largest, sorted; negative axis;
// every integer of 8 to 64 bits), 24 (bfloat16). k must lie in [0, the
// axis's length].

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("TopK", []int{1}, [2]int{1, 1}, [2]int{2, 2}, topKNode)
	register("TopK", []int{10, 11, 24}, [2]int{2, 2}, [2]int{2, 2}, topKNode)
	declareAttrs("TopK",
		AttrSpec{Name: "axis", Type: AttrInt},
		AttrSpec{Name: "k", Type: AttrInt, Before: 10},
		AttrSpec{Name: "largest", Type: AttrInt, From: 11},
		AttrSpec{Name: "sorted", Type: AttrInt, From: 11})
}

func topKNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	var k int64
	if n.Version < 10 {
		a, ok, err := n.attr("k", AttrInt)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, op.errorf("k", "attribute k is required")
		}
		k = a.Int
	} else {
		kt, err := n.requiredInput(in, 1, "K")
		if err != nil {
			return nil, err
		}
		if kt.DataType() != tensor.Int64 || kt.Rank() > 1 || kt.Len() != 1 {
			return nil, op.errorf("k", "K must be a 1-D int64 tensor of one element, got %v of shape %v", kt.DataType(), kt.Shape())
		}
		v, _ := int64sOf(kt)
		k = v[0]
	}
	for _, name := range []string{"largest", "sorted"} {
		if n.Version < 11 && n.Has(name) {
			return nil, op.errorf("attribute", "attribute %s is not defined in version %d", name, n.Version)
		}
	}
	axis, err := n.Int("axis", -1)
	if err != nil {
		return nil, err
	}
	largest, err := n.Int("largest", 1)
	if err != nil {
		return nil, err
	}
	sorted, err := n.Int("sorted", 1)
	if err != nil {
		return nil, err
	}
	if largest != 0 && largest != 1 {
		return nil, op.errorf("largest", "largest is %d, expected 0 or 1", largest)
	}
	if sorted != 0 && sorted != 1 {
		return nil, op.errorf("sorted", "sorted is %d, expected 0 or 1", sorted)
	}
	v, i, err := topK(opt, op, x, k, axis, largest == 1)
	if err != nil {
		return nil, err
	}
	return values(v, i), nil
}

// topKTypeOK reports whether a version of TopK accepts dt.
func topKTypeOK(version int, dt tensor.DataType) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64:
		return version >= 11
	case tensor.BFloat16:
		return version >= 24
	}
	return false
}

// topKShape checks k and the axis and returns the outputs' shape and the
// layout of the slices.
func topKShape(op opRef, shape []int, k, axis int64) ([]int, reduce.Layout, error) {
	r := len(shape)
	a, ok := normalizeAxis(axis, r)
	if !ok {
		return nil, reduce.Layout{}, op.errorf("axis", "axis %d is outside [%d, %d] (input rank %d)", axis, -r, r-1, r)
	}
	if k < 0 || k > int64(shape[a]) {
		return nil, reduce.Layout{}, op.errorf("k", "k is %d, outside [0, %d] (the length of axis %d)", k, shape[a], a)
	}
	l := reduce.Layout{Outer: 1, N: shape[a], Inner: 1}
	out := append([]int{}, shape...)
	out[a] = int(k)
	for i, d := range shape {
		switch {
		case i < a:
			l.Outer *= d
		case i > a:
			l.Inner *= d
		}
	}
	return out, l, nil
}

func topK(opt *Options, op opRef, x *tensor.Tensor, k, axis int64, largest bool) (*tensor.Tensor, *tensor.Tensor, error) {
	opt = opt.orDefault()
	if !topKTypeOK(op.version, x.DataType()) {
		return nil, nil, op.errorf("type", "X is %v, which version %d does not accept", x.DataType(), op.version)
	}
	shape, l, err := topKShape(op, x.Shape(), k, axis)
	if err != nil {
		return nil, nil, err
	}
	vals, err := opt.newOverwritten(op, x.DataType(), shape)
	if err != nil {
		return nil, nil, err
	}
	idx, err := opt.newOverwritten(op, tensor.Int64, shape)
	if err != nil {
		return nil, nil, err
	}
	if err := opt.scratch(op, "the selection buffers", mulCounts(l.N, opt.threads()), 16); err != nil {
		return nil, nil, err
	}
	ii := asElems[int64](idx.Bytes())
	kk := int(k)
	switch reduceComputeType(x.DataType()) {
	case tensor.Float:
		err = topKAs[float32](opt, op, l, x, kk, largest, vals, ii)
	case tensor.Double:
		err = topKAs[float64](opt, op, l, x, kk, largest, vals, ii)
	case tensor.Int8:
		err = topKAs[int8](opt, op, l, x, kk, largest, vals, ii)
	case tensor.Uint8:
		err = topKAs[uint8](opt, op, l, x, kk, largest, vals, ii)
	case tensor.Int16:
		err = topKAs[int16](opt, op, l, x, kk, largest, vals, ii)
	case tensor.Uint16:
		err = topKAs[uint16](opt, op, l, x, kk, largest, vals, ii)
	case tensor.Int32:
		err = topKAs[int32](opt, op, l, x, kk, largest, vals, ii)
	case tensor.Uint32:
		err = topKAs[uint32](opt, op, l, x, kk, largest, vals, ii)
	case tensor.Int64:
		err = topKAs[int64](opt, op, l, x, kk, largest, vals, ii)
	case tensor.Uint64:
		err = topKAs[uint64](opt, op, l, x, kk, largest, vals, ii)
	}
	if err != nil {
		return nil, nil, err
	}
	return vals, idx, nil
}

func topKAs[A reduce.Number](opt *Options, op opRef, l reduce.Layout, x *tensor.Tensor, k int, largest bool, vals *tensor.Tensor, idx []int64) error {
	xs, err := reduceLoad[A](opt, op, x)
	if err != nil {
		return err
	}
	if dt := vals.DataType(); dt != tensor.Float16 && dt != tensor.BFloat16 {
		// The values are written in place (reduceOut's flush would be a
		// closure to allocate for nothing).
		return reduce.RunTopK(l, xs, k, largest, asElems[A](vals.Bytes())[:vals.Len()], idx, reduceParallel(opt, op))
	}
	vs, flush, err := reduceOut[A](opt, op, vals)
	if err != nil {
		return err
	}
	if err := reduce.RunTopK(l, xs, k, largest, vs, idx, reduceParallel(opt, op)); err != nil {
		return err
	}
	flush()
	return nil
}
