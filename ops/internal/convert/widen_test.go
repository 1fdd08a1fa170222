package convert

import (
	"math"
	"math/rand/v2"
	"testing"
)

// castSlice's vector loops for float32 <-> float64 and int32 -> int64 give
// Go's element conversions bit for bit: random bit patterns (NaNs with
// payloads, infinities, denormals, values that round to a float32
// denormal, overflow to infinity or tie), at every length across the
// blocks of sixteen and every start offset.
func TestWidenIsGoConversion(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 26))
	const size = 200
	f32, f64, i32 := make([]float32, size), make([]float64, size), make([]int32, size)
	special64 := []float64{math.NaN(), math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000123),
		math.Inf(1), math.Inf(-1), 0x1p-149, 0x1p-150, 0x1.8p-150, 0x1p-1074, -0x1p-1030, math.MaxFloat32, 0x1.fffffffp127,
		0x1p128, -0x1p128, 1 + 0x1p-24, 1 + 0x1.8p-24, 0, math.Copysign(0, -1)}
	special32 := []float32{float32(math.NaN()), math.Float32frombits(0x7f800001), math.Float32frombits(0xffc00123),
		float32(math.Inf(1)), float32(math.Inf(-1)), 0x1p-149, -0x1p-140, math.MaxFloat32, 0, float32(math.Copysign(0, -1))}
	for i := range size {
		f32[i] = math.Float32frombits(r.Uint32())
		f64[i] = math.Float64frombits(r.Uint64())
		if r.IntN(3) == 0 {
			f64[i] = float64(float32(r.NormFloat64())) + r.NormFloat64()*0x1p-30
		}
		if r.IntN(4) == 0 {
			f32[i] = special32[r.IntN(len(special32))]
			f64[i] = special64[r.IntN(len(special64))]
		}
		i32[i] = int32(r.Uint32())
	}
	i32[3], i32[4] = math.MinInt32, math.MaxInt32
	for off := 0; off < 3; off++ {
		for n := 0; off+n <= size; n++ {
			d64 := make([]float64, n)
			castSlice(d64, f32[off:off+n])
			d32 := make([]float32, n)
			castSlice(d32, f64[off:off+n])
			di := make([]int64, n)
			castSlice(di, i32[off:off+n])
			for i := range n {
				x, y, z := f32[off+i], f64[off+i], i32[off+i]
				if math.Float64bits(d64[i]) != math.Float64bits(float64(x)) {
					t.Fatalf("n %d off %d: float64(%#x) = %#x, want %#x", n, off, math.Float32bits(x), math.Float64bits(d64[i]), math.Float64bits(float64(x)))
				}
				if math.Float32bits(d32[i]) != math.Float32bits(float32(y)) {
					t.Fatalf("n %d off %d: float32(%#x) = %#x, want %#x", n, off, math.Float64bits(y), math.Float32bits(d32[i]), math.Float32bits(float32(y)))
				}
				if di[i] != int64(z) {
					t.Fatalf("n %d off %d: int64(%d) = %d", n, off, z, di[i])
				}
			}
		}
	}
}
