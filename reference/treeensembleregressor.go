// TreeEnsembleRegressor (ai.onnx.ml, versions 1 and 3), after the ONNX-ML
// specification: "Tree Ensemble regressor. Returns the regressed values
// for each input in N. All args with nodes_ are fields of a tuple of tree
// nodes, and it is assumed they are the same length, and an index i will
// decode the tuple across these inputs. Each node id can appear only once
// for each tree id. All fields prefixed with target_ are tuples of votes
// at the leaves. A leaf may have multiple votes, where each vote is
// weighted by the associated target_weights index. [...] All trees must
// have their node ids start at 0 and increment by 1. Mode enum is
// BRANCH_LEQ, BRANCH_LT, BRANCH_GTE, BRANCH_GT, BRANCH_EQ, BRANCH_NEQ,
// LEAF"; aggregate_function SUM (default), AVERAGE, MIN, MAX; base_values
// added; post_transform NONE (default), SOFTMAX, LOGISTIC, SOFTMAX_ZERO,
// PROBIT. Version 3: "All fields ending with _as_tensor can be used
// instead of the same parameter without the suffix if the element type is
// double and not float." Y is float [N, n_targets].

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn("ai.onnx.ml", "TreeEnsembleRegressor", []int{1, 3}, treeEnsembleRegressor)
}

func treeEnsembleRegressor(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	switch x.DataType() {
	case tensor.Float, tensor.Double, tensor.Int64, tensor.Int32:
	default:
		return nil, op.errorf("type", "X must be float, double, int64 or int32")
	}
	if x.Rank() != 1 && x.Rank() != 2 {
		return nil, op.errorf("rank", "X must be [N, F] or [F]")
	}
	features := x.Shape()[x.Rank()-1]
	m, post, err := oldTrees(n, features, "target")
	if err != nil {
		return nil, err
	}
	agg, err := n.Str("aggregate_function", "SUM")
	if err != nil {
		return nil, err
	}
	if agg != "SUM" && agg != "AVERAGE" && agg != "MIN" && agg != "MAX" {
		return nil, op.errorf("aggregate_function", "aggregate_function %q", agg)
	}
	m.aggregate = agg
	targets, err := n.Int("n_targets", 0)
	if err != nil {
		return nil, err
	}
	if targets < 1 || targets > math.MaxInt32 {
		return nil, op.errorf("n_targets", "n_targets must be at least 1")
	}
	m.targets = int(targets)
	rows := 1
	if x.Rank() == 2 {
		rows = x.Shape()[0]
	}
	if err := checkSize(opt, op, tensor.Float, []int{rows, m.targets}); err != nil {
		return nil, err
	}
	if msg := m.check(); msg != "" {
		return nil, op.errorf("tree", "%s", msg)
	}
	y, err := newTensor(opt, op, tensor.Float, []int{rows, m.targets})
	if err != nil {
		return nil, err
	}
	for r := range rows {
		row := make([]float64, features)
		for f := range row {
			row[f] = realOf(elementAt(x, r*features+f))
		}
		s := m.scores(row)
		postTransform(post, s)
		for j, v := range s {
			data[float32](y)[r*m.targets+j] = float32(v)
		}
	}
	return values(y), nil
}

// oldFloats reads a float list: the floats attribute name, or (version
// 3) name+"_as_tensor"; both set is an error of rule name.
func oldFloats(n *ops.Node, name string) ([]float64, error) {
	fl, hasFloats, err := n.Floats(name)
	if err != nil {
		return nil, err
	}
	var t *tensor.Tensor
	if n.Version >= 3 {
		if t, err = n.TensorAttr(name + "_as_tensor"); err != nil {
			return nil, err
		}
	}
	if hasFloats && t != nil {
		return nil, opOf(n).errorf(name, "%s and %s_as_tensor are both set", name, name)
	}
	var v []float64
	if t != nil {
		if !t.DataType().IsFloat() {
			return nil, opOf(n).errorf(name+"_as_tensor", "%s_as_tensor must hold floats", name)
		}
		for i := range t.Len() {
			v = append(v, realOf(elementAt(t, i)))
		}
		return v, nil
	}
	for _, f := range fl {
		v = append(v, float64(f))
	}
	return v, nil
}

