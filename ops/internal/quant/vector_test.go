package quant

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// specials are the values whose rounding or range the vector loops must
// get as quantizeOne does: halves (ties to even), the edges of int32,
// NaN and the infinities, and values just past the types' ranges.
var specials = []float32{0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 127.5, 128.5, -128.5, 255.5, 254.5,
	1 << 31, -(1 << 31), 1<<31 - 128, 3e9, -3e9, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
	math.MaxFloat32, -math.MaxFloat32, 1e-45, -1e-45}

func randomFloats(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		switch r.IntN(4) {
		case 0:
			x[i] = specials[r.IntN(len(specials))]
		case 1:
			x[i] = float32(r.IntN(600)-300) / 2 // many ties
		default:
			x[i] = float32(r.NormFloat64() * 200)
		}
	}
	return x
}

// TestQuantizeVectorAgreesWithGo checks Quantize (vector prefix and Go
// tail) against quantizeOne on every length up to 70, both types, zero
// points at the edges, scales that make ties and overflow.
func TestQuantizeVectorAgreesWithGo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	scales := []float32{1, 0.5, 0.01, 3, 1e-30, float32(math.Inf(1)), 0}
	for n := range 71 {
		for _, s := range scales {
			x := randomFloats(r, n)
			for _, z := range []int64{0, 1, 127, 128, 255} {
				o := make([]uint8, n)
				if err := Quantize(context.Background(), 1, Layout{PerTensor: true}, o, x, []float32{s}, []uint8{uint8(z)}, 0, 255); err != nil {
					t.Fatal(err)
				}
				for i := range o {
					if want := uint8(quantizeOne(x[i], s, z, 0, 255)); o[i] != want {
						t.Fatalf("uint8 n %d s %g z %d: x[%d] = %g gives %d, want %d", n, s, z, i, x[i], o[i], want)
					}
				}
			}
			for _, z := range []int64{0, -1, -128, 127, 5} {
				o := make([]int8, n)
				if err := Quantize(context.Background(), 1, Layout{PerTensor: true}, o, x, []float32{s}, []int8{int8(z)}, -128, 127); err != nil {
					t.Fatal(err)
				}
				for i := range o {
					if want := int8(quantizeOne(x[i], s, z, -128, 127)); o[i] != want {
						t.Fatalf("int8 n %d s %g z %d: x[%d] = %g gives %d, want %d", n, s, z, i, x[i], o[i], want)
					}
				}
			}
		}
	}
}

// TestDequantizeVectorAgreesWithGo checks Dequantize against the plain
// expression on every length up to 70, both types, every zero point.
func TestDequantizeVectorAgreesWithGo(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := range 71 {
		u, s8 := make([]uint8, n), make([]int8, n)
		for i := range u {
			u[i], s8[i] = uint8(r.IntN(256)), int8(r.IntN(256))
		}
		for _, sc := range []float32{1, 0.01, 3e38, float32(math.NaN())} {
			for z := range 256 {
				o := make([]float32, n)
				if err := Dequantize(context.Background(), 1, Layout{PerTensor: true}, o, u, []float32{sc}, []uint8{uint8(z)}); err != nil {
					t.Fatal(err)
				}
				for i := range o {
					want := float32(int32(u[i])-int32(z)) * sc
					if math.Float32bits(o[i]) != math.Float32bits(want) && !(o[i] != o[i] && want != want) {
						t.Fatalf("uint8 n %d z %d: %d gives %g, want %g", n, z, u[i], o[i], want)
					}
				}
				if err := Dequantize(context.Background(), 1, Layout{PerTensor: true}, o, s8, []float32{sc}, []int8{int8(z)}); err != nil {
					t.Fatal(err)
				}
				for i := range o {
					want := float32(int32(s8[i])-int32(int8(z))) * sc
					if math.Float32bits(o[i]) != math.Float32bits(want) && !(o[i] != o[i] && want != want) {
						t.Fatalf("int8 n %d z %d: %d gives %g, want %g", n, int8(z), s8[i], o[i], want)
					}
				}
			}
		}
	}
}
