package resample

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestCombineTwoRowsExact checks resizeCombineTwoRows for float32 (the
// assembly kernel on amd64, the Go loop elsewhere) bit for bit against
// products and sums each rounded to float32, on every length from 0 to 40
// and with infinities, NaNs and subnormals among the values.
func TestCombineTwoRowsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	special := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-40, float32(math.Copysign(0, -1)), 3.4e38}
	value := func() float32 {
		if rng.IntN(8) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.Float32()*200 - 100
	}
	for n := range 41 {
		for range 20 {
			r0, r1 := make([]float32, n), make([]float32, n)
			for j := range n {
				r0[j], r1[j] = value(), value()
			}
			w := []float32{value(), value(), rng.Float32(), rng.Float32()}
			d0, d1 := make([]float32, n), make([]float32, n)
			resizeCombineTwoRows(d0, d1, r0, r1, w)
			for j := range n {
				want0 := float32(float32(w[0]*r0[j]) + float32(w[1]*r1[j]))
				want1 := float32(float32(w[2]*r0[j]) + float32(w[3]*r1[j]))
				if !sameFloat32(d0[j], want0) || !sameFloat32(d1[j], want1) {
					t.Fatalf("n %d, j %d: got %v %v, want %v %v", n, j, d0[j], d1[j], want0, want1)
				}
			}
		}
	}
}

// sameFloat32 reports whether a and b are the same number, or both NaN.
func sameFloat32(a, b float32) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	return math.Float32bits(a) == math.Float32bits(b)
}

// TestCombineRowsExact checks resizeCombineRows for float32 with 1 to 5
// rows (assembly for 2 and 4 on amd64) bit for bit against the terms added
// left to right, each product and sum rounded to float32.
func TestCombineRowsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 9))
	special := []float32{float32(math.Inf(1)), float32(math.NaN()), 1e-40, float32(math.Copysign(0, -1))}
	for taps := 1; taps <= 5; taps++ {
		for n := range 41 {
			rows := make([][]float32, taps)
			w := make([]float32, taps)
			for k := range rows {
				rows[k] = make([]float32, n)
				for j := range rows[k] {
					rows[k][j] = rng.Float32()*200 - 100
					if rng.IntN(10) == 0 {
						rows[k][j] = special[rng.IntN(len(special))]
					}
				}
				w[k] = rng.Float32()*2 - 0.5
			}
			d := make([]float32, n)
			resizeCombineRows(d, rows, w)
			for j := range n {
				want := float32(w[0] * rows[0][j])
				for k := 1; k < taps; k++ {
					want = float32(want + float32(w[k]*rows[k][j]))
				}
				if !sameFloat32(d[j], want) {
					t.Fatalf("%d rows, n %d, j %d: got %v, want %v", taps, n, j, d[j], want)
				}
			}
		}
	}
}

// TestTwoTapPairsExact runs the pair kernel of this platform on random rows
// with special values and checks each pair it wrote against Go's float32
// rounding, and that it wrote nothing past them.
func TestTwoTapPairsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 4))
	special := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-40, float32(math.Copysign(0, -1)), 3.4e38}
	for n := range 41 {
		s := make([]float32, n+1)
		for i := range s {
			s[i] = rng.Float32()*200 - 100
			if rng.IntN(8) == 0 {
				s[i] = special[rng.IntN(len(special))]
			}
		}
		w := [4]float32{rng.Float32(), rng.Float32(), rng.Float32()*2 - 1, 1e-30}
		d := make([]float32, 2*n+1)
		for i := range d {
			d[i] = 7
		}
		m := twoTapPairsF32(unsafe.Pointer(&d[0]), unsafe.Pointer(&s[0]), n, &w)
		if m > n || m%4 != 0 {
			t.Fatalf("n %d: did %d pairs", n, m)
		}
		for i := range m {
			even := float32(float32(w[0]*s[i]) + float32(w[1]*s[i+1]))
			odd := float32(float32(w[2]*s[i]) + float32(w[3]*s[i+1]))
			if !sameFloat32(d[2*i], even) || !sameFloat32(d[2*i+1], odd) {
				t.Fatalf("n %d, pair %d: got %v %v, want %v %v", n, i, d[2*i], d[2*i+1], even, odd)
			}
		}
		for i := 2 * m; i < len(d); i++ {
			if d[i] != 7 {
				t.Fatalf("n %d: element %d past the pairs was written", n, i)
			}
		}
	}
}

// TestFourTapsStep2Exact runs the four-tap kernel of this platform on
// random rows with special values and checks each output it wrote against
// Go's float32 rounding in Go's order, and that it wrote nothing past them.
func TestFourTapsStep2Exact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 5))
	special := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-40, float32(math.Copysign(0, -1)), 3.4e38}
	for n := range 41 {
		s := make([]float32, 2*n+2)
		for i := range s {
			s[i] = rng.Float32()*200 - 100
			if rng.IntN(8) == 0 {
				s[i] = special[rng.IntN(len(special))]
			}
		}
		w := [4]float32{rng.Float32(), rng.Float32(), rng.Float32()*2 - 1, 1e-30}
		d := make([]float32, n+1)
		for i := range d {
			d[i] = 7
		}
		m := fourTapsStep2F32(unsafe.Pointer(&d[0]), unsafe.Pointer(&s[0]), n, &w)
		if m > n || m%4 != 0 {
			t.Fatalf("n %d: did %d outputs", n, m)
		}
		for i := range m {
			p := s[2*i:]
			want := float32(float32(float32(float32(w[0]*p[0])+float32(w[1]*p[1]))+float32(w[2]*p[2])) + float32(w[3]*p[3]))
			if !sameFloat32(d[i], want) {
				t.Fatalf("n %d, output %d: got %v, want %v", n, i, d[i], want)
			}
		}
		for i := m; i < len(d); i++ {
			if d[i] != 7 {
				t.Fatalf("n %d: element %d past the outputs was written", n, i)
			}
		}
	}
}
