package ops_test

import (
	"math"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// stump is a forest of one tree: x[0] <= 0 leads to leaf 1, else leaf 2;
// votes lists (leaf, class, weight) triples.
func stump(labels []int64, post string, base []float32, votes ...[3]float64) ops.TreeEnsembleClassifierOptions {
	o := ops.TreeEnsembleClassifierOptions{
		NodesTreeids: []int64{0, 0, 0}, NodesNodeids: []int64{0, 1, 2}, NodesFeatureids: []int64{0, 0, 0},
		NodesModes: []string{"BRANCH_LEQ", "LEAF", "LEAF"}, NodesValues: []float32{0, 0, 0},
		NodesTruenodeids: []int64{1, 0, 0}, NodesFalsenodeids: []int64{2, 0, 0},
		ClasslabelsInt64s: labels, PostTransform: ptr(post), BaseValues: base,
	}
	for _, v := range votes {
		o.ClassTreeids = append(o.ClassTreeids, 0)
		o.ClassNodeids = append(o.ClassNodeids, int64(v[0]))
		o.ClassIds = append(o.ClassIds, int64(v[1]))
		o.ClassWeights = append(o.ClassWeights, float32(v[2]))
	}
	return o
}

// TestTreeEnsembleClassifierRules runs the rules of
// ops/treeensembleclassifier.go that follow onnxruntime, one row each.
func TestTreeEnsembleClassifierRules(t *testing.T) {
	lo, hi := tensor.MustFromSlice([]float32{-1}, 1, 1), tensor.MustFromSlice([]float32{1}, 1, 1)
	logistic := func(v float64) float32 { return float32(1 / (1 + math.Exp(-v))) }
	for _, c := range []struct {
		name  string
		o     ops.TreeEnsembleClassifierOptions
		x     *tensor.Tensor
		label int64
		z     []float32
	}{
		{"three classes, the top one", stump([]int64{7, 8, 9}, "NONE", nil, [3]float64{1, 0, 1}, [3]float64{1, 2, 3}, [3]float64{2, 1, 1}), lo, 9, []float32{1, 0, 3}},
		{"three classes, an unreached class never wins", stump([]int64{7, 8, 9}, "NONE", nil, [3]float64{1, 0, -1}, [3]float64{2, 1, 1}), lo, 7, []float32{-1, 0, 0}},
		{"binary, positive weights, p above 0.5", stump([]int64{4, 6}, "NONE", nil, [3]float64{1, 0, 0.75}, [3]float64{2, 0, 0.25}), lo, 6, []float32{0.25, 0.75}},
		{"binary, positive weights, p below 0.5", stump([]int64{4, 6}, "NONE", nil, [3]float64{1, 0, 0.75}, [3]float64{2, 0, 0.25}), hi, 4, []float32{0.75, 0.25}},
		{"binary, positive weights, LOGISTIC", stump([]int64{4, 6}, "LOGISTIC", nil, [3]float64{1, 0, 0.75}, [3]float64{2, 0, 0.25}), hi, 4, []float32{logistic(-0.25), logistic(0.25)}},
		{"binary, positive weights, SOFTMAX untouched", stump([]int64{4, 6}, "SOFTMAX", nil, [3]float64{1, 0, 0.75}, [3]float64{2, 0, 0.25}), lo, 6, []float32{0.25, 0.75}},
		{"binary, mixed weights, LOGISTIC", stump([]int64{4, 6}, "LOGISTIC", nil, [3]float64{1, 0, -2}, [3]float64{2, 0, 0.5}), hi, 6, []float32{logistic(-0.5), logistic(0.5)}},
		{"binary, mixed weights, SOFTMAX untouched", stump([]int64{4, 6}, "SOFTMAX", nil, [3]float64{1, 0, -2}, [3]float64{2, 0, 0.5}), lo, 4, []float32{2, -2}},
		{"binary, one base value", stump([]int64{4, 6}, "LOGISTIC", []float32{1}, [3]float64{1, 0, -2}, [3]float64{2, 0, 0.5}), hi, 6, []float32{logistic(-1.5), logistic(1.5)}},
		{"binary, class 1 voted, two scores", stump([]int64{4, 6}, "NONE", nil, [3]float64{1, 1, -2}, [3]float64{2, 1, 0.5}), hi, 6, []float32{0, 0.5}},
		{"binary, PROBIT of one score", stump([]int64{4, 6}, "PROBIT", nil, [3]float64{1, 0, 0.75}, [3]float64{2, 0, 0.25}), lo, 6, []float32{float32(math.Sqrt2 * math.Erfinv(0.5)), 0}},
		{"two labels, one base value, no vote for class 1", stump([]int64{4, 6}, "NONE", []float32{0.5}, [3]float64{1, 0, 1}, [3]float64{2, 1, 1}), lo, 6, []float32{1.5, 0}},
	} {
		out, err := ops.TreeEnsembleClassifier(c.x, c.o)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if lab, _ := tensor.Data[int64](out[0]); lab[0] != c.label || !near32(float32sOf(t, out[1]), c.z) {
			t.Errorf("%s: label %v scores %v, want %v %v", c.name, out[0], out[1], c.label, c.z)
		}
	}
}

// TestTreeEnsembleClassifierTopClassOfTwo pins the divergences from
// onnxruntime (docs/divergences.md): two labels outside the binary case
// give the top class, a label of the list, where onnxruntime gives the
// integer 1 (class 1's score is above 0); two base values are each added
// to their class, where onnxruntime makes class 1's score base_values[1]
// plus class 0's.
func TestTreeEnsembleClassifierTopClassOfTwo(t *testing.T) {
	x := tensor.MustFromSlice([]float32{-1}, 1, 1)
	out, err := ops.TreeEnsembleClassifier(x, stump([]int64{10, 20}, "NONE", nil, [3]float64{1, 0, 3}, [3]float64{1, 1, 1}, [3]float64{2, 1, 1}))
	if lab, _ := tensor.Data[int64](out[0]); err != nil || lab[0] != 10 || !slices.Equal(float32sOf(t, out[1]), []float32{3, 1}) {
		t.Errorf("two labels, scores 3 and 1: %v %v, want label 10 (onnxruntime: 1)", out, err)
	}
	out, err = ops.TreeEnsembleClassifier(x, stump([]int64{10, 20}, "NONE", []float32{0.5, 0.25}, [3]float64{1, 1, 2}, [3]float64{2, 1, 1}))
	if lab, _ := tensor.Data[int64](out[0]); err != nil || lab[0] != 20 || !slices.Equal(float32sOf(t, out[1]), []float32{0.5, 2.25}) {
		t.Errorf("two base values, a vote of 2 for class 1: %v %v, want [0.5 2.25] (onnxruntime: [-0.25 0.25])", out, err)
	}
}

// TestSVMRegressorTransformsTheScore pins the divergence from onnxruntime
// (docs/divergences.md): post_transform applies to SVMRegressor's score.
func TestSVMRegressorTransformsTheScore(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2}, 1, 2)
	y, err := ops.SVMRegressor(x, ops.SVMRegressorOptions{Coefficients: []float32{0.5, 0.25}, Rho: []float32{1}, PostTransform: ptr("LOGISTIC")})
	if want := float32(1 / (1 + math.Exp(-2))); err != nil || float32sOf(t, y)[0] != want {
		t.Errorf("SVMRegressor LOGISTIC of 2: %v %v, want %v", y, err, want)
	}
}

// TestSVMClassifierExamples: a two-class machine of two support vectors
// (one score s = k(x, sv0)*c0 + k(x, sv1)*c1 + rho, the first label when
// s > 0, Z = [-s, s]) and its linear form.
func TestSVMClassifierExamples(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 0, 0, 1}, 2, 2)
	out, err := ops.SVMClassifier(x, ops.SVMClassifierOptions{ClasslabelsInts: []int64{5, 9}, VectorsPerClass: []int64{1, 1},
		SupportVectors: []float32{1, 0, 0, 1}, Coefficients: []float32{1, -1}, Rho: []float32{0.5}})
	if err != nil {
		t.Fatal(err)
	}
	// Row 0: s = 1*1 + (-1)*0 + 0.5 = 1.5; row 1: s = 0 - 1 + 0.5 = -0.5.
	if lab, _ := tensor.Data[int64](out[0]); !slices.Equal(lab, []int64{5, 9}) || !slices.Equal(float32sOf(t, out[1]), []float32{-1.5, 1.5, 0.5, -0.5}) {
		t.Errorf("SVMClassifier: %v %v", out[0], out[1])
	}
}
