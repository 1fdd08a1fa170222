// LinearClassifier (ai.onnx.ml, version 1), after the ONNX-ML
// specification: "Linear classifier". Y: "Classification outputs (one
// class per example)"; Z: "Classification scores ([N,E] - one score for
// each class and example)"; classlabels_ints or classlabels_strings, one
// and only one; coefficients "A collection of weights of the model(s)";
// intercepts "A collection of intercepts"; multi_class "Indicates whether
// to do OvR or multinomial (0=OvR is the default)"; post_transform
// "Indicates the transform to apply to the scores vector". The rest
// follows onnxruntime (ops/linearclassifier.go says it): E labels score
// E classes, or one score with two labels and C coefficients (the binary
// form: label 1 when the score is above 0, Z = [1-p, p]); the label is the
// first highest score before post_transform. Sums in float64 in feature
// order, rounded once.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "LinearClassifier", []int{1}, linearClassifier) }

func linearClassifier(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, rows, c, err := mlInput(op, in)
	if err != nil {
		return nil, err
	}
	ints, strs, err := classLabels(n)
	if err != nil {
		return nil, err
	}
	e := len(ints) + len(strs)
	coef, _, err := n.Floats("coefficients")
	if err != nil {
		return nil, err
	}
	k := e
	if e == 2 && c > 0 && len(coef) == c {
		k = 1
	} else if int64(len(coef)) != int64(e)*int64(c) {
		return nil, op.errorf("coefficients", "E*C coefficients")
	}
	icpt, _, err := n.Floats("intercepts")
	if err != nil {
		return nil, err
	}
	if len(icpt) != 0 && len(icpt) != k {
		return nil, op.errorf("intercepts", "one intercept per score")
	}
	if _, err := n.Int("multi_class", 0); err != nil {
		return nil, err
	}
	post, err := mlPostTransform(n)
	if err != nil {
		return nil, err
	}
	width := k
	if k == 1 {
		width = 2
	}
	yt := tensor.Int64
	if len(strs) > 0 {
		yt = tensor.String
	}
	y, err := newTensor(opt, op, yt, []int{rows})
	if err != nil {
		return nil, err
	}
	z, err := newTensor(opt, op, tensor.Float, []int{rows, width})
	if err != nil {
		return nil, err
	}
	for r := range rows {
		s := linearRow(x, r, c, coef, k, icpt)
		best := 0
		if k == 1 {
			if s[0] > 0 {
				best = 1
			}
		} else {
			for j := range s {
				if s[j] > s[best] {
					best = j
				}
			}
		}
		setLabel(y, r, ints, strs, best)
		postTransform(post, s)
		if k == 1 {
			s = []float64{1 - s[0], s[0]}
		}
		for j, v := range s {
			data[float32](z)[r*width+j] = float32(v)
		}
	}
	return values(y, z), nil
}

// classLabels reads classlabels_ints or classlabels_strings, one and only
// one of them, not empty.
func classLabels(n *ops.Node) ([]int64, []string, error) {
	return namedClassLabels(n, "classlabels_ints")
}

// namedClassLabels is classLabels with the integer list named intsName
// (TreeEnsembleClassifier's is classlabels_int64s).
func namedClassLabels(n *ops.Node, intsName string) ([]int64, []string, error) {
	ints, _, err := n.Ints(intsName)
	if err != nil {
		return nil, nil, err
	}
	var strs []string
	if a, ok := n.Attrs["classlabels_strings"]; ok {
		if a.Type != ops.AttrStrings {
			return nil, nil, opOf(n).errorf("attribute", "classlabels_strings must be strings")
		}
		strs = a.Strings
	}
	if (len(ints) > 0) == (len(strs) > 0) {
		return nil, nil, opOf(n).errorf("classlabels", "one and only one classlabels list")
	}
	return ints, strs, nil
}

// setLabel sets y[r] to label i.
func setLabel(y *tensor.Tensor, r int, ints []int64, strs []string, i int) {
	if len(strs) > 0 {
		y.Strings()[r] = strs[i]
		return
	}
	data[int64](y)[r] = ints[i]
}
