package norm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/reduce"
)

// The fast paths (contiguous slices, one scale per slice, a scale per
// element) give the bits of the general path (gathered slices, a
// parameter index per element), and the sums are those of sixteen lanes.

func TestNormalizePathsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 16, 17, 100, 768} {
		slices := 5
		x := make([]float32, slices*n)
		for i := range x {
			x[i] = float32(r.NormFloat64() * 3)
		}
		sc, b := make([]float64, n), make([]float64, n)
		for i := range sc {
			sc[i], b[i] = r.NormFloat64(), r.NormFloat64()
		}
		offs := make([]int, n)
		for j := range offs {
			offs[j] = j
		}
		general := Layout{Slices: slices, N: n, Start: func(s int) int { return s * n }, Offsets: offs}
		for _, stat := range []Stat{StdDev, RMS} {
			for _, p := range [][2]Param{
				{{V: sc}, {V: b}}, {{V: sc}, {}}, {{}, {V: b}}, {},
				{{V: sc[:min(n, 1)], Div: max(n, 1)}, {V: b[:min(n, 1)], Div: max(n, 1)}},
			} {
				fast, slow := make([]float32, len(x)), make([]float32, len(x))
				means, means2 := make([]float64, slices), make([]float64, slices)
				if err := Normalize(stat, 1e-5, Layout{Slices: slices, N: n}, x, fast, p[0], p[1], Stats{Means: means}, reduce.Serial); err != nil {
					t.Fatal(err)
				}
				if err := Normalize(stat, 1e-5, general, x, slow, p[0], p[1], Stats{Means: means2}, reduce.Serial); err != nil {
					t.Fatal(err)
				}
				for i := range fast {
					if math.Float32bits(fast[i]) != math.Float32bits(slow[i]) {
						t.Fatalf("n %d stat %d: element %d: contiguous %v, general %v", n, stat, i, fast[i], slow[i])
					}
				}
			}
		}
	}
}

func TestSumLanesOrder(t *testing.T) {
	v := make([]float64, 37)
	for i := range v {
		v[i] = 1 / float64(i+1)
	}
	var p [16]float64
	for k, x := range v {
		p[k%16] += x
	}
	for half := 8; half >= 1; half /= 2 {
		for j := range half {
			p[j] += p[j+half]
		}
	}
	if sum(v) != p[0] {
		t.Fatalf("sum %v, want %v", sum(v), p[0])
	}
	for i := range v {
		if i%3 == 0 {
			v[i] = -v[i]
		}
	}
	var q [16]float64
	for k, x := range v {
		q[k%16] += math.Abs(x)
	}
	for half := 8; half >= 1; half /= 2 {
		for j := range half {
			q[j] += q[j+half]
		}
	}
	if sumAbs(v) != q[0] {
		t.Fatalf("sumAbs %v, want %v", sumAbs(v), q[0])
	}
}
