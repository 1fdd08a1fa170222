// TreeEnsemble (ai.onnx.ml, version 5) evaluates an ensemble of decision
// trees on each row of X ([N, F], float, double or float16) and writes
// Y, [N, n_targets] of X's type.
//
// Node i compares X[nodes_featureids[i]] with nodes_splits[i] by
// nodes_modes[i] (0 <=, 1 <, 2 >=, 3 >, 4 ==, 5 !=, 6 membership in its
// set of membership_values, the sets of the membership nodes in order,
// each ended by a NaN); a NaN feature goes to the true branch where
// nodes_missing_value_tracks_true says 1. A branch is a node index, or a
// leaf index where nodes_trueleafs / nodes_falseleafs say 1; leaf j adds
// leaf_weights[j] to target leaf_targetids[j]. tree_roots are the nodes
// each tree starts at. aggregate_function: 0 average, 1 sum (the
// default), 2 min, 3 max (0 for a target no leaf reached);
// post_transform: 0 none (the default), 1 softmax, 2 logistic, 3
// softmax_zero, 4 probit. Computed in float64 (ops/internal/trees),
// rounded once to X's type; nodes_hitrates is read and ignored.
//
// Rules: [type] X float, double or float16, and nodes_splits,
// leaf_weights and membership_values of X's type; [rank] X is [N, F] (or
// [F], one row); [attribute] the required attributes are given;
// [nodes] the nodes_* lists have one entry per node; [leaves]
// leaf_targetids and leaf_weights one per leaf; [mode] modes 0 to 6;
// [membership] one NaN-ended set per membership node; [aggregate_function]
// and [post_transform] in range; [n_targets] at least 1; [tree] every
// root, branch, feature and target in range and no branch back to a node
// it left (the engine's check).

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/mlpost"
	"github.com/onnxshape/onnxshape/ops/internal/trees"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "TreeEnsemble", []int{5}, [2]int{1, 1}, [2]int{1, 1}, treeEnsembleNode)
	declareAttrsIn(domainML, "TreeEnsemble",
		AttrSpec{Name: "aggregate_function", Type: AttrInt}, AttrSpec{Name: "leaf_targetids", Type: AttrInts},
		AttrSpec{Name: "leaf_weights", Type: AttrTensor}, AttrSpec{Name: "membership_values", Type: AttrTensor},
		AttrSpec{Name: "n_targets", Type: AttrInt}, AttrSpec{Name: "nodes_falseleafs", Type: AttrInts},
		AttrSpec{Name: "nodes_falsenodeids", Type: AttrInts}, AttrSpec{Name: "nodes_featureids", Type: AttrInts},
		AttrSpec{Name: "nodes_hitrates", Type: AttrTensor}, AttrSpec{Name: "nodes_missing_value_tracks_true", Type: AttrInts},
		AttrSpec{Name: "nodes_modes", Type: AttrTensor}, AttrSpec{Name: "nodes_splits", Type: AttrTensor},
		AttrSpec{Name: "nodes_trueleafs", Type: AttrInts}, AttrSpec{Name: "nodes_truenodeids", Type: AttrInts},
		AttrSpec{Name: "post_transform", Type: AttrInt}, AttrSpec{Name: "tree_roots", Type: AttrInts})
}

func treeEnsembleNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	rows, features, err := treeInput(op, x, tensor.Float, tensor.Double, tensor.Float16)
	if err != nil {
		return nil, err
	}
	for _, name := range []string{"leaf_targetids", "leaf_weights", "nodes_falseleafs", "nodes_falsenodeids", "nodes_featureids",
		"nodes_modes", "nodes_splits", "nodes_trueleafs", "nodes_truenodeids", "tree_roots"} {
		if !n.Has(name) {
			return nil, op.errorf("attribute", "attribute %s is required", name)
		}
	}
	ints := map[string][]int64{}
	for _, name := range []string{"leaf_targetids", "nodes_falseleafs", "nodes_falsenodeids", "nodes_featureids",
		"nodes_missing_value_tracks_true", "nodes_trueleafs", "nodes_truenodeids", "tree_roots"} {
		if ints[name], _, err = n.Ints(name); err != nil {
			return nil, err
		}
	}
	tensors := map[string]*tensor.Tensor{}
	for _, name := range []string{"leaf_weights", "membership_values", "nodes_hitrates", "nodes_modes", "nodes_splits"} {
		if tensors[name], err = n.TensorAttr(name); err != nil {
			return nil, err
		}
	}
	for _, name := range []string{"leaf_weights", "membership_values", "nodes_splits"} {
		if t := tensors[name]; t != nil && t.DataType() != x.DataType() {
			return nil, op.errorf("type", "%s is %v, X is %v: they must be of one type", name, t.DataType(), x.DataType())
		}
	}
	modes := tensors["nodes_modes"]
	if modes == nil || modes.DataType() != tensor.Uint8 {
		return nil, op.errorf("type", "nodes_modes must be a uint8 tensor")
	}
	count := modes.Len()
	for _, name := range []string{"nodes_falseleafs", "nodes_falsenodeids", "nodes_featureids", "nodes_trueleafs", "nodes_truenodeids"} {
		if len(ints[name]) != count {
			return nil, op.errorf("nodes", "%s has %d entries for %d nodes", name, len(ints[name]), count)
		}
	}
	if m := ints["nodes_missing_value_tracks_true"]; m != nil && len(m) != count {
		return nil, op.errorf("nodes", "nodes_missing_value_tracks_true has %d entries for %d nodes", len(m), count)
	}
	if tensors["nodes_splits"] == nil || tensors["nodes_splits"].Len() != count {
		return nil, op.errorf("nodes", "nodes_splits must have one entry for each of %d nodes", count)
	}
	if tensors["leaf_weights"] == nil || tensors["leaf_weights"].Len() != len(ints["leaf_targetids"]) {
		return nil, op.errorf("leaves", "leaf_weights must have one entry for each of %d leaf_targetids", len(ints["leaf_targetids"]))
	}
	splits := make([]float64, count)
	convert.DecodeFloats(splits, tensors["nodes_splits"], 0)
	var members []float64
	if t := tensors["membership_values"]; t != nil {
		members = make([]float64, t.Len())
		convert.DecodeFloats(members, t, 0)
	}
	aggregate, err := n.Int("aggregate_function", 1)
	if err != nil {
		return nil, err
	}
	post, err := n.Int("post_transform", 0)
	if err != nil {
		return nil, err
	}
	targets, err := n.Int("n_targets", 0)
	if err != nil {
		return nil, err
	}
	e := &trees.Ensemble{Features: features, Nodes: make([]trees.Node, count)}
	modeOf := modes.Bytes()
	for i := range e.Nodes {
		nd := &e.Nodes[i]
		if modeOf[i] > 6 {
			return nil, op.errorf("mode", "nodes_modes[%d] = %d is not a mode (0 to 6)", i, modeOf[i])
		}
		nd.Mode, nd.Value = trees.Mode(modeOf[i]), splits[i]
		if m := ints["nodes_missing_value_tracks_true"]; m != nil {
			nd.MissingTrue = m[i] != 0
		}
		f, err := treeIndex(op, "nodes_featureids", i, ints["nodes_featureids"][i])
		if err != nil {
			return nil, err
		}
		nd.Feature = f
		if nd.True, err = treeBranch(op, "nodes_truenodeids", i, ints["nodes_truenodeids"][i], ints["nodes_trueleafs"][i] != 0); err != nil {
			return nil, err
		}
		if nd.False, err = treeBranch(op, "nodes_falsenodeids", i, ints["nodes_falsenodeids"][i], ints["nodes_falseleafs"][i] != 0); err != nil {
			return nil, err
		}
		if nd.Mode == trees.Member {
			end := 0
			for end < len(members) && !math.IsNaN(members[end]) {
				end++
			}
			if end == len(members) {
				return nil, op.errorf("membership", "node %d is a membership node with no NaN-ended set left in membership_values", i)
			}
			nd.Set, members = members[:end], members[end+1:]
		}
	}
	weights := make([]float64, tensors["leaf_weights"].Len())
	convert.DecodeFloats(weights, tensors["leaf_weights"], 0)
	for j, w := range weights {
		t, err := treeIndex(op, "leaf_targetids", j, ints["leaf_targetids"][j])
		if err != nil {
			return nil, err
		}
		e.Leaves = append(e.Leaves, []trees.Vote{{Target: t, Weight: w}})
	}
	for i, r := range ints["tree_roots"] {
		root, err := treeBranch(op, "tree_roots", i, r, false)
		if err != nil {
			return nil, err
		}
		e.Roots = append(e.Roots, root)
	}
	if aggregate < 0 || aggregate > 3 {
		return nil, op.errorf("aggregate_function", "aggregate_function must be 0 to 3, got %d", aggregate)
	}
	e.Aggregate = []trees.Aggregate{trees.Average, trees.Sum, trees.Min, trees.Max}[aggregate]
	if post < 0 || post > 4 {
		return nil, op.errorf("post_transform", "post_transform must be 0 to 4, got %d", post)
	}
	if targets < 1 || targets > math.MaxInt32 {
		return nil, op.errorf("n_targets", "n_targets must be at least 1, got %d", targets)
	}
	e.Targets = int(targets)
	if err := opt.checkSize(op, x.DataType(), []int{rows, e.Targets}); err != nil {
		return nil, err
	}
	scores, err := treeScores(opt, op, e, x, rows)
	if err != nil {
		return nil, err
	}
	for r := range rows {
		mlpost.Transform(post).Apply(scores[r*e.Targets : (r+1)*e.Targets])
	}
	y, err := opt.newOverwritten(op, x.DataType(), []int{rows, e.Targets})
	if err != nil {
		return nil, err
	}
	convert.EncodeFloats(y, 0, scores, convert.DefaultCast)
	return values(y), nil
}

