// OneHotEncoder (ai.onnx.ml, version 1), after the ONNX-ML specification:
// "Replace each input element with an array of ones and zeros, where a
// single one is placed at the index of the category that was passed in.
// The total category count will determine the size of the extra dimension
// of the output array Y. For example, if we pass a tensor with a single
// value of 4, and a category count of 8, the output will be a tensor with
// [0,0,0,0,1,0,0,0]. This operator assumes every input feature is from the
// same set of categories. If the input feature was not seen, it will be
// encoded as all zeros (zeros 1, the default) [...] or fail (zeros 0)".
// "If the input is a tensor of float, int32, or double, the data will be
// cast to integers and the cats_int64s category list will be used for the
// lookups." T: string, int64, int32, float, double; Y float, X's shape
// with the categories axis added last. A float is cast by truncation; NaN,
// an infinity or a value beyond int64 is in no category; of two equal
// categories the first counts.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "OneHotEncoder", []int{1}, oneHotEncoder) }

func oneHotEncoder(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	switch x.DataType() {
	case tensor.String, tensor.Int64, tensor.Int32, tensor.Float, tensor.Double:
	default:
		return nil, op.errorf("type", "X must be string, int64, int32, float or double")
	}
	ints, _, err := n.Ints("cats_int64s")
	if err != nil {
		return nil, err
	}
	var strs []string
	if a, ok := n.Attrs["cats_strings"]; ok {
		if a.Type != ops.AttrStrings {
			return nil, op.errorf("attribute", "cats_strings must be strings")
		}
		strs = a.Strings
	}
	if (len(ints) > 0) == (len(strs) > 0) {
		return nil, op.errorf("cats", "exactly one category list")
	}
	if (x.DataType() == tensor.String) != (len(strs) > 0) {
		return nil, op.errorf("cats", "the category list of X's kind")
	}
	zeros, err := n.Int("zeros", 1)
	if err != nil {
		return nil, err
	}
	count := len(ints) + len(strs)
	// category returns the index of element k's category, -1 for none.
	category := func(k int) int {
		if x.DataType() == tensor.String {
			for i, s := range strs {
				if s == x.Strings()[k] {
					return i
				}
			}
			return -1
		}
		var key int64
		switch x.DataType() {
		case tensor.Int64:
			key = data[int64](x)[k]
		case tensor.Int32:
			key = int64(data[int32](x)[k])
		default:
			t := math.Trunc(realOf(elementAt(x, k)))
			if math.IsNaN(t) || t < -(1<<63) || t >= 1<<63 {
				return -1
			}
			key = int64(t)
		}
		for i, c := range ints {
			if c == key {
				return i
			}
		}
		return -1
	}
	for k := range x.Len() {
		if zeros == 0 && category(k) < 0 {
			return nil, op.errorf("zeros", "an element of no category with zeros 0")
		}
	}
	y, err := newTensor(opt, op, tensor.Float, append(append([]int{}, x.Shape()...), count))
	if err != nil {
		return nil, err
	}
	for k := range x.Len() {
		if c := category(k); c >= 0 {
			data[float32](y)[k*count+c] = 1
		}
	}
	return values(y), nil
}
