// CategoryMapper (ai.onnx.ml, version 1) converts strings to integers and
// back through two lists of one length, cats_strings and cats_int64s: a
// string X gives the int64 paired with it (default_int64, -1, when it is
// absent), an int64 X the string paired with it (default_string,
// "_Unused"). Y has X's shape. Of two equal keys the first counts (the
// specification does not say; LabelEncoder's rule).
//
// Rules: [type] X string or int64; [length] cats_strings and cats_int64s
// of one length.

package ops

import "github.com/onnxshape/onnxshape/tensor"

func init() {
	registerIn(domainML, "CategoryMapper", []int{1}, [2]int{1, 1}, [2]int{1, 1}, categoryMapperNode)
	declareAttrsIn(domainML, "CategoryMapper",
		AttrSpec{Name: "cats_int64s", Type: AttrInts}, AttrSpec{Name: "cats_strings", Type: AttrStrings},
		AttrSpec{Name: "default_int64", Type: AttrInt}, AttrSpec{Name: "default_string", Type: AttrString})
}

func categoryMapperNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	if x.DataType() != tensor.String && x.DataType() != tensor.Int64 {
		return nil, op.errorf("type", "X must be string or int64, got %v", x.DataType())
	}
	ints, _, err := n.Ints("cats_int64s")
	if err != nil {
		return nil, err
	}
	strs, _, err := n.attr("cats_strings", AttrStrings)
	if err != nil {
		return nil, err
	}
	if len(ints) != len(strs.Strings) {
		return nil, op.errorf("length", "%d cats_int64s and %d cats_strings: they must pair up", len(ints), len(strs.Strings))
	}
	defInt, err := n.Int("default_int64", -1)
	if err != nil {
		return nil, err
	}
	defStr, err := n.Str("default_string", "_Unused")
	if err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "category table", len(ints), 48); err != nil {
		return nil, err
	}
	if x.DataType() == tensor.String {
		table := make(map[string]int64, len(ints))
		for i, s := range strs.Strings {
			if _, dup := table[s]; !dup {
				table[s] = ints[i]
			}
		}
		y, err := opt.newOverwritten(op, tensor.Int64, x.Shape())
		if err != nil {
			return nil, err
		}
		src, dst := x.Strings(), asElems[int64](y.Bytes())
		err = parallelRange(opt, len(src), len(src)*8, func(lo, hi int) error {
			for i := lo; i < hi; i++ {
				v, ok := table[src[i]]
				if !ok {
					v = defInt
				}
				dst[i] = v
			}
			return nil
		})
		if err != nil {
			return nil, op.stopped(err)
		}
		return values(y), nil
	}
	table := make(map[int64]string, len(ints))
	for i, k := range ints {
		if _, dup := table[k]; !dup {
			table[k] = strs.Strings[i]
		}
	}
	y, err := opt.newOverwritten(op, tensor.String, x.Shape())
	if err != nil {
		return nil, err
	}
	src, dst := asElems[int64](x.Bytes())[:x.Len()], y.Strings()
	err = parallelRange(opt, len(src), len(src)*8, func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			v, ok := table[src[i]]
			if !ok {
				v = defStr
			}
			dst[i] = v
		}
		return nil
	})
	if err != nil {
		return nil, op.stopped(err)
	}
	return values(y), nil
}