// treeIndex reads entry i of list name as an index (>= 0; the engine's
// check bounds it above).
func treeIndex(op opRef, name string, i int, v int64) (int, error) {
	if v < 0 || v > math.MaxInt32 {
		return 0, op.errorf("tree", "%s[%d] = %d is not an index", name, i, v)
	}
	return int(v), nil
}

// treeBranch is a branch of the engine: node v, or leaf v when leaf.
func treeBranch(op opRef, name string, i int, v int64, leaf bool) (int32, error) {
	k, err := treeIndex(op, name, i, v)
	if leaf {
		return ^int32(k), err
	}
	return int32(k), err
}

// What the tree operators of ai.onnx.ml (TreeEnsemble,
// TreeEnsembleRegressor, TreeEnsembleClassifier) share: reading X as rows
// of float64, reading their float lists from floats or tensor
// attributes, and running an ensemble of ops/internal/trees over the rows.

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
	return treeScoresReached(opt, op, e, x, rows, nil)
}

// treeScoresReached is treeScores that also fills reached (N*Targets, or
// nil) with whether a vote reached each target of each row.
func treeScoresReached(opt *Options, op opRef, e *trees.Ensemble, x *tensor.Tensor, rows int, reached []bool) ([]float64, error) {
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
		var seen []bool
		if reached != nil {
			seen = reached[lo*e.Targets : hi*e.Targets]
		}
		return e.PredictReached(opt.Context(), xs[lo*e.Features:hi*e.Features], scores[lo*e.Targets:hi*e.Targets], seen)
	})
	if err != nil {
		return nil, op.stopped(err)
	}
	return scores, nil
}
