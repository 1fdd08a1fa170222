// ReduceMax (1, 11, 12, 13, 18, 20): "Computes the max of the input tensor's elements along the provided
// axes ... Reduction over an empty set of values yields minus infinity (if
// supported by the datatype) or the minimum value of the data type
// otherwise." A NaN propagates, as numpy's maximum does: the first NaN is
// the result.
// The axes, keepdims and noop_with_empty_axes are those of every Reduce*
// operator (reduction.go).

package reference

import (
	"iter"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerReduction("ReduceMax", []int{1, 11, 12, 13, 18, 20}, 18, maxMinTypes, reductionFuncs{
		reduceMax[float32], reduceMax[float64], reduceMax[int8], reduceMax[uint8], reduceMax[int32], reduceMax[uint32], reduceMax[int64], reduceMax[uint64]})
}

func reduceMax[A computeNumber](v iter.Seq[A]) A {
	m := lowestOf[A]()
	for x := range v {
		if x != x {
			return x
		}
		if x > m {
			m = x
		}
	}
	return m
}

// maxMinTypes are the types of ReduceMax and ReduceMin: int8 and uint8
// from version 12, bfloat16 from 13, bool from 20.
func maxMinTypes(version int, dt tensor.DataType) bool {
	switch dt {
	case tensor.Int8, tensor.Uint8:
		return version >= 12
	case tensor.Bool:
		return version >= 20
	}
	return sumTypes(version, dt)
}
