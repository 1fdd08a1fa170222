// LinearClassifier (ai.onnx.ml, version 1) scores each row x of X ([N, C]
// or [C], one row; float, double, int64 or int32) against the classes of
// classlabels_ints or classlabels_strings: the K scores x·W^T + b (W the
// coefficients as [K, C], b the intercepts, none or K), then the label of
// the best class, Y ([N], int64 or string as the labels), and the scores
// after post_transform, Z (float [N, K]).
//
// K is the number of labels E, or 1 when there are two labels and C
// coefficients: the binary form, where the label is the second when the
// score is above 0 and the first otherwise, and Z is [N, 2]: 1-p and p, p
// being the score after post_transform. With K > 1 the label is the one of
// the first highest score (a NaN score never wins, except as the first).
// The label is chosen on the scores before post_transform. The
// specification says none of this beyond "one class per example" and
// "one score for each class": it follows onnxruntime, except that
// onnxruntime skips post_transform (but PROBIT) in the binary form, where
// the specification applies it to "the scores vector" and so does
// onnxshape (docs/divergences.md). multi_class (0 one-vs-rest, 1
// multinomial) is read and, as in onnxruntime, changes nothing: the
// scores are the same linear functions either way.
//
// The products go through ops/internal/gemm in float64 (linearregressor.go
// holds the glue), rounded once to float.
//
// Rules: [type], [rank]; [classlabels] exactly one of the label lists, of
// at least one label; [coefficients] E*C of them, or C with two labels;
// [intercepts] none or one per score; [post_transform].

package ops

import "github.com/onnxshape/onnxshape/tensor"

func init() {
	registerIn(domainML, "LinearClassifier", []int{1}, [2]int{1, 1}, [2]int{2, 2}, linearClassifierNode)
	declareAttrsIn(domainML, "LinearClassifier",
		AttrSpec{Name: "classlabels_ints", Type: AttrInts}, AttrSpec{Name: "classlabels_strings", Type: AttrStrings},
		AttrSpec{Name: "coefficients", Type: AttrFloats}, AttrSpec{Name: "intercepts", Type: AttrFloats},
		AttrSpec{Name: "multi_class", Type: AttrInt}, AttrSpec{Name: "post_transform", Type: AttrString})
}

func linearClassifierNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	rows, cols, err := treeInput(op, x, tensor.Float, tensor.Double, tensor.Int64, tensor.Int32)
	if err != nil {
		return nil, err
	}
	labels, err := mlLabels(n, "classlabels_ints")
	if err != nil {
		return nil, err
	}
	e := labels.Len()
	coef, _, err := n.Floats("coefficients")
	if err != nil {
		return nil, err
	}
	k := e
	switch {
	case e == 2 && cols > 0 && len(coef) == cols:
		k = 1
	case int64(len(coef)) != int64(e)*int64(cols):
		return nil, op.errorf("coefficients", "%d coefficients for %d classes of %d features", len(coef), e, cols)
	}
	icpt, _, err := n.Floats("intercepts")
	if err != nil {
		return nil, err
	}
	if len(icpt) != 0 && len(icpt) != k {
		return nil, op.errorf("intercepts", "%d intercepts for %d scores", len(icpt), k)
	}
	if _, err := n.Int("multi_class", 0); err != nil {
		return nil, err
	}
	post, err := mlTransform(n)
	if err != nil {
		return nil, err
	}
	width := k
	if k == 1 {
		width = 2
	}
	if err := opt.checkSize(op, tensor.Float, []int{rows, width}); err != nil {
		return nil, err
	}
	scores, err := linearScores(opt, op, x, rows, cols, coef, k, icpt)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, labels.DataType(), []int{rows})
	if err != nil {
		return nil, err
	}
	z, err := opt.newOverwritten(op, tensor.Float, []int{rows, width})
	if err != nil {
		return nil, err
	}
	out := asElems[float32](z.Bytes())
	for r := range rows {
		row := scores[r*k : (r+1)*k]
		best := mlBest(row)
		if k == 1 {
			best = 0
			if row[0] > 0 {
				best = 1
			}
		}
		mlSetLabel(y, r, labels, best)
		post.Apply(row)
		if k == 1 {
			out[2*r], out[2*r+1] = float32(1-row[0]), float32(row[0])
			continue
		}
		for j, v := range row {
			out[r*k+j] = float32(v)
		}
	}
	return values(y, z), nil
}

// What the classifiers of ai.onnx.ml (LinearClassifier, SVMClassifier,
// TreeEnsembleClassifier) share: their labels and the choice of the best.

// mlLabels reads the integer labels (intsName: classlabels_ints, or
// TreeEnsembleClassifier's classlabels_int64s) or classlabels_strings,
// exactly one of them, as a tensor of one axis ([classlabels]).
func mlLabels(n *Node, intsName string) (*tensor.Tensor, error) {
	op := n.op()
	ints, hasInts, err := n.Ints(intsName)
	if err != nil {
		return nil, err
	}
	strs, hasStrs, err := n.attr("classlabels_strings", AttrStrings)
	if err != nil {
		return nil, err
	}
	hasInts, hasStrs = hasInts && len(ints) > 0, hasStrs && len(strs.Strings) > 0
	switch {
	case hasInts && hasStrs:
		return nil, op.errorf("classlabels", "%s and classlabels_strings are both set", intsName)
	case hasInts:
		return tensor.MustFromSlice(append([]int64{}, ints...), len(ints)), nil
	case hasStrs:
		return tensor.MustFromSlice(append([]string{}, strs.Strings...), len(strs.Strings)), nil
	}
	return nil, op.errorf("classlabels", "one of %s and classlabels_strings must list the labels", intsName)
}

// mlBest is the index of the first highest score; a NaN never beats the
// score before it.
func mlBest(row []float64) int {
	best := 0
	for j := 1; j < len(row); j++ {
		if row[j] > row[best] {
			best = j
		}
	}
	return best
}

// mlSetLabel sets y[r] to label i of labels.
func mlSetLabel(y *tensor.Tensor, r int, labels *tensor.Tensor, i int) {
	if y.DataType() == tensor.String {
		y.Strings()[r] = labels.Strings()[i]
		return
	}
	asElems[int64](y.Bytes())[r] = asElems[int64](labels.Bytes())[i]
}
