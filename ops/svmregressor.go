// SVMRegressor (ai.onnx.ml, version 1) scores each row x of X ([N, F] or
// [F]; float, double, int64 or int32) with a support-vector machine and
// writes Y, float [N, 1]: with n_supports > 0 support vectors sv_v
// (support_vectors, n_supports x F), the sum of coefficients[v] K(x, sv_v)
// plus rho[0]; with n_supports 0 the linear machine x·coefficients +
// rho[0] (F coefficients, the kernel ignored). K is kernel_type LINEAR
// (the default), POLY, RBF or SIGMOID with kernel_params [gamma, coef0,
// degree] (none: all 0), as ops/internal/svm computes them (the products
// through ops/internal/gemm, in float64, rounded once to float).
// one_class 1 makes the score 1 when above 0, else -1. post_transform
// then applies to the score, as the specification says ("the transform
// to apply to the score"); onnxruntime ignores it (docs/divergences.md).
// The specification says nothing of the formula: it follows onnxruntime
// (svmregressor.cc), which also runs float X only.
//
// Rules: [type], [rank]; [kernel_type]; [kernel_params] none or three;
// [n_supports] not negative; [support_vectors] n_supports*F of them;
// [coefficients] n_supports of them (F without support vectors); [rho]
// at least one (the first is used); [post_transform].

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/svm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "SVMRegressor", []int{1}, [2]int{1, 1}, [2]int{1, 1}, svmRegressorNode)
	declareAttrsIn(domainML, "SVMRegressor",
		AttrSpec{Name: "coefficients", Type: AttrFloats}, AttrSpec{Name: "kernel_params", Type: AttrFloats},
		AttrSpec{Name: "kernel_type", Type: AttrString}, AttrSpec{Name: "n_supports", Type: AttrInt},
		AttrSpec{Name: "one_class", Type: AttrInt}, AttrSpec{Name: "post_transform", Type: AttrString},
		AttrSpec{Name: "rho", Type: AttrFloats}, AttrSpec{Name: "support_vectors", Type: AttrFloats})
}

func svmRegressorNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
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
	kernel, err := svmKernel(n)
	if err != nil {
		return nil, err
	}
	supports, err := n.Int("n_supports", 0)
	if err != nil {
		return nil, err
	}
	if supports < 0 || supports > math.MaxInt32 {
		return nil, op.errorf("n_supports", "n_supports must be a count, got %d", supports)
	}
	sv, _, err := n.Floats("support_vectors")
	if err != nil {
		return nil, err
	}
	coef, _, err := n.Floats("coefficients")
	if err != nil {
		return nil, err
	}
	rho, _, err := n.Floats("rho")
	if err != nil {
		return nil, err
	}
	oneClass, err := n.Int("one_class", 0)
	if err != nil {
		return nil, err
	}
	post, err := mlTransform(n)
	if err != nil {
		return nil, err
	}
	v := int(supports)
	if v > 0 && int64(len(sv)) != int64(v)*int64(features) {
		return nil, op.errorf("support_vectors", "%d support vector values for %d vectors of %d features", len(sv), v, features)
	}
	if want := max(v, features*boolInt(v == 0)); len(coef) != want {
		return nil, op.errorf("coefficients", "%d coefficients, want %d", len(coef), want)
	}
	if len(rho) < 1 {
		return nil, op.errorf("rho", "rho must hold the intercept")
	}
	if err := opt.checkSize(op, tensor.Float, []int{rows, 1}); err != nil {
		return nil, err
	}
	var scores []float64
	if v > 0 {
		scores, err = svmKernelScores(opt, op, x, rows, features, kernel, sv, v)
		if err == nil {
			scores, err = linearScores64(opt, op, scores, rows, v, coef, 1, rho[:1])
		}
	} else {
		var xs []float64
		if xs, err = mlRows(opt, op, x); err == nil {
			scores, err = linearScores64(opt, op, xs, rows, features, coef, 1, rho[:1])
		}
	}
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, tensor.Float, []int{rows, 1})
	if err != nil {
		return nil, err
	}
	out := asElems[float32](y.Bytes())
	for r, s := range scores {
		if oneClass != 0 {
			s = 1
			if scores[r] <= 0 {
				s = -1
			}
		}
		row := []float64{s}
		post.Apply(row)
		out[r] = float32(row[0])
	}
	return values(y), nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// What SVMClassifier and SVMRegressor share: the kernel attributes and
// the kernel values of X's rows against the support vectors.

// svmKernel reads kernel_type and kernel_params.
func svmKernel(n *Node) (svm.Kernel, error) {
	op := n.op()
	name, err := n.Str("kernel_type", "LINEAR")
	if err != nil {
		return svm.Kernel{}, err
	}
	t, ok := map[string]svm.KernelType{"LINEAR": svm.Linear, "POLY": svm.Poly, "RBF": svm.RBF, "SIGMOID": svm.Sigmoid}[name]
	if !ok {
		return svm.Kernel{}, op.errorf("kernel_type", "kernel_type must be LINEAR, POLY, RBF or SIGMOID, got %q", name)
	}
	params, _, err := n.Floats("kernel_params")
	if err != nil {
		return svm.Kernel{}, err
	}
	k := svm.Kernel{Type: t}
	switch len(params) {
	case 0:
	case 3:
		k.Gamma, k.Coef0, k.Degree = float64(params[0]), float64(params[1]), float64(params[2])
	default:
		return svm.Kernel{}, op.errorf("kernel_params", "kernel_params must be [gamma, coef0, degree], got %d values", len(params))
	}
	return k, nil
}

// svmKernelScores returns the kernel values of X's rows against the v
// support vectors of sv (rows*v float64).
func svmKernelScores(opt *Options, op opRef, x *tensor.Tensor, rows, features int, k svm.Kernel, sv []float32, v int) ([]float64, error) {
	xs, err := mlRows(opt, op, x)
	if err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "support vectors as float64", len(sv), 8); err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "kernel values", mulCounts(rows, v), 8); err != nil {
		return nil, err
	}
	vs := make([]float64, len(sv))
	for i, f := range sv {
		vs[i] = float64(f)
	}
	out := make([]float64, rows*v)
	if err := k.Products(gemmConfig(opt, op), xs, rows, features, vs, v, out); err != nil {
		return nil, gemmError(op, err)
	}
	return out, nil
}

// linearScores64 is a (rows x cols, float64) times coef^T (k x cols) plus
// bias, through the GEMM engine: rows*k float64. bias holds one value
// added to every score, k values (one per column of scores), or none.
func linearScores64(opt *Options, op opRef, a []float64, rows, cols int, coef []float32, k int, bias []float32) ([]float64, error) {
	if err := opt.scratch(op, "coefficients as float64", len(coef), 8); err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "scores", mulCounts(rows, k), 8); err != nil {
		return nil, err
	}
	w := make([]float64, len(coef))
	for i, c := range coef {
		w[i] = float64(c)
	}
	scores := make([]float64, rows*k)
	if rows > 0 && cols > 0 {
		if err := gemm.Float64(gemmConfig(opt, op), false, true, rows, k, cols, 1, a, cols, w, cols, 0, scores, k); err != nil {
			return nil, gemmError(op, err)
		}
	}
	switch {
	case len(bias) == 1:
		for i := range scores {
			scores[i] += float64(bias[0])
		}
	case len(bias) > 1:
		for i := range scores {
			scores[i] += float64(bias[i%k])
		}
	}
	return scores, nil
}
