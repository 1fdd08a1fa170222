package dynquant

import (
	"math"
	"math/rand/v2"
	"testing"
)

// quantizeSpec is the operator's arithmetic as the ops package had it
// before this engine: math.RoundToEven in float64 of the float32 quotient.
func quantizeSpec(f, scale, zero float32) byte {
	q := float32(math.RoundToEven(float64(f/scale))) + zero
	return byte(min(max(q, 0), 255))
}

func rangeSpec(x []float32) (lo, hi float32, bad int) {
	for i, f := range x {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return 0, 0, i
		}
		if f < lo {
			lo = f
		}
		if f > hi {
			hi = f
		}
	}
	return lo, hi, -1
}

func randomFloats(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	spread := float32(math.Pow(10, float64(r.IntN(9)-4)))
	for i := range x {
		switch r.IntN(20) {
		case 0:
			x[i] = 0
		case 1:
			x[i] = float32(math.Copysign(0, -1))
		case 2: // a tie of the quotient by the scale is likely on halves
			x[i] = float32(r.IntN(200)-100) / 2
		default:
			x[i] = float32(r.NormFloat64()) * spread
		}
	}
	return x
}

// TestQuantizeAgreesWithSpec checks Range and Quantize (the vector path
// where the CPU has one, the Go tail) bit for bit against the plain
// float64-rounding formulation on random tensors of every length up to 70
// and a few large ones, including all-zero and one-signed tensors.
func TestQuantizeAgreesWithSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	lengths := []int{1000, 4099, 65536 + 3}
	for n := range 71 {
		lengths = append(lengths, n)
	}
	for trial, n := range lengths {
		for variant := range 4 {
			x := randomFloats(r, n)
			switch variant {
			case 1:
				for i := range x {
					x[i] = float32(math.Abs(float64(x[i])))
				}
			case 2:
				for i := range x {
					x[i] = -float32(math.Abs(float64(x[i])))
				}
			case 3:
				clear(x)
			}
			lo, hi, bad := Range(x)
			wlo, whi, wbad := rangeSpec(x)
			if lo != wlo || hi != whi || bad != wbad || math.Signbit(float64(lo)) != math.Signbit(float64(wlo)) {
				t.Fatalf("trial %d n %d: Range = %v %v %d, want %v %v %d", trial, n, lo, hi, bad, wlo, whi, wbad)
			}
			scale := float32(1)
			if hi != lo {
				scale = (hi - lo) / 255
			}
			zero := float32(math.RoundToEven(float64(min(max(0-lo/scale, 0), 255))))
			y := make([]byte, n)
			Quantize(y, x, scale, zero)
			for i, f := range x {
				if want := quantizeSpec(f, scale, zero); y[i] != want {
					t.Fatalf("trial %d n %d: y[%d] = %d for x %v (scale %v zero %v), want %d", trial, n, i, y[i], f, scale, zero, want)
				}
			}
		}
	}
}

// TestRangeFindsNonFinite puts a NaN or an infinity at every position of
// a tensor and checks that Range reports that position.
func TestRangeFindsNonFinite(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 15, 16, 17, 40, 100} {
		for _, v := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
			for at := range n {
				x := randomFloats(r, n)
				x[at] = v
				if _, _, bad := Range(x); bad != at {
					t.Fatalf("n %d, %v at %d: Range reports %d", n, v, at, bad)
				}
			}
		}
	}
}

// TestQuantizeHalfTies checks the ties: k+0.5 rounds to the even neighbour.
func TestQuantizeHalfTies(t *testing.T) {
	x := []float32{0.5, 1.5, 2.5, -0.5, -1.5, 126.5, 127.5, 300, -300, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5}
	y := make([]byte, len(x))
	Quantize(y, x, 1, 128)
	want := []byte{128, 130, 130, 128, 126, 254, 255, 255, 0, 132, 132, 134, 134, 136, 136, 138}
	for i := range x {
		if y[i] != want[i] {
			t.Errorf("x %v: got %d, want %d", x[i], y[i], want[i])
		}
	}
}

func BenchmarkDynamicQuantize(b *testing.B) {
	x := randomFloats(rand.New(rand.NewPCG(5, 6)), 64*512)
	y := make([]byte, len(x))
	b.SetBytes(int64(4 * len(x)))
	for b.Loop() {
		lo, hi, _ := Range(x)
		Quantize(y, x, (hi-lo)/255, 100)
	}
}
