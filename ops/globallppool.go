// GlobalLpPool writes the p-norm of each (N, C) plane of X (N x C x D1 x
// ... x Dn), (sum of |x|^p)^(1/p): Y is N x C x 1 x ... x 1, a reduction over
// the spatial axes (globalaveragepool.go), each |x|^p computed in float64 and
// rounded to the computing type.
//
// Versions: 1 (p a float, default 2.0), 2 (p an int, default 2), 22
// (bfloat16). Types: float16, float, double, bfloat16.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/reduce"

func init() {
	registerGlobalPool("GlobalLpPool", reduce.Op{Kind: reduce.Lp})
	declareAttrs("GlobalLpPool",
		AttrSpec{Name: "p", Type: AttrFloat, Before: 2},
		AttrSpec{Name: "p", Type: AttrInt, From: 2})
}
