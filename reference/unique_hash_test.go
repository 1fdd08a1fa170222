package reference

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestUniqueHashedEngines checks the fast engine's Unique without an axis
// (numbers grouped through a hash of their canonical bits) against the
// reference's sort, bit for bit: floats with -0 and 0, NaNs of different
// payloads and signs, infinities; signed and unsigned integers at their
// extremes (uint64 above 2^63); sorted and not, every output.
func TestUniqueHashedEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 5))
	nan2 := math.Float64frombits(0xfff8000000000123)
	floats := []float64{0, math.Copysign(0, -1), math.NaN(), nan2, math.Inf(1), math.Inf(-1), 1.5, -1.5, 3, 1e-300}
	for _, n := range []int{0, 1, 2, 17, 300} {
		for _, dt := range []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16} {
			v := make([]float64, n)
			for i := range v {
				v[i] = floats[r.IntN(len(floats))]
			}
			x := tensor.MustNew(dt, n)
			switch dt {
			case tensor.Double:
				d, _ := tensor.Data[float64](x)
				copy(d, v)
			case tensor.Float:
				d, _ := tensor.Data[float32](x)
				for i, f := range v {
					d[i] = float32(f)
				}
			default: // float16 and bfloat16 bits: the top of float32's for bfloat16, a few float16 patterns
				d, _ := tensor.Data[uint16](x)
				for i := range d {
					d[i] = []uint16{0, 0x8000, 0x7e00, 0xfe01, 0x7c00, 0x3c00, 0xbc00, 0x7fc0}[r.IntN(8)]
				}
			}
			uniqueBoth(t, x)
		}
		i64 := make([]int64, n)
		u64 := make([]uint64, n)
		i8 := make([]int8, n)
		for i := range i64 {
			i64[i] = []int64{math.MinInt64, math.MaxInt64, -1, 0, 1, 7}[r.IntN(6)]
			u64[i] = []uint64{math.MaxUint64, 1 << 63, 0, 1, 7}[r.IntN(5)]
			i8[i] = []int8{-128, 127, -1, 0, 1}[r.IntN(5)]
		}
		uniqueBoth(t, tensor.MustFromSlice(i64, n))
		uniqueBoth(t, tensor.MustFromSlice(u64, n))
		uniqueBoth(t, tensor.MustFromSlice(i8, n))
	}
}

func uniqueBoth(t *testing.T, x *tensor.Tensor) {
	t.Helper()
	for _, sorted := range []int64{0, 1} {
		bothEngines(t, &ops.Node{OpType: "Unique", Version: 11, NumOutputs: 4, Attrs: map[string]ops.Attribute{"sorted": intAttribute(sorted)}}, x)
	}
}
