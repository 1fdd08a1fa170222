// TreeEnsembleClassifier (ai.onnx.ml, versions 1 and 3), after the ONNX-ML
// specification: "Tree Ensemble classifier. Returns the top class for each
// of N inputs. The attributes named 'nodes_X' form a sequence of tuples,
// associated by index into the sequences, which must all be of equal
// length. These tuples define the nodes. Similarly, all fields prefixed
// with 'class_' are tuples of votes at the leaves. A leaf may have
// multiple votes, where each vote is weighted by the associated
// class_weights index. One and only one of classlabels_strings or
// classlabels_int64s will be defined. The class_ids are indices into this
// list." base_values: "Base values for classification, added to final
// class score; the size must be the same as the classes or can be left
// unassigned (assumed 0)". Y: "N, Top class for each point"; Z: "The
// class score for each class, for each point, a tensor of shape [N,E]".
//
// The votes are summed per class in float64, in tree order. What the
// specification leaves open (two classes, a class no vote reached)
// follows onnxruntime, as ops/treeensembleclassifier.go lists rule by
// rule; written here as plainly as the rules allow.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn("ai.onnx.ml", "TreeEnsembleClassifier", []int{1, 3}, treeEnsembleClassifier)
}

func treeEnsembleClassifier(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
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
	ints, strs, err := namedClassLabels(n, "classlabels_int64s")
	if err != nil {
		return nil, err
	}
	e := len(ints) + len(strs)
	m, post, err := oldTrees(n, features, "class")
	if err != nil {
		return nil, err
	}
	base := m.base
	if len(base) != 0 && len(base) != e && !(e == 2 && len(base) == 1) {
		return nil, op.errorf("base_values", "as many base values as classes")
	}
	m.base, m.targets, m.aggregate = nil, e, "SUM"
	if msg := m.check(); msg != "" {
		return nil, op.errorf("tree", "%s", msg)
	}
	// binary: two labels and the votes name one class; positive: no
	// weight below 0.
	binary, positive := false, true
	first := -1
	for _, leaf := range m.leaves {
		for _, v := range leaf {
			if first < 0 {
				first = v.target
			}
			binary = binary || v.target != first
			positive = positive && !(v.weight < 0)
		}
	}
	binary = e == 2 && first >= 0 && !binary
	rows := 1
	if x.Rank() == 2 {
		rows = x.Shape()[0]
	}
	if err := checkSize(opt, op, tensor.Float, []int{rows, e}); err != nil {
		return nil, err
	}
	labelType := tensor.Int64
	if len(strs) > 0 {
		labelType = tensor.String
	}
	y, err := newTensor(opt, op, labelType, []int{rows})
	if err != nil {
		return nil, err
	}
	z, err := newTensor(opt, op, tensor.Float, []int{rows, e})
	if err != nil {
		return nil, err
	}
	for r := range rows {
		row := make([]float64, features)
		for f := range row {
			row[f] = realOf(elementAt(x, r*features+f))
		}
		s := make([]float64, e)
		voted := make([]bool, e)
		for t := range m.roots {
			for _, v := range m.leaves[m.leaf(t, row)] {
				s[v.target] += v.weight
				voted[v.target] = true
			}
		}
		var label int
		if e == 2 {
			label = twoClasses(s, voted, base, binary, positive, post)
		} else {
			label = -1
			for k := range s {
				if k < len(base) {
					s[k] += base[k]
				}
				reached := voted[k] || k < len(base)
				if reached && (label < 0 || s[k] > s[label]) {
					label = k
				}
			}
			label = max(label, 0)
			postTransform(post, s)
		}
		setLabel(y, r, ints, strs, label)
		for k, v := range s {
			data[float32](z)[r*e+k] = float32(v)
		}
	}
	return values(y, z), nil
}

// twoClasses scores a row of two classes: s holds the summed votes,
// voted which class a vote reached. It returns the label's index and
// leaves Z's row in s.
func twoClasses(s []float64, voted []bool, base []float64, binary, positive bool, post string) int {
	for k := range base {
		s[k] += base[k]
	}
	// The row keeps both scores when class 1 was reached (by a vote or
	// its base value); otherwise only class 0's.
	both := voted[1] || len(base) == 2
	var p float64 // the positive weight
	if both && voted[1] {
		p = s[1]
	} else if voted[0] || len(base) > 0 {
		p = s[0]
	}
	label := 0
	second := "" // how one score becomes two
	switch {
	case binary && positive:
		second = "1-s"
		if p > 0.5 {
			label = 1
		}
	case binary:
		second = "-s"
		if p > 0 {
			label = 1
		}
	case both:
		// The top class, of those reached by a vote or a base value.
		if (!voted[0] && len(base) == 0) || s[1] > s[0] {
			label = 1
		}
	default:
		if p > 0 {
			label = 1
		}
		if len(base) == 0 {
			second = "-s"
		}
	}
	if both {
		postTransform(post, s)
		return label
	}
	v := s[0]
	switch {
	case post == "PROBIT":
		s[0], s[1] = math.Sqrt2*math.Erfinv(2*v-1), 0
	case second != "" && post == "LOGISTIC":
		s[0], s[1] = 1/(1+math.Exp(v)), 1/(1+math.Exp(-v))
	case second == "1-s":
		s[0], s[1] = 1-v, v
	case second == "-s":
		s[0], s[1] = -v, v
	default:
		s[0], s[1] = v, 0
	}
	return label
}
