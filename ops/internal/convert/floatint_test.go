package convert

import (
	"math"
	"math/rand/v2"
	"testing"
)

// f32sToI32s and f32sToNarrow (vector where they agree) give floatToInt's
// low 32, 16 and 8 bits for every element: ordinary values, NaN,
// infinities, the int32 and int64 bounds and what lies past them, at every
// position of a block of eight or sixteen, and the AVX-512 and AVX2 blocks
// side by side (24, 40).
func TestF32sToIntsIsFloatToInt(t *testing.T) {
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), -0x1p31, 0x1p31, -0x1p31 - 256,
		0x1p31 + 256, 0x1p40, -0x1p40, 0x1p63, -0x1p63, 0x1p64, -0.99, 0.99, -0, 2147483520, -2147483520}
	r := rand.New(rand.NewPCG(1, 26))
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 24, 31, 40, 64, 1000} {
		for trial := range 20 {
			s := make([]float32, n)
			for i := range s {
				s[i] = (r.Float32()*2 - 1) * float32(math.Exp2(float64(r.IntN(34))))
				if trial > 0 && r.IntN(16) == 0 {
					s[i] = specials[r.IntN(len(specials))]
				}
			}
			d := make([]uint32, n)
			f32sToI32s(d, s)
			d16, d8 := make([]uint16, n), make([]uint8, n)
			f32sToNarrow(d16, s)
			f32sToNarrow(d8, s)
			for i, x := range s {
				want := uint32(floatToInt(float64(x), false))
				if d[i] != want || d16[i] != uint16(want) || d8[i] != uint8(want) {
					t.Fatalf("n %d: element %d, %v: got %#x, %#x, %#x, want %#x", n, i, x, d[i], d16[i], d8[i], want)
				}
			}
		}
	}
}
