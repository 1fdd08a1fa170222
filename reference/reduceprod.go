// ReduceProd (1, 11, 13, 18): "Computes the product of the input tensor's elements along the
// provided axes ... Reduction over an empty set of values yields 1."
// The axes, keepdims and noop_with_empty_axes are those of every Reduce*
// operator (reduction.go).

package reference

import "iter"

func init() {
	registerReduction("ReduceProd", []int{1, 11, 13, 18}, 18, sumTypes, reductionFuncs{
		reduceProd[float32], reduceProd[float64], reduceProd[int8], reduceProd[uint8], reduceProd[int32], reduceProd[uint32], reduceProd[int64], reduceProd[uint64]})
}

func reduceProd[A computeNumber](v iter.Seq[A]) A {
	var p A = 1
	for x := range v {
		p *= x
	}
	return p
}
