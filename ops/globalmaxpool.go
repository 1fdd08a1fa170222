// GlobalMaxPool writes the largest element of each (N, C) plane of X (N x C
// x D1 x ... x Dn): Y is N x C x 1 x ... x 1. It is ReduceMax over the
// spatial axes (globalaveragepool.go): a NaN wins, and a plane without elements
// gives -inf.
//
// Versions: 1 (float16, float, double), 22 (bfloat16).

package ops

import "github.com/onnxshape/onnxshape/ops/internal/reduce"

func init() {
	registerGlobalPool("GlobalMaxPool", reduce.Op{Kind: reduce.Max})
	declareAttrs("GlobalMaxPool")
}