// oldTrees reads the trees of TreeEnsembleRegressor or
// TreeEnsembleClassifier (votes "target" or "class").
func oldTrees(n *ops.Node, features int, votes string) (*treeModel, string, error) {
	op := opOf(n)
	ints := map[string][]int64{}
	for _, name := range []string{"nodes_falsenodeids", "nodes_featureids", "nodes_missing_value_tracks_true", "nodes_nodeids",
		"nodes_treeids", "nodes_truenodeids", votes + "_ids", votes + "_nodeids", votes + "_treeids"} {
		var err error
		if ints[name], _, err = n.Ints(name); err != nil {
			return nil, "", err
		}
	}
	var modes []string
	if a, ok := n.Attrs["nodes_modes"]; ok {
		if a.Type != ops.AttrStrings {
			return nil, "", op.errorf("attribute", "attribute nodes_modes is of type %v, expected %v", a.Type, ops.AttrStrings)
		}
		modes = a.Strings
	}
	values, err := oldFloats(n, "nodes_values")
	if err != nil {
		return nil, "", err
	}
	if _, err := oldFloats(n, "nodes_hitrates"); err != nil {
		return nil, "", err
	}
	weights, err := oldFloats(n, votes+"_weights")
	if err != nil {
		return nil, "", err
	}
	base, err := oldFloats(n, "base_values")
	if err != nil {
		return nil, "", err
	}
	post, err := n.Str("post_transform", "NONE")
	if err != nil {
		return nil, "", err
	}
	count := len(modes)
	for _, name := range []string{"nodes_falsenodeids", "nodes_featureids", "nodes_nodeids", "nodes_treeids", "nodes_truenodeids"} {
		if len(ints[name]) != count {
			return nil, "", op.errorf("nodes", "%s has the wrong length", name)
		}
	}
	if mv := ints["nodes_missing_value_tracks_true"]; mv != nil && len(mv) != count {
		return nil, "", op.errorf("nodes", "nodes_missing_value_tracks_true has the wrong length")
	}
	if len(values) != count {
		return nil, "", op.errorf("nodes", "nodes_values has the wrong length")
	}
	nv := len(ints[votes+"_ids"])
	if len(ints[votes+"_nodeids"]) != nv || len(ints[votes+"_treeids"]) != nv || len(weights) != nv {
		return nil, "", op.errorf("targets", "the vote lists differ in length")
	}
	if post != "NONE" && post != "SOFTMAX" && post != "LOGISTIC" && post != "SOFTMAX_ZERO" && post != "PROBIT" {
		return nil, "", op.errorf("post_transform", "post_transform %q", post)
	}
	m := &treeModel{features: features, base: base}
	if len(base) == 0 {
		m.base = nil
	}
	// find returns the position of node (tree, node) in the lists, -1 if none.
	find := func(tree, node int64) int {
		for i := range count {
			if ints["nodes_treeids"][i] == tree && ints["nodes_nodeids"][i] == node {
				return i
			}
		}
		return -1
	}
	// ref[i]: node i as the model holds it, a branch index or ^leaf.
	ref := make([]int, count)
	for i, mode := range modes {
		if find(ints["nodes_treeids"][i], ints["nodes_nodeids"][i]) != i {
			return nil, "", op.errorf("node", "a node is listed twice")
		}
		if mode == "LEAF" {
			ref[i] = ^len(m.leaves)
			m.leaves = append(m.leaves, nil)
			continue
		}
		name := map[string]string{"BRANCH_LEQ": "LEQ", "BRANCH_LT": "LT", "BRANCH_GTE": "GTE", "BRANCH_GT": "GT", "BRANCH_EQ": "EQ", "BRANCH_NEQ": "NEQ"}[mode]
		if name == "" {
			return nil, "", op.errorf("mode", "nodes_modes[%d] = %q", i, mode)
		}
		f := ints["nodes_featureids"][i]
		if f < 0 || f > math.MaxInt32 {
			return nil, "", op.errorf("tree", "a feature out of range")
		}
		nd := treeNode{feature: int(f), mode: name, value: values[i]}
		if mv := ints["nodes_missing_value_tracks_true"]; mv != nil {
			nd.missingTrue = mv[i] != 0
		}
		ref[i] = len(m.nodes)
		m.nodes = append(m.nodes, nd)
	}
	for i, mode := range modes {
		if mode == "LEAF" {
			continue
		}
		yes := find(ints["nodes_treeids"][i], ints["nodes_truenodeids"][i])
		no := find(ints["nodes_treeids"][i], ints["nodes_falsenodeids"][i])
		if yes < 0 || no < 0 {
			return nil, "", op.errorf("tree", "a branch to a node the tree does not have")
		}
		m.nodes[ref[i]].yes, m.nodes[ref[i]].no = ref[yes], ref[no]
	}
	for i, tree := range ints["nodes_treeids"] {
		first := true
		for _, earlier := range ints["nodes_treeids"][:i] {
			first = first && earlier != tree
		}
		if !first {
			continue
		}
		root := find(tree, 0)
		if root < 0 {
			return nil, "", op.errorf("tree", "a tree without node 0")
		}
		m.roots = append(m.roots, ref[root])
	}
	for j := range nv {
		i := find(ints[votes+"_treeids"][j], ints[votes+"_nodeids"][j])
		if i < 0 || ref[i] >= 0 {
			return nil, "", op.errorf("tree", "a vote for a node that is no leaf")
		}
		t := ints[votes+"_ids"][j]
		if t < 0 || t > math.MaxInt32 {
			return nil, "", op.errorf("tree", "a vote for a target out of range")
		}
		m.leaves[^ref[i]] = append(m.leaves[^ref[i]], treeVote{int(t), weights[j]})
	}
	return m, post, nil
}
