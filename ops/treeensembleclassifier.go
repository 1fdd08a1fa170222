// TreeEnsembleClassifier (ai.onnx.ml, versions 1 and 3; a model importing
// ai.onnx.ml 4 or 5 runs version 3) evaluates an ensemble of decision trees
// on each row of X ([N, F] or [F]; float, double, int64 or int32) and
// writes Y, the label of each row ([N], int64 from classlabels_int64s or
// string from classlabels_strings), and Z, float [N, E], a score per class.
//
// The trees are TreeEnsembleRegressor's (treeensembleregressor.go reads
// them for both): nodes_* name the branches, class_treeids, class_nodeids,
// class_ids and class_weights the votes of the leaves; version 3 adds the
// *_as_tensor attributes (doubles) in place of the float lists. The votes
// are summed per class (the classifier has no aggregate_function) on
// ops/internal/trees in float64, then post_transform is applied as
// ops/internal/mlpost does, and the scores rounded once to float.
//
// The specification says "Returns the top class" and "base_values [...]
// added to final class score; the size must be the same as the classes or
// can be left unassigned"; it says nothing of how two classes are scored.
// onnxshape follows onnxruntime's kernel (tree_ensemble_common.h and
// tree_ensemble_aggregator.h, TreeAggregatorClassifier::FinalizeScores and
// _set_score_binary, write_scores in ml_common.h; checked against
// onnxruntime 1.30 by bench/ort's TestORTTreeEnsembleClassifier), rule for
// rule:
//
//   - E != 2: class k's score is its votes plus base_values[k]; the label
//     is the first highest score among the classes a vote or a base value
//     reached (no class reached: the first label; onnxruntime indexes the
//     labels at -1); Z is post_transform of the E scores.
//   - E == 2, "binary case" when the votes name one class id only
//     (binary_case_: 2 labels and one distinct class_ids). Base values are
//     added to their classes. The row has two scores when a vote reached
//     class 1 or there are two base values, and Z is post_transform of
//     them; otherwise it has one, s (class 0's), and Z is written from s
//     as below. Without base values the "missing second class" mode is 3.
//   - The positive weight p is class 1's score when a vote reached class 1,
//     else class 0's when a vote or a base value reached class 0, else 0.
//     In the binary case, with no class weight below 0: label 1 when
//     p > 0.5 (mode 0) else label 0 (mode 1); with a negative weight:
//     label 1 when p > 0 (mode 2) else label 0 (mode 3). Outside the
//     binary case with one score: label 1 when p > 0, else label 0.
//   - One score s: PROBIT gives Z = [probit(s), 0]; with a mode, LOGISTIC
//     gives [logistic(-s), logistic(s)], and otherwise modes 0 and 1 give
//     [1-s, s] and modes 2 and 3 [-s, s] (no other transform); no mode (one
//     base value, not the binary case) gives [s, 0]. Where onnxshape writes
//     0, onnxruntime leaves Z's second column unwritten. onnxruntime 1.30
//     applies LOGISTIC in modes 0 and 1 too, where its source of 2024 did
//     not: the library is what the tests compare with.
//
// Where onnxruntime disagrees with the specification the specification
// wins (docs/divergences.md, "ai.onnx.ml operators of classic models"):
//
//   - Two labels, not the binary case, two scores: the label is the top
//     class, as for E > 2; onnxruntime labels 1 when class 1's score is
//     above 0, and gives integer labels as the integers 1 and 0 themselves,
//     not as labels of the list (with one score too).
//   - Two labels and base values: each base value is added to its class's
//     score, as the specification says; onnxruntime reads the score of a
//     class no vote reached as 0 (its base value dropped) and, with two
//     base values and a vote for class 1, makes class 1's score
//     base_values[1] plus class 0's score and class 0's its opposite.
//
// One label (E = 1): Z is [N, 1], its score after post_transform, and the
// label the only one; onnxruntime runs its one-output path there.
//
// Rules: [type], [rank]; [classlabels] exactly one label list, not empty;
// TreeEnsembleRegressor's [nodes], [targets] (the class_* lists one entry
// per vote), [mode], [node], [tree] (and every class_ids below E);
// [base_values] none or one per class, or one with two classes (as
// onnxruntime); [post_transform].

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mlpost"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "TreeEnsembleClassifier", []int{1, 3}, [2]int{1, 1}, [2]int{2, 2}, treeEnsembleClassifierNode)
	declareAttrsIn(domainML, "TreeEnsembleClassifier", append(oldTreeAttrs("class"),
		AttrSpec{Name: "classlabels_int64s", Type: AttrInts}, AttrSpec{Name: "classlabels_strings", Type: AttrStrings})...)
}

func treeEnsembleClassifierNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
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
	labels, err := mlLabels(n, "classlabels_int64s")
	if err != nil {
		return nil, err
	}
	e, post, err := oldTreeEnsemble(n, features, "class")
	if err != nil {
		return nil, err
	}
	classes := labels.Len()
	base := e.Base
	if len(base) != 0 && len(base) != classes && (classes != 2 || len(base) != 1) {
		return nil, op.errorf("base_values", "%d base values for %d classes", len(base), classes)
	}
	e.Base, e.Targets = nil, classes
	cls := treeClassRules{base: base, post: post, allPositive: true}
	distinct := map[int]bool{}
	for _, leaf := range e.Leaves {
		for _, v := range leaf {
			distinct[v.Target] = true
			cls.allPositive = cls.allPositive && !(v.Weight < 0)
		}
	}
	cls.binary = classes == 2 && len(distinct) == 1
	if err := opt.checkSize(op, tensor.Float, []int{rows, classes}); err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "classes reached", mulCounts(rows, classes), 1); err != nil {
		return nil, err
	}
	reached := make([]bool, rows*classes)
	scores, err := treeScoresReached(opt, op, e, x, rows, reached)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, labels.DataType(), []int{rows})
	if err != nil {
		return nil, err
	}
	z, err := opt.newOverwritten(op, tensor.Float, []int{rows, classes})
	if err != nil {
		return nil, err
	}
	out := asElems[float32](z.Bytes())
	for r := range rows {
		row := scores[r*classes : (r+1)*classes]
		mlSetLabel(y, r, labels, cls.classify(row, reached[r*classes:(r+1)*classes]))
		for j, v := range row {
			out[r*classes+j] = float32(v)
		}
	}
	return values(y, z), nil
}

// treeClassRules are the rules above that turn one row's summed votes
// into a label and the row of Z.
type treeClassRules struct {
	base        []float64
	post        mlpost.Transform
	binary      bool // two labels, one distinct class id among the votes
	allPositive bool // no class weight below 0
}

// classify turns s, the row's summed votes (has: which classes a vote
// reached), into Z's row in place and returns the label's index.
func (c treeClassRules) classify(s []float64, has []bool) int {
	if len(s) != 2 {
		for k, b := range c.base {
			s[k] += b
			has[k] = true
		}
		best := -1
		for k, v := range s {
			if has[k] && (best < 0 || v > s[best]) {
				best = k
			}
		}
		c.post.Apply(s)
		return max(best, 0)
	}
	two := has[1]
	mode := -1
	switch len(c.base) {
	case 2:
		s[0] += c.base[0]
		s[1] += c.base[1]
		two = true
	case 1:
		s[0] += c.base[0]
	case 0:
		mode = 3
	}
	p := 0.0
	switch {
	case two && has[1]:
		p = s[1]
	case has[0] || len(c.base) > 0:
		p = s[0]
	}
	label := 0
	switch {
	case c.binary && c.allPositive:
		label, mode = 0, 1
		if p > 0.5 {
			label, mode = 1, 0
		}
	case c.binary:
		label, mode = 0, 3
		if p > 0 {
			label, mode = 1, 2
		}
	case two:
		// The top class among those a vote or a base value reached
		// (class 1 is: two scores mean a vote or two base values).
		if !has[0] && len(c.base) == 0 || s[1] > s[0] {
			label = 1
		}
	case p > 0:
		label = 1
	}
	if two {
		c.post.Apply(s)
		return label
	}
	v := s[0]
	switch {
	case c.post == mlpost.Probit:
		s[0], s[1] = math.Sqrt2*math.Erfinv(2*v-1), 0
	case mode >= 0 && c.post == mlpost.Logistic:
		s[0], s[1] = 1/(1+math.Exp(v)), 1/(1+math.Exp(-v))
	case mode == 0 || mode == 1:
		s[0], s[1] = 1-v, v
	case mode == 2 || mode == 3:
		s[0], s[1] = -v, v
	default:
		s[0], s[1] = v, 0
	}
	return label
}
