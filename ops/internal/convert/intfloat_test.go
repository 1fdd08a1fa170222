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

// The vector loops of uint8 to float32, int64 to int32 and float32 to
// bfloat16 give Go's conversions and F32ToBF16, at lengths around the
// 32-element block: every byte; the least and greatest int64 and values
// past int32; float32 NaNs of both signs and payloads, infinities, -0,
// subnormals, the largest finite float32 (rounds to +Inf) and halfway
// cases of both parities.
func TestNarrowingVectorsAreScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	specials := []uint32{0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0x7f800000, 0xff800000, 0x80000000, 0,
		0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff, 0x3f808000, 0x3f818000, 0x3f808001, 0xbf818000, 0x3f80ffff}
	for _, n := range []int{0, 1, 31, 32, 33, 100, 257, 1000} {
		u8 := make([]uint8, n)
		i64 := make([]int64, n)
		f := make([]float32, n)
		for i := range n {
			u8[i] = uint8(r.Uint32())
			switch r.IntN(4) {
			case 0:
				i64[i] = []int64{math.MinInt64, math.MaxInt64, math.MinInt32, math.MaxInt32, 1 << 32, -1<<31 - 1}[r.IntN(6)]
			default:
				i64[i] = int64(r.Uint64())
			}
			if r.IntN(3) == 0 {
				f[i] = math.Float32frombits(specials[r.IntN(len(specials))])
			} else {
				f[i] = math.Float32frombits(r.Uint32())
			}
		}
		gf := make([]float32, n)
		castSlice(gf, u8)
		for i, x := range u8 {
			if gf[i] != float32(x) {
				t.Fatalf("n=%d: uint8 %d to float32: %g", n, x, gf[i])
			}
		}
		g32 := make([]int32, n)
		castSlice(g32, i64)
		for i, x := range i64 {
			if g32[i] != int32(x) {
				t.Fatalf("n=%d: int64 %d to int32: %d, want %d", n, x, g32[i], int32(x))
			}
		}
		src := tensor.MustNew(tensor.Float, n)
		copy(movement.AsElems[float32](src.Bytes()), f)
		dst := tensor.MustNew(tensor.BFloat16, n)
		if !float32Cast(dst, src, 0, n, DefaultCast) {
			t.Fatal("float32 to bfloat16: no fast path")
		}
		for i, x := range f {
			if got, want := movement.AsElems[uint16](dst.Bytes())[i], F32ToBF16(x); got != want {
				t.Fatalf("n=%d: float32 %#x to bfloat16: %#x, want %#x", n, math.Float32bits(x), got, want)
			}
		}
	}
}
