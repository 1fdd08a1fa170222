// TreeEnsemble (ai.onnx.ml, version 5), after the ONNX-ML specification:
// "Tree Ensemble operator. Returns the regressed values for each input in
// a batch. Inputs have dimensions [N, F] where N is the input batch size
// and F is the number of input features. Outputs have dimensions [N,
// num_targets] [...] All fields prefixed with nodes_ are tuples of
// tree nodes [...] All fields prefixed with leaf_ are tuples of tree
// leaves": node i compares feature nodes_featureids[i] with
// nodes_splits[i] by nodes_modes[i] (BRANCH_LEQ 0, BRANCH_LT 1,
// BRANCH_GTE 2, BRANCH_GT 3, BRANCH_EQ 4, BRANCH_NEQ 5, BRANCH_MEMBER 6,
// "membership_values: Members to test membership of for each set
// membership node. List all of the members to test again for the first
// member node, then the second, etc. Each set is ended by a NaN");
// nodes_truenodeids / nodes_trueleafs say where a true comparison leads
// (a node, or a leaf when the leaf flag is 1), likewise for false;
// "nodes_missing_value_tracks_true: [...] if the value is missing (NaN),
// use the 'true' (or 'false') branch". aggregate_function: AVERAGE 0, SUM
// 1 (default), MIN 2, MAX 3; post_transform NONE 0 (default), SOFTMAX 1,
// LOGISTIC 2, SOFTMAX_ZERO 3, PROBIT 4. T: float, double, float16; the
// tensor attributes are of X's type. In float64, rounded once.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "TreeEnsemble", []int{5}, treeEnsemble) }

func treeEnsemble(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	if x.DataType() != tensor.Float && x.DataType() != tensor.Double && x.DataType() != tensor.Float16 {
		return nil, op.errorf("type", "X must be float, double or float16")
	}
	if x.Rank() != 1 && x.Rank() != 2 {
		return nil, op.errorf("rank", "X must be [N, F] or [F]")
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
			return nil, op.errorf("type", "%s and X differ in type", name)
		}
	}
	modes := tensors["nodes_modes"]
	if modes == nil || modes.DataType() != tensor.Uint8 {
		return nil, op.errorf("type", "nodes_modes must be a uint8 tensor")
	}
	count := modes.Len()
	for _, name := range []string{"nodes_falseleafs", "nodes_falsenodeids", "nodes_featureids", "nodes_trueleafs", "nodes_truenodeids"} {
		if len(ints[name]) != count {
			return nil, op.errorf("nodes", "%s has the wrong length", name)
		}
	}
	if m := ints["nodes_missing_value_tracks_true"]; m != nil && len(m) != count {
		return nil, op.errorf("nodes", "nodes_missing_value_tracks_true has the wrong length")
	}
	if tensors["nodes_splits"] == nil || tensors["nodes_splits"].Len() != count {
		return nil, op.errorf("nodes", "nodes_splits has the wrong length")
	}
	if tensors["leaf_weights"] == nil || tensors["leaf_weights"].Len() != len(ints["leaf_targetids"]) {
		return nil, op.errorf("leaves", "leaf_weights and leaf_targetids differ in length")
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
	features := x.Shape()[x.Rank()-1]
	m := &treeModel{features: features}
	var members []float64
	if t := tensors["membership_values"]; t != nil {
		for i := range t.Len() {
			members = append(members, realOf(elementAt(t, i)))
		}
	}
	branch := func(id, leaf int64) int {
		if leaf != 0 {
			return ^int(id)
		}
		return int(id)
	}
	for i := range count {
		mode := data[uint8](modes)[i]
		if mode > 6 {
			return nil, op.errorf("mode", "nodes_modes[%d] is not a mode", i)
		}
		nd := treeNode{
			mode:  []string{"LEQ", "LT", "GTE", "GT", "EQ", "NEQ", "MEMBER"}[mode],
			value: realOf(elementAt(tensors["nodes_splits"], i)),
		}
		if mv := ints["nodes_missing_value_tracks_true"]; mv != nil {
			nd.missingTrue = mv[i] != 0
		}
		for _, v := range []int64{ints["nodes_featureids"][i], ints["nodes_truenodeids"][i], ints["nodes_falsenodeids"][i]} {
			if v < 0 || v > math.MaxInt32 {
				return nil, op.errorf("tree", "node %d: an index out of range", i)
			}
		}
		nd.feature = int(ints["nodes_featureids"][i])
		nd.yes = branch(ints["nodes_truenodeids"][i], ints["nodes_trueleafs"][i])
		nd.no = branch(ints["nodes_falsenodeids"][i], ints["nodes_falseleafs"][i])
		if nd.mode == "MEMBER" {
			end := 0
			for end < len(members) && !math.IsNaN(members[end]) {
				end++
			}
			if end == len(members) {
				return nil, op.errorf("membership", "no set left for node %d", i)
			}
			nd.set, members = members[:end], members[end+1:]
		}
		m.nodes = append(m.nodes, nd)
	}
	for j, t := range ints["leaf_targetids"] {
		if t < 0 || t > math.MaxInt32 {
			return nil, op.errorf("tree", "leaf %d: a target out of range", j)
		}
		m.leaves = append(m.leaves, []treeVote{{int(t), realOf(elementAt(tensors["leaf_weights"], j))}})
	}
	for _, r := range ints["tree_roots"] {
		if r < 0 || r > math.MaxInt32 {
			return nil, op.errorf("tree", "a root out of range")
		}
		m.roots = append(m.roots, int(r))
	}
	if aggregate < 0 || aggregate > 3 {
		return nil, op.errorf("aggregate_function", "aggregate_function %d", aggregate)
	}
	m.aggregate = []string{"AVERAGE", "SUM", "MIN", "MAX"}[aggregate]
	if post < 0 || post > 4 {
		return nil, op.errorf("post_transform", "post_transform %d", post)
	}
	if targets < 1 || targets > math.MaxInt32 {
		return nil, op.errorf("n_targets", "n_targets must be at least 1")
	}
	m.targets = int(targets)
	rows := 1
	if x.Rank() == 2 {
		rows = x.Shape()[0]
	}
	if err := checkSize(opt, op, x.DataType(), []int{rows, m.targets}); err != nil {
		return nil, err
	}
	if msg := m.check(); msg != "" {
		return nil, op.errorf("tree", "%s", msg)
	}
	y, err := newTensor(opt, op, x.DataType(), []int{rows, m.targets})
	if err != nil {
		return nil, err
	}
	for r := range rows {
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		row := make([]float64, features)
		for f := range row {
			row[f] = realOf(elementAt(x, r*features+f))
		}
		s := m.scores(row)
		postTransform([]string{"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"}[post], s)
		for j, v := range s {
			setScalar(y, r*m.targets+j, floatOf(v))
		}
	}
	return values(y), nil
}
