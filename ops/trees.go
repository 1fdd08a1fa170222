package ops

// What the tree operators of ai.onnx.ml (TreeEnsemble,
// TreeEnsembleRegressor, TreeEnsembleClassifier) share: reading X as rows
// of float64, reading their float lists from floats or tensor
// attributes, and running an ensemble of ops/internal/trees over the rows.

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/trees"
	"github.com/onnxshape/onnxshape/tensor"
)

// treeInput checks X, [N, F] or [F] (one row), of one of types, and
// returns N and F.
func treeInput(op opRef, x *tensor.Tensor, types ...tensor.DataType) (rows, features int, err error) {
	ok := false
	for _, t := range types {
		ok = ok || x.DataType() == t
	}
	if !ok {
		return 0, 0, op.errorf("type", "X must be one of %v, got %v", types, x.DataType())
	}
	switch x.Rank() {
	case 1:
		return 1, x.Shape()[0], nil
	case 2:
		return x.Shape()[0], x.Shape()[1], nil
	}
	return 0, 0, op.errorf("rank", "X must be [N, F] or [F], got shape %v", x.Shape())
}

// treeFloats returns a list attribute as float64: the floats attribute
// name, or the tensor attribute tensorName (any float type) when that is
// set instead ("" when the version has none); ok is false when neither is.
// Both set is a [name] error.
func treeFloats(n *Node, name, tensorName string) (v []float64, ok bool, err error) {
	fl, hasFloats := []float32(nil), false
	if name != "" {
		if fl, hasFloats, err = n.Floats(name); err != nil {
			return nil, false, err
		}
	}
	var t *tensor.Tensor
	if tensorName != "" {
		if t, err = n.TensorAttr(tensorName); err != nil {
			return nil, false, err
		}
	}
	switch {
	case hasFloats && t != nil:
		return nil, false, n.op().errorf(name, "%s and %s are both set", name, tensorName)
	case t != nil:
		if !t.DataType().IsFloat() {
			return nil, false, n.op().errorf(tensorName, "%s must hold floats, got %v", tensorName, t.DataType())
		}
		v = make([]float64, t.Len())
		convert.DecodeFloats(v, t, 0)
		return v, true, nil
	case hasFloats:
		v = make([]float64, len(fl))
		for i, f := range fl {
			v[i] = float64(f)
		}
		return v, true, nil
	}
	return nil, false, nil
}

// treeScores checks e and runs it over X's rows: scores is N*Targets
// float64, the aggregated scores before any post-transform.
func treeScores(opt *Options, op opRef, e *trees.Ensemble, x *tensor.Tensor, rows int) ([]float64, error) {
	if err := e.Check(); err != nil {
		return nil, op.wrap("tree", err, "the ensemble")
	}
	if err := opt.scratch(op, "scores of one row", e.Targets, 9); err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "X as float64", x.Len(), 8); err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "scores", mulCounts(rows, e.Targets), 8); err != nil {
		return nil, err
	}
	xs := make([]float64, x.Len())
	if x.DataType().IsFloat() {
		convert.DecodeFloats(xs, x, 0)
	} else {
		ints := make([]int64, x.Len())
		convert.DecodeInts(ints, x, 0)
		for i, v := range ints {
			xs[i] = float64(v)
		}
	}
	scores := make([]float64, rows*e.Targets)
	err := parallelRange(opt, rows, mulCounts(rows, mulCounts(len(e.Roots), 8)), func(lo, hi int) error {
		return e.Predict(opt.Context(), xs[lo*e.Features:hi*e.Features], scores[lo*e.Targets:hi*e.Targets])
	})
	if err != nil {
		return nil, op.stopped(err)
	}
	return scores, nil
}
