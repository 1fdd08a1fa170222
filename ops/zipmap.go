// ZipMap (ai.onnx.ml, version 1) turns each row of X (float, [N, C] or [C],
// one row) into a map from the labels (classlabels_int64s or
// classlabels_strings, one of them) to the row's values: label j -> X[r, j].
// Z is a sequence of N maps, seq(map(int64|string, tensor(float))), what
// scikit-learn classifiers exported by skl2onnx end in. The maps keep the
// labels' order (onnxruntime sorts them by key: the same map, walked in
// another order); all of them share one tensor of keys.
//
// Rules: [type] X is float; [rank] X is [N, C] or [C]; [classlabels]
// exactly one of the label lists, not empty; [columns] C is the number
// of labels; [labels] no label twice (a map's keys are unique: onnxruntime
// keeps the last column of a repeated label; the specification says
// nothing).

package ops

import "github.com/onnxshape/onnxshape/tensor"

func init() {
	registerIn(domainML, "ZipMap", []int{1}, [2]int{1, 1}, [2]int{1, 1}, zipMapNode)
	declareAttrsIn(domainML, "ZipMap",
		AttrSpec{Name: "classlabels_int64s", Type: AttrInts}, AttrSpec{Name: "classlabels_strings", Type: AttrStrings})
}

// mapHeaderBytes is what one map of a sequence costs besides its storage:
// the map and its values' tensor header.
const mapHeaderBytes = 2 * tensorHeaderBytes

func zipMapNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	rows, cols, err := treeInput(op, x, tensor.Float)
	if err != nil {
		return nil, err
	}
	labels, err := mlLabels(n, "classlabels_int64s")
	if err != nil {
		return nil, err
	}
	if cols != labels.Len() {
		return nil, op.errorf("columns", "X has %d columns for %d labels", cols, labels.Len())
	}
	if err := opt.checkSize(op, tensor.Float, []int{rows, cols}); err != nil {
		return nil, err
	}
	if err := opt.charge(op, "map headers", int64(rows)*mapHeaderBytes); err != nil {
		return nil, err
	}
	keys, err := opt.newOverwritten(op, labels.DataType(), []int{cols})
	if err != nil {
		return nil, err
	}
	if keys.DataType() == tensor.String {
		copy(keys.Strings(), labels.Strings())
	} else {
		copy(keys.Bytes(), labels.Bytes())
	}
	if first, again, dup := tensor.RepeatedKey(keys); dup {
		return nil, op.errorf("labels", "labels %d and %d are the same", first, again)
	}
	z := &tensor.MapSequence{KeyType: keys.DataType(), ValueType: tensor.Float, Items: make([]*tensor.Map, rows)}
	xb := x.Bytes()
	row := cols * 4
	c := opt.canceller()
	for r := range rows {
		if c.Stop(cols + 1) {
			return nil, op.stopped(c.Err)
		}
		v, err := opt.newOverwritten(op, tensor.Float, []int{cols})
		if err != nil {
			return nil, err
		}
		copy(v.Bytes(), xb[r*row:(r+1)*row])
		z.Items[r] = &tensor.Map{Keys: keys, Values: v}
	}
	return []tensor.Value{z}, nil
}
