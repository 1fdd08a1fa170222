// LinearRegressor (ai.onnx.ml, version 1) computes, for each row x of X
// ([N, C] or [C], one row; float, double, int64 or int32), the targets
// scores x·W^T + b, W being coefficients read as [targets, C] and b the
// intercepts (none, or one per target), then applies post_transform (NONE,
// the default, SOFTMAX, LOGISTIC, SOFTMAX_ZERO or PROBIT) to each row, and
// writes Y, float [N, targets].
//
// The products go through ops/internal/gemm in float64, rounded once to
// float; the post-transforms are ops/internal/mlpost's. onnxruntime
// computes in float32, and skips every post_transform but PROBIT when
// targets is 1; the specification applies the transform to every score
// vector, and so does onnxshape (docs/divergences.md).
//
// Rules: [type], [rank] (as the tree operators: treeInput); [targets] at
// least 1; [coefficients] targets*C of them; [intercepts] none or one per
// target; [post_transform] one of the five.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/mlpost"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "LinearRegressor", []int{1}, [2]int{1, 1}, [2]int{1, 1}, linearRegressorNode)
	declareAttrsIn(domainML, "LinearRegressor",
		AttrSpec{Name: "coefficients", Type: AttrFloats}, AttrSpec{Name: "intercepts", Type: AttrFloats},
		AttrSpec{Name: "post_transform", Type: AttrString}, AttrSpec{Name: "targets", Type: AttrInt})
}

func linearRegressorNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
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
	targets, err := n.Int("targets", 1)
	if err != nil {
		return nil, err
	}
	if targets < 1 || targets > math.MaxInt32 {
		return nil, op.errorf("targets", "targets must be at least 1, got %d", targets)
	}
	coef, _, err := n.Floats("coefficients")
	if err != nil {
		return nil, err
	}
	if int64(len(coef)) != targets*int64(cols) {
		return nil, op.errorf("coefficients", "%d coefficients for %d targets of %d features", len(coef), targets, cols)
	}
	icpt, _, err := n.Floats("intercepts")
	if err != nil {
		return nil, err
	}
	if len(icpt) != 0 && int64(len(icpt)) != targets {
		return nil, op.errorf("intercepts", "%d intercepts for %d targets", len(icpt), targets)
	}
	post, err := mlTransform(n)
	if err != nil {
		return nil, err
	}
	k := int(targets)
	if err := opt.checkSize(op, tensor.Float, []int{rows, k}); err != nil {
		return nil, err
	}
	scores, err := linearScores(opt, op, x, rows, cols, coef, k, icpt)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, tensor.Float, []int{rows, k})
	if err != nil {
		return nil, err
	}
	out := asElems[float32](y.Bytes())
	for r := range rows {
		post.Apply(scores[r*k : (r+1)*k])
	}
	for i, v := range scores {
		out[i] = float32(v)
	}
	return values(y), nil
}

// What the linear operators of ai.onnx.ml (LinearRegressor,
// LinearClassifier, SVMRegressor and SVMClassifier with a linear kernel)
// share: the post_transform attribute and the scores X·W^T + b.

// mlTransform reads the post_transform string attribute (default NONE).
func mlTransform(n *Node) (mlpost.Transform, error) {
	name, err := n.Str("post_transform", "NONE")
	if err != nil {
		return 0, err
	}
	t, ok := mlpost.Parse(name)
	if !ok {
		return 0, n.op().errorf("post_transform", "post_transform must be NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO or PROBIT, got %q", name)
	}
	return t, nil
}

// mlRows returns X's elements as float64 (every type the ml operators
// take converts exactly, int64 beyond 2^53 aside), charged as scratch.
func mlRows(opt *Options, op opRef, x *tensor.Tensor) ([]float64, error) {
	if err := opt.scratch(op, "X as float64", x.Len(), 8); err != nil {
		return nil, err
	}
	xs := make([]float64, x.Len())
	if x.DataType().IsFloat() {
		convert.DecodeFloats(xs, x, 0)
		return xs, nil
	}
	if err := opt.scratch(op, "X as int64", x.Len(), 8); err != nil {
		return nil, err
	}
	ints := make([]int64, x.Len())
	convert.DecodeInts(ints, x, 0)
	for i, v := range ints {
		xs[i] = float64(v)
	}
	return xs, nil
}

// linearScores returns rows*k scores x·W^T + b in float64: W is coef as
// [k, cols] (float32 values), b the intercepts (nil or k of them).
func linearScores(opt *Options, op opRef, x *tensor.Tensor, rows, cols int, coef []float32, k int, icpt []float32) ([]float64, error) {
	xs, err := mlRows(opt, op, x)
	if err != nil {
		return nil, err
	}
	return linearScores64(opt, op, xs, rows, cols, coef, k, icpt)
}
