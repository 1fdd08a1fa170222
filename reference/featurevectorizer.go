// FeatureVectorizer (ai.onnx.ml, version 1), after the ONNX-ML
// specification: "Concatenates input tensors into one continuous output.
// All input shapes are 2-D and are concatenated along the second
// dimension. 1-D tensors are treated as [1,C]. Inputs are copied to the
// output maintaining the order of the input arguments. All inputs must be
// integers or floats, while the output will be all floating point values."
// inputdimensions: "The size of each input in the input list"; an input
// of other size is cut to it or padded with zeros, as onnxruntime does.
// T1: int32, int64, float, double; Y float [N, sum of inputdimensions].

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "FeatureVectorizer", []int{1}, featureVectorizer) }

func featureVectorizer(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	var xs []*tensor.Tensor
	rows := -1
	for i := range in {
		x, err := requiredInput(op, in, i, "X")
		if err != nil {
			return nil, err
		}
		switch x.DataType() {
		case tensor.Int32, tensor.Int64, tensor.Float, tensor.Double:
		default:
			return nil, op.errorf("type", "inputs must be int32, int64, float or double")
		}
		if x.Rank() != 1 && x.Rank() != 2 {
			return nil, op.errorf("rank", "inputs are [N, C] or [C]")
		}
		if len(xs) > 0 && x.DataType() != xs[0].DataType() {
			return nil, op.errorf("type", "inputs of one type")
		}
		r := 1
		if x.Rank() == 2 {
			r = x.Shape()[0]
		}
		if rows >= 0 && r != rows {
			return nil, op.errorf("rows", "inputs of one number of rows")
		}
		rows = r
		xs = append(xs, x)
	}
	dims, _, err := n.Ints("inputdimensions")
	if err != nil {
		return nil, err
	}
	if len(dims) != len(xs) {
		return nil, op.errorf("inputdimensions", "one size per input")
	}
	total := 0
	for _, d := range dims {
		if d < 0 || d > 1<<31-1 {
			return nil, op.errorf("inputdimensions", "a size out of range")
		}
		total += int(d)
	}
	y, err := newTensor(opt, op, tensor.Float, []int{rows, total})
	if err != nil {
		return nil, err
	}
	at := 0
	for i, x := range xs {
		c := x.Shape()[x.Rank()-1]
		for r := range rows {
			for j := 0; j < int(dims[i]) && j < c; j++ {
				data[float32](y)[r*total+at+j] = float32(realOf(elementAt(x, r*c+j)))
			}
		}
		at += int(dims[i])
	}
	return values(y), nil
}
