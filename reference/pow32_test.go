package reference_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Pow on float, float16 and bfloat16 bases agrees bit for bit between the
// engines: bases over every 65521st float32 bit pattern (both signs,
// subnormals, infinities, NaN, zeros) against exponents of one shape
// (float32, and float64 and int64 exponents), a broadcast row of
// exponents, and each single exponent of a list that holds the constant
// loops' (|e| <= 16 integral, ±0.5) and others.
func TestPowAgreesOnASweep(t *testing.T) {
	var xs []float32
	for b := uint64(0); b < 1<<32; b += 65521 {
		xs = append(xs, math.Float32frombits(uint32(b)))
	}
	inf := float32(math.Inf(1))
	xs = append(xs, 0, float32(math.Copysign(0, -1)), 1, -1, inf, -inf, float32(math.NaN()), 0.5, -0.5, 2, -2, 1e-45, -1e-45, 0.99999994, 1.0000001)
	exps := []float64{0, 1, -1, 2, 3, -3, 16, -16, 17, -17, 0.5, -0.5, 0.3, -2.5, 1.5, 1e9, -1e9, math.Inf(1), math.Inf(-1), math.NaN(), 1e-6, 100.25}
	rng := rand.New(rand.NewPCG(9, 10))
	ys := make([]float32, len(xs))
	for i := range ys {
		ys[i] = float32(exps[rng.IntN(len(exps))])
		if i%3 == 0 {
			ys[i] = float32(rng.Float64()*60 - 30)
		}
	}
	x32 := tensor.MustFromSlice(xs, len(xs))
	y32 := tensor.MustFromSlice(ys, len(ys))
	y64, _ := ops.Cast(y32, ops.CastOptions{To: tensor.Double})
	yInt, _ := ops.Cast(y32, ops.CastOptions{To: tensor.Int64})
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Float16, tensor.BFloat16} {
		x := x32
		if dt != tensor.Float {
			c, err := ops.Cast(x32, ops.CastOptions{To: dt})
			if err != nil {
				t.Fatal(err)
			}
			x = c
		}
		for _, y := range []*tensor.Tensor{y32, y64, yInt} {
			compareEngines(t, ops.ProfileONNX, &ops.Node{OpType: "Pow", Version: 15}, []tensor.Value{x, y})
		}
		row := tensor.MustFromSlice(ys[:7], 1, 7)
		xm, _ := x.Reshape(x.Len(), 1)
		compareEngines(t, ops.ProfileONNX, &ops.Node{OpType: "Pow", Version: 15}, []tensor.Value{xm, row})
		for _, e := range exps {
			compareEngines(t, ops.ProfileONNX, &ops.Node{OpType: "Pow", Version: 15}, []tensor.Value{x, tensor.MustFromSlice([]float32{float32(e)}, 1)})
		}
	}
}
