// OneHotEncoder (ai.onnx.ml, version 1) replaces each element of X by a
// row of len(categories) floats, 1 at the position of its category and 0
// elsewhere: Y, float, is X's shape with that axis added last. A string X
// looks up cats_strings; an int64, int32, float or double X is converted
// to an integer (a float truncated toward zero, as the specification's
// "cast to integers" and onnxruntime do; NaN, an infinity or a value beyond
// int64 matches no category) and looks up cats_int64s. An element of no
// category gives a row of zeros when zeros is 1 (the default) and is
// refused when it is 0. Of two equal categories the first counts.
//
// Rules: [type]; [cats] exactly one category list, the one of X's kind;
// [zeros] with zeros 0, every element has a category.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "OneHotEncoder", []int{1}, [2]int{1, 1}, [2]int{1, 1}, oneHotEncoderNode)
	declareAttrsIn(domainML, "OneHotEncoder",
		AttrSpec{Name: "cats_int64s", Type: AttrInts}, AttrSpec{Name: "cats_strings", Type: AttrStrings},
		AttrSpec{Name: "zeros", Type: AttrInt})
}

func oneHotEncoderNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	switch x.DataType() {
	case tensor.String, tensor.Int64, tensor.Int32, tensor.Float, tensor.Double:
	default:
		return nil, op.errorf("type", "X must be string, int64, int32, float or double, got %v", x.DataType())
	}
	ints, hasInts, err := n.Ints("cats_int64s")
	if err != nil {
		return nil, err
	}
	strs, hasStrs, err := n.attr("cats_strings", AttrStrings)
	if err != nil {
		return nil, err
	}
	hasInts, hasStrs = hasInts && len(ints) > 0, hasStrs && len(strs.Strings) > 0
	if hasInts == hasStrs {
		return nil, op.errorf("cats", "exactly one of cats_int64s and cats_strings must be given")
	}
	if (x.DataType() == tensor.String) != hasStrs {
		return nil, op.errorf("cats", "X of %v takes %s", x.DataType(), map[bool]string{true: "cats_strings", false: "cats_int64s"}[x.DataType() == tensor.String])
	}
	zeros, err := n.Int("zeros", 1)
	if err != nil {
		return nil, err
	}
	count := len(ints) + len(strs.Strings)
	if err := opt.scratch(op, "category table", count, 48); err != nil {
		return nil, err
	}
	// index(i) is the category of element i, -1 for none.
	var index func(i int) int
	if hasStrs {
		table := make(map[string]int, count)
		for i, s := range strs.Strings {
			if _, dup := table[s]; !dup {
				table[s] = i
			}
		}
		src := x.Strings()
		index = func(i int) int {
			if c, ok := table[src[i]]; ok {
				return c
			}
			return -1
		}
	} else {
		table := make(map[int64]int, count)
		for i, k := range ints {
			if _, dup := table[k]; !dup {
				table[k] = i
			}
		}
		key := oneHotKey(x)
		index = func(i int) int {
			if k, ok := key(i); ok {
				if c, ok := table[k]; ok {
					return c
				}
			}
			return -1
		}
	}
	if zeros == 0 {
		for i := range x.Len() {
			if index(i) < 0 {
				return nil, op.errorf("zeros", "element %d of X has no category, and zeros is 0", i)
			}
		}
	}
	shape := append(append([]int{}, x.Shape()...), count)
	y, err := opt.newTensor(op, tensor.Float, shape)
	if err != nil {
		return nil, err
	}
	out := asElems[float32](y.Bytes())
	err = parallelRange(opt, x.Len(), mulCounts(x.Len(), count), func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			if c := index(i); c >= 0 {
				out[i*count+c] = 1
			}
		}
		return nil
	})
	if err != nil {
		return nil, op.stopped(err)
	}
	return values(y), nil
}

// oneHotKey returns element i of a numeric X as an int64 category; ok is
// false for a float that converts to none.
func oneHotKey(x *tensor.Tensor) func(i int) (int64, bool) {
	fromFloat := func(v float64) (int64, bool) {
		t := math.Trunc(v)
		if math.IsNaN(t) || t < -(1<<63) || t >= 1<<63 {
			return 0, false
		}
		return int64(t), true
	}
	switch x.DataType() {
	case tensor.Int64:
		return func(i int) (int64, bool) { return asElems[int64](x.Bytes())[i], true }
	case tensor.Int32:
		return func(i int) (int64, bool) { return int64(asElems[int32](x.Bytes())[i]), true }
	case tensor.Float:
		return func(i int) (int64, bool) { return fromFloat(float64(asElems[float32](x.Bytes())[i])) }
	}
	return func(i int) (int64, bool) { return fromFloat(asElems[float64](x.Bytes())[i]) }
}
