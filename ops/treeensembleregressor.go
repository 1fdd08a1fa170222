// TreeEnsembleRegressor (ai.onnx.ml, versions 1 and 3) evaluates an
// ensemble of decision trees on each row of X ([N, F] or [F]; float,
// double, int64 or int32) and writes Y, float [N, n_targets].
//
// Nodes are identified by (nodes_treeids, nodes_nodeids); node 0 of each
// tree is its root. A node of mode BRANCH_LEQ, BRANCH_LT, BRANCH_GTE,
// BRANCH_GT, BRANCH_EQ or BRANCH_NEQ compares X[nodes_featureids] with
// nodes_values and goes to nodes_truenodeids or nodes_falsenodeids of its
// tree (a NaN to the true one where nodes_missing_value_tracks_true says
// 1); a LEAF node adds the target_weights of the votes (target_treeids,
// target_nodeids, target_ids) naming it. aggregate_function SUM (the
// default), AVERAGE, MIN or MAX (0 for a target without a vote), then
// base_values, then post_transform NONE (the default), SOFTMAX, LOGISTIC,
// SOFTMAX_ZERO or PROBIT. Version 3 adds the *_as_tensor attributes (for
// double values) in place of the float lists. The trees run on
// ops/internal/trees in float64, rounded once to float.
//
// Rules: [type], [rank]; [nodes] the nodes_* lists have one entry per
// node; [targets] the target_* lists one per vote; [mode] a mode listed
// above; [node] no (tree, node) pair twice; [tree] every child, root and
// vote names a node of its tree (a vote a LEAF), and the engine's check;
// [aggregate_function], [post_transform]; [n_targets] at least 1.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mlpost"
	"github.com/onnxshape/onnxshape/ops/internal/trees"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "TreeEnsembleRegressor", []int{1, 3}, [2]int{1, 1}, [2]int{1, 1}, treeEnsembleRegressorNode)
	declareAttrsIn(domainML, "TreeEnsembleRegressor", append(oldTreeAttrs("target"),
		AttrSpec{Name: "aggregate_function", Type: AttrString}, AttrSpec{Name: "n_targets", Type: AttrInt})...)
}

// oldTreeAttrs are the attributes TreeEnsembleRegressor and
// TreeEnsembleClassifier share; votes is "target" or "class".
func oldTreeAttrs(votes string) []AttrSpec {
	specs := []AttrSpec{
		{Name: "base_values", Type: AttrFloats}, {Name: "base_values_as_tensor", Type: AttrTensor, From: 3},
		{Name: "nodes_falsenodeids", Type: AttrInts}, {Name: "nodes_featureids", Type: AttrInts},
		{Name: "nodes_hitrates", Type: AttrFloats}, {Name: "nodes_hitrates_as_tensor", Type: AttrTensor, From: 3},
		{Name: "nodes_missing_value_tracks_true", Type: AttrInts}, {Name: "nodes_modes", Type: AttrStrings},
		{Name: "nodes_nodeids", Type: AttrInts}, {Name: "nodes_treeids", Type: AttrInts},
		{Name: "nodes_truenodeids", Type: AttrInts}, {Name: "nodes_values", Type: AttrFloats},
		{Name: "nodes_values_as_tensor", Type: AttrTensor, From: 3}, {Name: "post_transform", Type: AttrString},
		{Name: votes + "_ids", Type: AttrInts}, {Name: votes + "_nodeids", Type: AttrInts},
		{Name: votes + "_treeids", Type: AttrInts}, {Name: votes + "_weights", Type: AttrFloats},
		{Name: votes + "_weights_as_tensor", Type: AttrTensor, From: 3},
	}
	return specs
}

// oldTreeModes are the modes of nodes_modes, in the engine's order.
var oldTreeModes = map[string]trees.Mode{"BRANCH_LEQ": trees.LEQ, "BRANCH_LT": trees.LT, "BRANCH_GTE": trees.GTE,
	"BRANCH_GT": trees.GT, "BRANCH_EQ": trees.EQ, "BRANCH_NEQ": trees.NEQ}

