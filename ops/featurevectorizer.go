// FeatureVectorizer (ai.onnx.ml, version 1) concatenates its inputs (one
// or more, int32, int64, float or double, all of one type, each [N, C_i]
// or [C_i], one row) along their second axis into Y, float [N, sum of
// inputdimensions]: input i fills inputdimensions[i] columns, its first
// min(C_i, inputdimensions[i]) features followed by zeros (the
// specification calls inputdimensions "the size of each input" and says
// nothing of a mismatch; onnxruntime truncates or pads, and so does
// onnxshape).
//
// Rules: [type] one allowed type for every input; [rank] each input [N,
// C] or [C]; [rows] every input of N rows; [inputdimensions] one entry per
// input, none negative.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "FeatureVectorizer", []int{1}, [2]int{1, -1}, [2]int{1, 1}, featureVectorizerNode)
	declareAttrsIn(domainML, "FeatureVectorizer", AttrSpec{Name: "inputdimensions", Type: AttrInts})
}

func featureVectorizerNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	xs := make([]*tensor.Tensor, len(in))
	rows := -1
	for i := range in {
		x, err := n.requiredInput(in, i, "X")
		if err != nil {
			return nil, err
		}
		r, _, err := treeInput(op, x, tensor.Int32, tensor.Int64, tensor.Float, tensor.Double)
		if err != nil {
			return nil, err
		}
		if x.DataType() != xs0Type(xs, x) {
			return nil, op.errorf("type", "input %d is %v, input 0 %v: the inputs must be of one type", i, x.DataType(), xs[0].DataType())
		}
		if rows >= 0 && r != rows {
			return nil, op.errorf("rows", "input %d has %d rows, input 0 %d", i, r, rows)
		}
		rows, xs[i] = r, x
	}
	dims, _, err := n.Ints("inputdimensions")
	if err != nil {
		return nil, err
	}
	if len(dims) != len(xs) {
		return nil, op.errorf("inputdimensions", "%d inputdimensions for %d inputs", len(dims), len(xs))
	}
	total := 0
	for i, d := range dims {
		if d < 0 || d > math.MaxInt32 {
			return nil, op.errorf("inputdimensions", "inputdimensions[%d] = %d", i, d)
		}
		total = addCounts(total, int(d))
	}
	y, err := opt.newTensor(op, tensor.Float, []int{rows, total})
	if err != nil {
		return nil, err
	}
	out := asElems[float32](y.Bytes())
	at := 0
	for i, x := range xs {
		d := int(dims[i])
		c := x.Shape()[x.Rank()-1]
		v, err := mlRows(opt, op, x)
		if err != nil {
			return nil, err
		}
		for r := range rows {
			for j := range min(c, d) {
				out[r*total+at+j] = float32(v[r*c+j])
			}
		}
		if err := opt.cancelled(); err != nil {
			return nil, op.stopped(err)
		}
		at += d
	}
	return values(y), nil
}

// xs0Type is the type every input must have: the first's, or x's when x
// is the first.
func xs0Type(xs []*tensor.Tensor, x *tensor.Tensor) tensor.DataType {
	if xs[0] != nil {
		return xs[0].DataType()
	}
	return x.DataType()
}
