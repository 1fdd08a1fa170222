package convert

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// The vector conversions between float32 and int32/int64 give what Go's
// conversion and floatToInt give, at lengths around the 32-element block:
// NaN, infinities, ±2^63 and its neighbours, -0, and integers that float32
// must round (ties to even).
func TestIntFloatVectorIsScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0x1p63, -0x1p63,
		math.Nextafter32(0x1p63, 0), math.Nextafter32(-0x1p63, 0), float32(math.Copysign(0, -1)), 0.5, -1.5, 2.5, 1e-40}
	for _, n := range []int{0, 1, 31, 32, 33, 100, 257} {
		f := make([]float32, n)
		i32 := make([]int32, n)
		i64 := make([]int64, n)
		for i := range f {
			if r.IntN(3) == 0 {
				f[i] = specials[r.IntN(len(specials))]
			} else {
				f[i] = float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(25))))
			}
			i32[i] = int32(r.Uint32())
			i64[i] = int64(r.Uint64() >> r.IntN(64))
			if r.IntN(2) == 0 {
				i64[i] = -i64[i]
			}
		}
		src := tensor.MustNew(tensor.Float, n)
		copy(movement.AsElems[float32](src.Bytes()), f)
		got := tensor.MustNew(tensor.Int64, n)
		if !floatToIntCast(got, src, 0, n) {
			t.Fatal("float to int64: no fast path")
		}
		for i, x := range f {
			if want := floatToInt(float64(x), false); movement.AsElems[int64](got.Bytes())[i] != want {
				t.Fatalf("n=%d: float32 %g to int64: %d, want %d", n, x, movement.AsElems[int64](got.Bytes())[i], want)
			}
		}
		g32, g64 := make([]float32, n), make([]float32, n)
		castSlice(g32, i32)
		castSlice(g64, i64)
		for i := range n {
			if g32[i] != float32(i32[i]) || g64[i] != float32(i64[i]) {
				t.Fatalf("n=%d element %d: int32 %d -> %g, int64 %d -> %g", n, i, i32[i], g32[i], i64[i], g64[i])
			}
		}
	}
}