// oldTreeTransforms are the post_transform names.
var oldTreeTransforms = map[string]mlpost.Transform{"NONE": mlpost.None, "SOFTMAX": mlpost.Softmax,
	"LOGISTIC": mlpost.Logistic, "SOFTMAX_ZERO": mlpost.SoftmaxZero, "PROBIT": mlpost.Probit}

func treeEnsembleRegressorNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	rows, features, err := treeInput(op, x, tensor.Float, tensor.Double, tensor.Int64, tensor.Int32)
	if err != nil {
		return nil, err
	}
	e, post, err := oldTreeEnsemble(n, features, "target")
	if err != nil {
		return nil, err
	}
	agg, err := n.Str("aggregate_function", "SUM")
	if err != nil {
		return nil, err
	}
	a, ok := map[string]trees.Aggregate{"SUM": trees.Sum, "AVERAGE": trees.Average, "MIN": trees.Min, "MAX": trees.Max}[agg]
	if !ok {
		return nil, op.errorf("aggregate_function", "aggregate_function must be SUM, AVERAGE, MIN or MAX, got %q", agg)
	}
	e.Aggregate = a
	targets, err := n.Int("n_targets", 0)
	if err != nil {
		return nil, err
	}
	if targets < 1 || targets > math.MaxInt32 {
		return nil, op.errorf("n_targets", "n_targets must be at least 1, got %d", targets)
	}
	e.Targets = int(targets)
	if err := opt.checkSize(op, tensor.Float, []int{rows, e.Targets}); err != nil {
		return nil, err
	}
	scores, err := treeScores(opt, op, e, x, rows)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, tensor.Float, []int{rows, e.Targets})
	if err != nil {
		return nil, err
	}
	out := asElems[float32](y.Bytes())
	for r := range rows {
		row := scores[r*e.Targets : (r+1)*e.Targets]
		post.Apply(row)
		for j, v := range row {
			out[r*e.Targets+j] = float32(v)
		}
	}
	return values(y), nil
}

