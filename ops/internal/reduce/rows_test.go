package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
)

// specialFloats is random float32 with a share of NaN, +-0, +-inf, huge
// and tiny magnitudes, and repeats.
func specialFloats(rng *rand.Rand, n int) []float32 {
	specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		3e38, -3e38, 1e-45, -1e-45, 1.5e-38, 1}
	x := make([]float32, n)
	for i := range x {
		switch rng.IntN(8) {
		case 0:
			x[i] = specials[rng.IntN(len(specials))]
		default:
			x[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(12)-6)))
		}
	}
	return x
}

// TestVectorLoopsAsScalar checks the float32 vector loops of Max, Min,
// L1, L2 and SumSquare (rows of sixty-four or sixteen lanes, column steps)
// against the scalar walk, bit for bit (+0 and -0 apart; any NaN for a
// NaN), on inputs full of special values and on clean ones, for row
// lengths around every vector width.
func TestVectorLoopsAsScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for _, k := range []Kind{Max, Min, L1, L2, SumSquare} {
		for _, n := range []int{1, 3, 15, 16, 17, 33, 63, 64, 65, 100, 129, 257} {
			for _, special := range []bool{false, true} {
				for _, shape := range [][]int{{5, n}, {n, 37}, {3, n, 21}} {
					x := benchRows(1, shapeLen(shape))
					if special {
						x = specialFloats(rng, shapeLen(shape))
					}
					reduced := make([]bool, len(shape))
					if shape[len(shape)-1] == n {
						reduced[len(shape)-1] = true
					} else if len(shape) == 3 {
						reduced[1] = true
					} else {
						reduced[0] = true
					}
					l := NewLayout(shape, reduced)
					y := make([]float32, l.Outputs())
					if err := Run(Op{Kind: k}, l, x, y, Serial); err != nil {
						t.Fatal(err)
					}
					g := Layout{General: true, N: l.N, Outer: l.Outputs()}
					g.Reduced, g.Kept = axesOf(shape, reduced)
					want := make([]float32, len(y))
					if err := Run(Op{Kind: k}, g, x, want, Serial); err != nil {
						t.Fatal(err)
					}
					for i := range y {
						if math.Float32bits(y[i]) != math.Float32bits(want[i]) && !(y[i] != y[i] && want[i] != want[i]) {
							t.Fatalf("kind %d shape %v reduced %v special %v: output %d is %v, the scalar walk gives %v", k, shape, reduced, special, i, y[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestSumRowTermAsClosure checks the typed L1 and SumSquare row sums
// against sumRowOf with termOf's closure, in float32 and float64.
func TestSumRowTermAsClosure(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{0, 1, 16, 17, 100} {
		x := specialFloats(rng, n)
		x64 := make([]float64, n)
		for i, v := range x {
			x64[i] = float64(v) * 1e200
		}
		for _, k := range []Kind{L1, SumSquare} {
			a, b := sumRowTerm(x, k == SumSquare), sumRowOf(x, termOf[float32](Op{Kind: k}))
			if math.Float32bits(a) != math.Float32bits(b) && !(a != a && b != b) {
				t.Fatalf("float32 kind %d n %d: %v, the closure gives %v", k, n, a, b)
			}
			c, d := sumRowTerm(x64, k == SumSquare), sumRowOf(x64, termOf[float64](Op{Kind: k}))
			if math.Float64bits(c) != math.Float64bits(d) && !(c != c && d != d) {
				t.Fatalf("float64 kind %d n %d: %v, the closure gives %v", k, n, c, d)
			}
		}
	}
}

func shapeLen(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

func benchKind(b *testing.B, k Kind, l Layout) {
	x := benchRows(l.Outer*l.N*l.Inner, 1)
	y := make([]float32, l.Outputs())
	b.SetBytes(int64(len(x)) * 4)
	for b.Loop() {
		_ = Run(Op{Kind: k}, l, x, y, Serial)
	}
}

// The 25 MB [8, 64, 112, 112] float32 of the every-operator benchmark,
// reduced over its last, first and channel axes on one core.
func BenchmarkMinLast25MB(b *testing.B) {
	benchKind(b, Min, Layout{Outer: 8 * 64 * 112, N: 112, Inner: 1})
}
func BenchmarkL1Last25MB(b *testing.B) {
	benchKind(b, L1, Layout{Outer: 8 * 64 * 112, N: 112, Inner: 1})
}
func BenchmarkL1First25MB(b *testing.B) {
	benchKind(b, L1, Layout{Outer: 1, N: 8, Inner: 64 * 112 * 112})
}
func BenchmarkMaxMiddle25MB(b *testing.B) {
	benchKind(b, Max, Layout{Outer: 8, N: 64, Inner: 112 * 112})
}
