// SVMClassifier (ai.onnx.ml, version 1) classifies each row x of X ([N,
// F] or [F]; float, double, int64 or int32) with a support-vector machine
// and writes Y, the labels ([N], int64 from classlabels_ints or string
// from classlabels_strings), and Z, float scores.
//
// With support vectors (vectors_per_class, V in all, support_vectors V x
// F) it is libsvm's one-vs-one machine: for each pair of classes i < j the
// score is the kernel values of class i's vectors weighted by row j-1 of
// coefficients ([E-1, V]) plus class j's weighted by row i, plus rho of
// the pair (E(E-1)/2 of them); a score above 0 votes for i, else for j,
// and the label is the class of most votes (the first of equal ones).
// Without prob_a and prob_b, Z holds the E(E-1)/2 pair scores ([N, 2] for
// two classes, see below); with them, the E probabilities of libsvm's
// pairwise coupling (ops/internal/svm). Without support vectors it is the
// linear machine: the E scores x·coefficients_k + rho[0] ([E, F]
// coefficients, the kernel ignored), the label the first highest. Z is
// then post_transform'd when it holds more than one score. The kernels
// are kernel_type LINEAR (default), POLY, RBF, SIGMOID with kernel_params
// [gamma, coef0, degree], the products through ops/internal/gemm in
// float64, rounded once to float.
//
// The specification says Z holds "Class scores (one per class per
// example), if prob_a and prob_b are provided they are probabilities for
// each class, otherwise they are raw scores", and nothing of how they are
// computed: onnxshape follows onnxruntime (svmclassifier.cc, ml_common.h),
// including the raw one-vs-one scores' number, and the two-class rules:
//
//   - Two classes with support vectors and no probabilities: one score s;
//     the label is the first when s > 0, else the second (the votes); Z
//     is [-s, s] under post_transform NONE, [logistic(-s), logistic(s)]
//     under LOGISTIC, [1-s, s] under SOFTMAX and SOFTMAX_ZERO (no
//     transform), [probit(s), 0] under PROBIT (onnxruntime leaves the
//     second column unwritten). LOGISTIC is what onnxruntime 1.30 does,
//     where its source of 2024 wrote [1-s, s].
//   - Two classes, linear machine, no probabilities: the second label when
//     every coefficient is >= 0 and the highest score >= 0.5, or some
//     coefficient is negative and the highest score > 0; else the label of
//     the highest score.
//
// Rules: [type], [rank]; [classlabels] exactly one label list, not empty;
// [kernel_type], [kernel_params]; [vectors_per_class] one count per class,
// none negative; [support_vectors] V*F of them; [coefficients] (E-1)*V of
// them (E*F for the linear machine); [rho] one per pair (at least one for
// the linear machine); [prob_a] prob_a and prob_b both absent or both one
// per pair; [post_transform].

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mlpost"
	"github.com/onnxshape/onnxshape/ops/internal/svm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "SVMClassifier", []int{1}, [2]int{1, 1}, [2]int{2, 2}, svmClassifierNode)
	declareAttrsIn(domainML, "SVMClassifier",
		AttrSpec{Name: "classlabels_ints", Type: AttrInts}, AttrSpec{Name: "classlabels_strings", Type: AttrStrings},
		AttrSpec{Name: "coefficients", Type: AttrFloats}, AttrSpec{Name: "kernel_params", Type: AttrFloats},
		AttrSpec{Name: "kernel_type", Type: AttrString}, AttrSpec{Name: "post_transform", Type: AttrString},
		AttrSpec{Name: "prob_a", Type: AttrFloats}, AttrSpec{Name: "prob_b", Type: AttrFloats},
		AttrSpec{Name: "rho", Type: AttrFloats}, AttrSpec{Name: "support_vectors", Type: AttrFloats},
		AttrSpec{Name: "vectors_per_class", Type: AttrInts})
}

func svmClassifierNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
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
	labels, err := mlLabels(n, "classlabels_ints")
	if err != nil {
		return nil, err
	}
	e := labels.Len()
	kernel, err := svmKernel(n)
	if err != nil {
		return nil, err
	}
	perClass64, _, err := n.Ints("vectors_per_class")
	if err != nil {
		return nil, err
	}
	sv, _, err := n.Floats("support_vectors")
	if err != nil {
		return nil, err
	}
	coef, _, err := n.Floats("coefficients")
	if err != nil {
		return nil, err
	}
	rho32, _, err := n.Floats("rho")
	if err != nil {
		return nil, err
	}
	pa, _, err := n.Floats("prob_a")
	if err != nil {
		return nil, err
	}
	pb, _, err := n.Floats("prob_b")
	if err != nil {
		return nil, err
	}
	post, err := mlTransform(n)
	if err != nil {
		return nil, err
	}
	perClass, start := make([]int, len(perClass64)), make([]int, len(perClass64))
	v := 0
	for i, c := range perClass64 {
		if c < 0 || c > math.MaxInt32 || int64(v)+c > math.MaxInt32 {
			return nil, op.errorf("vectors_per_class", "vectors_per_class[%d] = %d is not a count", i, c)
		}
		perClass[i], start[i] = int(c), v
		v += int(c)
	}
	pairs := e * (e - 1) / 2
	if v > 0 {
		switch {
		case len(perClass) != e:
			return nil, op.errorf("vectors_per_class", "%d counts for %d classes", len(perClass), e)
		case int64(len(sv)) != int64(v)*int64(features):
			return nil, op.errorf("support_vectors", "%d support vector values for %d vectors of %d features", len(sv), v, features)
		case int64(len(coef)) != int64(e-1)*int64(v):
			return nil, op.errorf("coefficients", "%d coefficients for %d classes and %d vectors", len(coef), e, v)
		case len(rho32) != pairs:
			return nil, op.errorf("rho", "%d rho for %d pairs of classes", len(rho32), pairs)
		case len(pa) != len(pb) || len(pa) != 0 && len(pa) != pairs:
			return nil, op.errorf("prob_a", "prob_a and prob_b have %d and %d values for %d pairs", len(pa), len(pb), pairs)
		}
	} else {
		switch {
		case int64(len(coef)) != int64(e)*int64(features):
			return nil, op.errorf("coefficients", "%d coefficients for %d classes of %d features", len(coef), e, features)
		case len(rho32) < 1:
			return nil, op.errorf("rho", "rho must hold the intercept")
		case len(pa) != len(pb):
			return nil, op.errorf("prob_a", "prob_a and prob_b have %d and %d values", len(pa), len(pb))
		}
	}
	proba := len(pa) > 0
	width := e
	if v > 0 && !proba {
		width = max(pairs, 2)
	}
	if err := opt.checkSize(op, tensor.Float, []int{rows, width}); err != nil {
		return nil, err
	}
	var scores []float64 // rows * (pairs or e)
	if v > 0 {
		kv, err := svmKernelScores(opt, op, x, rows, features, kernel, sv, v)
		if err != nil {
			return nil, err
		}
		if err := opt.scratch(op, "pair scores and votes", mulCounts(rows, pairs+e), 8); err != nil {
			return nil, err
		}
		scores = make([]float64, rows*pairs)
		votes := make([]int, rows*e)
		w, rho := float64s(coef), float64s(rho32)
		for r := range rows {
			svm.OneVsOne(kv[r*v:(r+1)*v], perClass, start, w, rho, scores[r*pairs:(r+1)*pairs], votes[r*e:(r+1)*e])
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
		var scratch, probs []float64
		if proba {
			if err := opt.scratch(op, "pairwise coupling", svm.ProbabilitiesScratch(e)+e, 8); err != nil {
				return nil, err
			}
			scratch, probs = make([]float64, svm.ProbabilitiesScratch(e)), make([]float64, e)
		}
		a, b := float64s(pa), float64s(pb)
		for r := range rows {
			vr := votes[r*e : (r+1)*e]
			best := 0
			for k := range vr {
				if vr[k] > vr[best] {
					best = k
				}
			}
			mlSetLabel(y, r, labels, best)
			s := scores[r*pairs : (r+1)*pairs]
			zr := out[r*width : (r+1)*width]
			switch {
			case proba:
				svm.Probabilities(s, a, b, e, scratch, probs)
				if e > 1 {
					post.Apply(probs)
				}
				for k, p := range probs {
					zr[k] = float32(p)
				}
			case pairs == 1:
				d := s[0]
				switch post {
				case mlpost.None:
					zr[0], zr[1] = float32(-d), float32(d)
				case mlpost.Probit:
					zr[0], zr[1] = float32(math.Sqrt2*math.Erfinv(2*d-1)), 0
				case mlpost.Logistic:
					zr[0], zr[1] = float32(1/(1+math.Exp(d))), float32(1/(1+math.Exp(-d)))
				default:
					zr[0], zr[1] = float32(1-d), float32(d)
				}
			default:
				row := append([]float64(nil), s...)
				if len(row) > 1 {
					post.Apply(row)
				}
				for k, p := range row {
					zr[k] = float32(p)
				}
				if len(row) < width {
					clear(zr[len(row):])
				}
			}
		}
		return values(y, z), nil
	}
	xs, err := mlRows(opt, op, x)
	if err != nil {
		return nil, err
	}
	if scores, err = linearScores64(opt, op, xs, rows, features, coef, e, rho32[:1]); err != nil {
		return nil, err
	}
	positive := true
	for _, c := range coef {
		positive = positive && c >= 0
	}
	y, err := opt.newOverwritten(op, labels.DataType(), []int{rows})
	if err != nil {
		return nil, err
	}
	z, err := opt.newOverwritten(op, tensor.Float, []int{rows, e})
	if err != nil {
		return nil, err
	}
	out := asElems[float32](z.Bytes())
	for r := range rows {
		row := scores[r*e : (r+1)*e]
		best := mlBest(row)
		label := best
		if e == 2 && !proba && (positive && row[best] >= 0.5 || !positive && row[best] > 0) {
			label = 1
		}
		mlSetLabel(y, r, labels, label)
		if e > 1 {
			post.Apply(row)
		} else if post == mlpost.Probit {
			row[0] = math.Sqrt2 * math.Erfinv(2*row[0]-1)
		}
		for k, p := range row {
			out[r*e+k] = float32(p)
		}
	}
	return values(y, z), nil
}

// float64s widens a float attribute list.
func float64s(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, f := range v {
		out[i] = float64(f)
	}
	return out
}