// oldTreeEnsemble reads the trees of a TreeEnsembleRegressor or
// TreeEnsembleClassifier (votes "target" or "class"): nodes, leaves,
// roots, base values and post-transform; the caller sets Targets and
// Aggregate.
func oldTreeEnsemble(n *Node, features int, votes string) (*trees.Ensemble, mlpost.Transform, error) {
	op := n.op()
	ints := map[string][]int64{}
	for _, name := range []string{"nodes_falsenodeids", "nodes_featureids", "nodes_missing_value_tracks_true", "nodes_nodeids",
		"nodes_treeids", "nodes_truenodeids", votes + "_ids", votes + "_nodeids", votes + "_treeids"} {
		var err error
		if ints[name], _, err = n.Ints(name); err != nil {
			return nil, 0, err
		}
	}
	modes, _, err := n.attr("nodes_modes", AttrStrings)
	if err != nil {
		return nil, 0, err
	}
	v3 := func(name string) string {
		if n.Version >= 3 {
			return name + "_as_tensor"
		}
		return ""
	}
	thresholds, _, err := treeFloats(n, "nodes_values", v3("nodes_values"))
	if err != nil {
		return nil, 0, err
	}
	if _, _, err := treeFloats(n, "nodes_hitrates", v3("nodes_hitrates")); err != nil {
		return nil, 0, err
	}
	weights, _, err := treeFloats(n, votes+"_weights", v3(votes+"_weights"))
	if err != nil {
		return nil, 0, err
	}
	base, _, err := treeFloats(n, "base_values", v3("base_values"))
	if err != nil {
		return nil, 0, err
	}
	if len(base) == 0 {
		base = nil
	}
	postName, err := n.Str("post_transform", "NONE")
	if err != nil {
		return nil, 0, err
	}
	count := len(modes.Strings)
	for _, name := range []string{"nodes_falsenodeids", "nodes_featureids", "nodes_nodeids", "nodes_treeids", "nodes_truenodeids"} {
		if len(ints[name]) != count {
			return nil, 0, op.errorf("nodes", "%s has %d entries for %d nodes (nodes_modes)", name, len(ints[name]), count)
		}
	}
	if m := ints["nodes_missing_value_tracks_true"]; m != nil && len(m) != count {
		return nil, 0, op.errorf("nodes", "nodes_missing_value_tracks_true has %d entries for %d nodes", len(m), count)
	}
	if len(thresholds) != count {
		return nil, 0, op.errorf("nodes", "nodes_values has %d entries for %d nodes", len(thresholds), count)
	}
	votesCount := len(ints[votes+"_ids"])
	if len(ints[votes+"_nodeids"]) != votesCount || len(ints[votes+"_treeids"]) != votesCount || len(weights) != votesCount {
		return nil, 0, op.errorf("targets", "the %s_* lists must have one entry per vote", votes)
	}
	post, ok := oldTreeTransforms[postName]
	if !ok {
		return nil, 0, op.errorf("post_transform", "post_transform must be NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO or PROBIT, got %q", postName)
	}
	// ref[i] is node i in the engine: a branch index, or ^leaf.
	type id struct{ tree, node int64 }
	where := make(map[id]int, count)
	ref := make([]int32, count)
	e := &trees.Ensemble{Features: features, Base: base}
	leaves := 0
	for _, mode := range modes.Strings {
		if mode == "LEAF" {
			leaves++
		}
	}
	e.Nodes, e.Leaves = make([]trees.Node, 0, count-leaves), make([][]trees.Vote, 0, leaves) // no regrowth: a model may hold millions
	for i, mode := range modes.Strings {
		k := id{ints["nodes_treeids"][i], ints["nodes_nodeids"][i]}
		if _, dup := where[k]; dup {
			return nil, 0, op.errorf("node", "node %d of tree %d is listed twice", k.node, k.tree)
		}
		where[k] = i
		if mode == "LEAF" {
			ref[i] = ^int32(len(e.Leaves))
			e.Leaves = append(e.Leaves, nil)
			continue
		}
		m, ok := oldTreeModes[mode]
		if !ok {
			return nil, 0, op.errorf("mode", "nodes_modes[%d] = %q is not a mode", i, mode)
		}
		f, err := treeIndex(op, "nodes_featureids", i, ints["nodes_featureids"][i])
		if err != nil {
			return nil, 0, err
		}
		ref[i] = int32(len(e.Nodes))
		nd := trees.Node{Feature: f, Mode: m, Value: thresholds[i]}
		if mv := ints["nodes_missing_value_tracks_true"]; mv != nil {
			nd.MissingTrue = mv[i] != 0
		}
		e.Nodes = append(e.Nodes, nd)
	}
	for i, mode := range modes.Strings {
		if mode == "LEAF" {
			continue
		}
		tree := ints["nodes_treeids"][i]
		yes, ok1 := where[id{tree, ints["nodes_truenodeids"][i]}]
		no, ok2 := where[id{tree, ints["nodes_falsenodeids"][i]}]
		if !ok1 || !ok2 {
			return nil, 0, op.errorf("tree", "node %d of tree %d leads to a node its tree does not have", ints["nodes_nodeids"][i], tree)
		}
		e.Nodes[ref[i]].True, e.Nodes[ref[i]].False = ref[yes], ref[no]
	}
	seen := map[int64]bool{}
	for _, tree := range ints["nodes_treeids"] {
		if seen[tree] {
			continue
		}
		seen[tree] = true
		root, ok := where[id{tree, 0}]
		if !ok {
			return nil, 0, op.errorf("tree", "tree %d has no node 0, its root", tree)
		}
		e.Roots = append(e.Roots, ref[root])
	}
	for j := range votesCount {
		i, ok := where[id{ints[votes+"_treeids"][j], ints[votes+"_nodeids"][j]}]
		if !ok || ref[i] >= 0 {
			return nil, 0, op.errorf("tree", "vote %d names node %d of tree %d, which is no leaf", j, ints[votes+"_nodeids"][j], ints[votes+"_treeids"][j])
		}
		t, err := treeIndex(op, votes+"_ids", j, ints[votes+"_ids"][j])
		if err != nil {
			return nil, 0, err
		}
		leaf := ^ref[i]
		e.Leaves[leaf] = append(e.Leaves[leaf], trees.Vote{Target: t, Weight: weights[j]})
	}
	return e, post, nil
}
