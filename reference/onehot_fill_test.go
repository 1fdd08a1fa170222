package reference

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestOneHotIndexTypesEngines checks the fast engine's OneHot, which reads
// int32 and int64 indices in place and clears its output once when off is
// zero, against the reference: indices of int32, int64 and float (NaN,
// fractions, negatives, out of range both ways, int64 beyond 2^53), off
// zero and not, blocks large enough to be split across the cores.
func TestOneHotIndexTypesEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 11))
	for _, dt := range []tensor.DataType{tensor.Int32, tensor.Int64, tensor.Float, tensor.Double} {
		for _, off := range []float32{0, -2} {
			for _, axis := range []int64{-1, 0, 1} {
				const depth = 7
				idx := tensor.MustNew(dt, 40, 33)
				v, _ := idx.Float64s()
				specials := []float64{-depth, -depth - 1, depth, depth - 1, -1, 0, 1 << 60, -(1 << 60)}
				for i := range v {
					switch {
					case r.IntN(4) == 0:
						v[i] = specials[r.IntN(len(specials))]
					case dt.IsFloat() && r.IntN(3) == 0:
						v[i] = []float64{math.NaN(), -0.5, 6.9, -7.5, -6.5, 2.5}[r.IntN(6)]
					default:
						v[i] = float64(r.IntN(2*depth+4) - depth - 2)
					}
				}
				switch dt {
				case tensor.Int32:
					d, _ := tensor.Data[int32](idx)
					for i, f := range v {
						d[i] = int32(max(min(f, math.MaxInt32), math.MinInt32))
					}
				case tensor.Int64:
					d, _ := tensor.Data[int64](idx)
					for i, f := range v {
						d[i] = int64(f)
					}
				case tensor.Float:
					d, _ := tensor.Data[float32](idx)
					for i, f := range v {
						d[i] = float32(f)
					}
				case tensor.Double:
					d, _ := tensor.Data[float64](idx)
					copy(d, v)
				}
				depthT := tensor.MustFromSlice([]int64{depth})
				vals := tensor.MustFromSlice([]float32{off, 3})
				bothEngines(t, &ops.Node{OpType: "OneHot", Version: 11, Attrs: map[string]ops.Attribute{"axis": intAttribute(axis)}}, idx, depthT, vals)
			}
		}
	}
}
