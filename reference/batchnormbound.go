package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// batchNormBound returns the bound Agree states for the outputs of a
// BatchNormalization node of output type dt: 8 * eps * M, eps the unit
// roundoff of dt (of float32 for float16 and bfloat16 too, as they are
// rounded from it: 2^-24, 2^-53 for double; then one more rounding to the
// 16-bit type, within 2 * 2^-11 or 2 * 2^-8 of M), and M a bound on the
// magnitude of every term of an output element: in inference mode
// max over the channels of |scale|/sqrt(var+eps) * (max|x| + |mean|) +
// |B|; in training mode max|scale| * sqrt(count) + max|B|, count the
// elements of a channel (a deviation from the mean is at most sqrt(count)
// standard deviations). The larger of the two is taken, whatever the
// mode. The fast kernel's a = scale/sqrt(var+eps) and b = B - mean*a and
// the reference's (x-mean)/sqrt(var+eps)*scale+B each take a few float64
// operations on terms below M, then one rounding to dt. Where var + eps is
// 0 or a parameter is not finite, the two forms may disagree (x*inf +
// (B - mean*inf) is NaN where the spec's form is an infinity): no bound.
func batchNormBound(n *ops.Node, in []tensor.Value, dt tensor.DataType) (float64, bool) {
	if n.OpType != "BatchNormalization" || len(in) < 5 {
		return 0, false
	}
	var v [5][]float64
	for i := range v {
		t, ok := in[i].(*tensor.Tensor)
		if !ok || t == nil {
			return 0, false
		}
		f, err := t.Float64s()
		if err != nil {
			return 0, false
		}
		v[i] = f
	}
	x := in[0].(*tensor.Tensor)
	maxAbs := func(s []float64) float64 {
		m := 0.0
		for _, e := range s {
			m = max(m, math.Abs(e))
		}
		return m
	}
	eps := float64(attrFloat(n, "epsilon", 1e-5))
	mx := maxAbs(v[0])
	m := 0.0
	for c := range v[1] {
		if c >= len(v[2]) || c >= len(v[3]) || c >= len(v[4]) {
			return 0, false
		}
		m = max(m, math.Abs(v[1][c])/math.Sqrt(v[4][c]+eps)*(mx+math.Abs(v[3][c]))+math.Abs(v[2][c]))
	}
	count := 1.0
	if len(v[1]) > 0 {
		count = float64(x.Len() / len(v[1]))
	}
	m = max(m, maxAbs(v[1])*math.Sqrt(count)+maxAbs(v[2]))
	var u float64
	switch dt {
	case tensor.Float:
		u = 0x1p-24
	case tensor.Double:
		u = 0x1p-53
	case tensor.Float16:
		u = 0x1p-10
	case tensor.BFloat16:
		u = 0x1p-7
	default:
		return 0, false
	}
	if math.IsNaN(m) || math.IsInf(m, 0) {
		return 0, false
	}
	return 8 * u * m, true
}
