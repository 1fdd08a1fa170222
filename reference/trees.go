package reference

// What the tree operators of ai.onnx.ml share in the reference engine:
// walking one tree for one row, aggregating the trees' votes and the
// post-transforms, after the ONNX-ML specification of TreeEnsemble (and
// its predecessors TreeEnsembleRegressor and TreeEnsembleClassifier).

import (
	"fmt"
	"math"
)

// treeNode is a branch node: "mode" compares x[feature] with value (or
// set, for membership); yes and no lead to a node (>= 0) or leaf ^i.
type treeNode struct {
	feature     int
	mode        string // "LEQ", "LT", "GTE", "GT", "EQ", "NEQ", "MEMBER"
	value       float64
	set         []float64
	missingTrue bool
	yes, no     int
}

type treeVote struct {
	target int
	weight float64
}

// treeModel is an ensemble as the reference walks it.
type treeModel struct {
	nodes     []treeNode
	leaves    [][]treeVote
	roots     []int
	targets   int
	features  int
	aggregate string // "SUM", "AVERAGE", "MIN", "MAX"
	base      []float64
}

// check returns a message for the first thing out of range, or for a
// node that its own branches lead back to; "" when the model is sound.
func (m *treeModel) check() string {
	inRange := func(r int) bool {
		if r >= 0 {
			return r < len(m.nodes)
		}
		return ^r < len(m.leaves)
	}
	for i, n := range m.nodes {
		if n.feature >= m.features || !inRange(n.yes) || !inRange(n.no) {
			return fmt.Sprintf("node %d reads or leads out of range", i)
		}
	}
	for _, r := range m.roots {
		if !inRange(r) {
			return "a root out of range"
		}
	}
	for _, l := range m.leaves {
		for _, v := range l {
			if v.target >= m.targets {
				return "a vote for a target out of range"
			}
		}
	}
	if m.base != nil && len(m.base) != m.targets {
		return "base values and targets differ in number"
	}
	// A node is on a circle when it can reach itself.
	for i := range m.nodes {
		seen := make([]bool, len(m.nodes))
		todo := []int{m.nodes[i].yes, m.nodes[i].no}
		for len(todo) > 0 {
			r := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			if r < 0 || seen[r] {
				continue
			}
			if r == i {
				return fmt.Sprintf("node %d leads back to itself", i)
			}
			seen[r] = true
			todo = append(todo, m.nodes[r].yes, m.nodes[r].no)
		}
	}
	return ""
}

// leaf walks tree t for row x.
func (m *treeModel) leaf(t int, x []float64) int {
	r := m.roots[t]
	for r >= 0 {
		n := m.nodes[r]
		v := x[n.feature]
		var yes bool
		switch n.mode {
		case "LEQ":
			yes = v <= n.value
		case "LT":
			yes = v < n.value
		case "GTE":
			yes = v >= n.value
		case "GT":
			yes = v > n.value
		case "EQ":
			yes = v == n.value
		case "NEQ":
			yes = v != n.value
		default:
			for _, s := range n.set {
				yes = yes || v == s
			}
		}
		if math.IsNaN(v) && n.missingTrue {
			yes = true
		}
		if yes {
			r = n.yes
		} else {
			r = n.no
		}
	}
	return ^r
}

// scores returns the aggregated scores of row x: per target, the sum of
// the votes the trees' leaves give it (over the number of trees for
// AVERAGE), or their least or greatest (MIN, MAX; 0 without a vote), plus
// the base value.
func (m *treeModel) scores(x []float64) []float64 {
	s := make([]float64, m.targets)
	voted := make([]bool, m.targets)
	for t := range m.roots {
		for _, v := range m.leaves[m.leaf(t, x)] {
			switch {
			case m.aggregate == "SUM" || m.aggregate == "AVERAGE":
				s[v.target] += v.weight
			case !voted[v.target]:
				s[v.target] = v.weight
			case m.aggregate == "MIN":
				s[v.target] = math.Min(s[v.target], v.weight)
			default:
				s[v.target] = math.Max(s[v.target], v.weight)
			}
			voted[v.target] = true
		}
	}
	for j := range s {
		if m.aggregate == "AVERAGE" && len(m.roots) > 0 {
			s[j] /= float64(len(m.roots))
		}
		if m.base != nil {
			s[j] += m.base[j]
		}
	}
	return s
}

// postTransform applies NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO or PROBIT
// to a row of scores.
//
// SOFTMAX_ZERO, which the specification names without defining, is the
// ONNX reference implementation's (onnx/reference/ops/aionnxml/
// _common_classifier.py, compute_softmax_zero): a score within 1e-7 of 0
// counts as zero and is only scaled by exp(-max), the others are
// exp(v - max), all are divided by their sum, and a row whose sum is 0
// (every score zero) becomes 0.5 everywhere.
func postTransform(name string, s []float64) {
	switch name {
	case "SOFTMAX":
		hi := math.Inf(-1)
		for _, v := range s {
			hi = math.Max(hi, v)
		}
		sum := 0.0
		for i, v := range s {
			s[i] = math.Exp(v - hi)
			sum += s[i]
		}
		for i := range s {
			s[i] /= sum
		}
	case "SOFTMAX_ZERO":
		hi := math.Inf(-1)
		for _, v := range s {
			hi = math.Max(hi, v)
		}
		scale := math.Exp(-hi)
		sum := 0.0
		for i, v := range s {
			if v > 1e-7 || v < -1e-7 {
				s[i] = math.Exp(v - hi)
			} else {
				s[i] = v * scale
			}
			sum += s[i]
		}
		for i := range s {
			if sum == 0 {
				s[i] = 0.5
			} else {
				s[i] /= sum
			}
		}
	case "LOGISTIC":
		for i, v := range s {
			s[i] = 1 / (1 + math.Exp(-v))
		}
	case "PROBIT":
		for i, v := range s {
			s[i] = math.Sqrt2 * math.Erfinv(2*v-1)
		}
	}
}
