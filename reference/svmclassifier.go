// SVMClassifier (ai.onnx.ml, version 1), after the ONNX-ML specification:
// "Support Vector Machine classifier"; Y "Classification outputs (one
// class per example)"; Z "Class scores (one per class per example), if
// prob_a and prob_b are provided they are probabilities for each class,
// otherwise they are raw scores"; classlabels_ints or classlabels_strings;
// coefficients; kernel_params [gamma, coef0, degree]; kernel_type LINEAR,
// POLY, RBF, SIGMOID; post_transform; prob_a, prob_b "First set of
// probability coefficients" and "Second set"; rho; support_vectors;
// vectors_per_class. The formulas follow onnxruntime and libsvm, as
// ops/svmclassifier.go says: one-vs-one scores and votes with support
// vectors (the pair's probability 1 - logistic(score*a + b), then Wu, Lin
// and Weng's pairwise coupling), or the linear machine x·w_k + rho[0].
// Sums in float64, in vector (feature) order.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "SVMClassifier", []int{1}, svmClassifier) }

func svmClassifier(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, rows, f, err := mlInput(op, in)
	if err != nil {
		return nil, err
	}
	ints, strs, err := classLabels(n)
	if err != nil {
		return nil, err
	}
	e := len(ints) + len(strs)
	kernel, params, err := svmKernelAttrs(n)
	if err != nil {
		return nil, err
	}
	per, _, err := n.Ints("vectors_per_class")
	if err != nil {
		return nil, err
	}
	var sv, coef, rho, pa, pb []float32
	for name, dst := range map[string]*[]float32{"support_vectors": &sv, "coefficients": &coef, "rho": &rho, "prob_a": &pa, "prob_b": &pb} {
		if *dst, _, err = n.Floats(name); err != nil {
			return nil, err
		}
	}
	post, err := mlPostTransform(n)
	if err != nil {
		return nil, err
	}
	v := 0
	for _, c := range per {
		if c < 0 || c > math.MaxInt32 || int64(v)+c > math.MaxInt32 {
			return nil, op.errorf("vectors_per_class", "a count out of range")
		}
		v += int(c)
	}
	pairs := e * (e - 1) / 2
	if v > 0 {
		switch {
		case len(per) != e:
			return nil, op.errorf("vectors_per_class", "one count per class")
		case int64(len(sv)) != int64(v)*int64(f):
			return nil, op.errorf("support_vectors", "V*F values")
		case int64(len(coef)) != int64(e-1)*int64(v):
			return nil, op.errorf("coefficients", "(E-1)*V coefficients")
		case len(rho) != pairs:
			return nil, op.errorf("rho", "one rho per pair")
		case len(pa) != len(pb) || len(pa) != 0 && len(pa) != pairs:
			return nil, op.errorf("prob_a", "prob_a and prob_b one per pair")
		}
	} else {
		switch {
		case int64(len(coef)) != int64(e)*int64(f):
			return nil, op.errorf("coefficients", "E*F coefficients")
		case len(rho) < 1:
			return nil, op.errorf("rho", "rho must hold the intercept")
		case len(pa) != len(pb):
			return nil, op.errorf("prob_a", "prob_a and prob_b of one length")
		}
	}
	proba := len(pa) > 0
	width := e
	if v > 0 && !proba {
		width = max(pairs, 2)
	}
	if err := checkSize(opt, op, tensor.Float, []int{rows, width}); err != nil {
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
	z, err := newTensor(opt, op, tensor.Float, []int{rows, width})
	if err != nil {
		return nil, err
	}
	positive := true
	for _, c := range coef {
		positive = positive && c >= 0
	}
	for r := range rows {
		row := make([]float64, f)
		for i := range row {
			row[i] = realOf(elementAt(x, r*f+i))
		}
		var label int
		var zr []float64
		if v > 0 {
			kv := make([]float64, v)
			for j := range v {
				kv[j] = svmKernelValue(kernel, params, row, sv[j*f:(j+1)*f])
			}
			start := make([]int, e)
			for i := 1; i < e; i++ {
				start[i] = start[i-1] + int(per[i-1])
			}
			scores := make([]float64, 0, pairs)
			votes := make([]int, e)
			for i := range e {
				for j := i + 1; j < e; j++ {
					s := 0.0
					for m := range int(per[i]) {
						s += float64(coef[(j-1)*v+start[i]+m]) * kv[start[i]+m]
					}
					for m := range int(per[j]) {
						s += float64(coef[i*v+start[j]+m]) * kv[start[j]+m]
					}
					s += float64(rho[len(scores)])
					scores = append(scores, s)
					if s > 0 {
						votes[i]++
					} else {
						votes[j]++
					}
				}
			}
			for k := range votes {
				if votes[k] > votes[label] {
					label = k
				}
			}
			switch {
			case proba:
				zr = coupling(scores, pa, pb, e)
				if e > 1 {
					postTransform(post, zr)
				}
			case pairs == 1:
				d := scores[0]
				switch post {
				case "NONE":
					zr = []float64{-d, d}
				case "PROBIT":
					zr = []float64{math.Sqrt2 * math.Erfinv(2*d-1), 0}
				case "LOGISTIC":
					zr = []float64{1 / (1 + math.Exp(d)), 1 / (1 + math.Exp(-d))}
				default:
					zr = []float64{1 - d, d}
				}
			default:
				zr = make([]float64, width)
				copy(zr, scores)
				if len(scores) > 1 {
					postTransform(post, zr)
				}
			}
		} else {
			zr = make([]float64, e)
			for k := range e {
				s := 0.0
				for i := range f {
					s += row[i] * float64(coef[k*f+i])
				}
				zr[k] = s + float64(rho[0])
			}
			for k := range zr {
				if zr[k] > zr[label] {
					label = k
				}
			}
			if e == 2 && !proba && (positive && zr[label] >= 0.5 || !positive && zr[label] > 0) {
				label = 1
			}
			if e > 1 {
				postTransform(post, zr)
			} else if post == "PROBIT" {
				zr[0] = math.Sqrt2 * math.Erfinv(2*zr[0]-1)
			}
		}
		setLabel(y, r, ints, strs, label)
		for k, s := range zr {
			data[float32](z)[r*width+k] = float32(s)
		}
	}
	return values(y, z), nil
}

// coupling is libsvm's multiclass_probability: the pairs' probabilities
// r_ij = 1 - logistic(score*a + b), clamped to [1e-7, 1-1e-7], coupled into
// k class probabilities by Wu, Lin and Weng's second method (at most 100
// iterations, until the error is below 0.005/k).
func coupling(scores []float64, pa, pb []float32, k int) []float64 {
	r := make([][]float64, k)
	q := make([][]float64, k)
	for i := range r {
		r[i], q[i] = make([]float64, k), make([]float64, k)
	}
	pair := 0
	for i := range k {
		for j := i + 1; j < k; j++ {
			p := 1 - 1/(1+math.Exp(-(scores[pair]*float64(pa[pair])+float64(pb[pair]))))
			p = math.Min(math.Max(p, 1e-7), 1-1e-7)
			r[i][j], r[j][i] = p, 1-p
			pair++
		}
	}
	p := make([]float64, k)
	for i := range k {
		p[i] = 1 / float64(k)
		for j := range k {
			switch {
			case j < i:
				q[i][i] += r[j][i] * r[j][i]
				q[i][j] = q[j][i]
			case j > i:
				q[i][i] += r[j][i] * r[j][i]
				q[i][j] = -r[j][i] * r[i][j]
			}
		}
	}
	qp := make([]float64, k)
	for range 100 {
		pqp := 0.0
		for i := range k {
			qp[i] = 0
			for j := range k {
				qp[i] += q[i][j] * p[j]
			}
			pqp += p[i] * qp[i]
		}
		worst := 0.0
		for i := range k {
			worst = math.Max(worst, math.Abs(qp[i]-pqp))
		}
		if worst < 0.005/float64(k) {
			break
		}
		for i := range k {
			diff := (-qp[i] + pqp) / q[i][i]
			p[i] += diff
			pqp = (pqp + diff*(diff*q[i][i]+2*qp[i])) / (1 + diff) / (1 + diff)
			for j := range k {
				qp[j] = (qp[j] + diff*q[i][j]) / (1 + diff)
				p[j] /= 1 + diff
			}
		}
	}
	return p
}
