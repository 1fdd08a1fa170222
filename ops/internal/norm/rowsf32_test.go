package norm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/reduce"
)

// TestFloat32RowsAsFloat64 checks the float32 rows of Normalize (vector
// sums and writes) against the float64 walk of the same values, bit for
// bit (any NaN for a NaN): statistics StdDev and RMS, scale and bias
// absent, one per slice or one per element, slices around every vector
// width, values with NaN, +-0, +-inf, huge and tiny magnitudes.
func TestFloat32RowsAsFloat64(t *testing.T) {
	for _, vector := range []bool{true, false} {
		haveRowsAVX512 = vector && haveRowsAVX512
		testFloat32Rows(t)
	}
	haveRowsAVX512 = haveRowsAVX512Saved
}

var haveRowsAVX512Saved = haveRowsAVX512

func testFloat32Rows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), 3e38, -3e38, 1e-45, 1}
	for _, n := range []int{1, 7, 8, 15, 16, 17, 31, 100, 257} {
		for _, special := range []bool{false, true} {
			const slices = 6
			x := make([]float32, slices*n)
			for i := range x {
				x[i] = float32(rng.NormFloat64()*3 + 1)
				if special && rng.IntN(6) == 0 {
					x[i] = specials[rng.IntN(len(specials))]
				}
			}
			x64 := make([]float64, len(x))
			for i, v := range x {
				x64[i] = float64(v)
			}
			perElem := make([]float64, n)
			perSlice := make([]float64, slices)
			for i := range perElem {
				perElem[i] = rng.NormFloat64()
			}
			for i := range perSlice {
				perSlice[i] = rng.NormFloat64()
			}
			perChunk := make([]float64, slices*2)
			for i := range perChunk {
				perChunk[i] = rng.NormFloat64()
			}
			params := []Param{{}, {V: perElem}, {V: perSlice, Mod: slices, Div: n}}
			if n%2 == 0 { // two channels of a group, GroupNormalization-21's parameters
				params = append(params, Param{V: perChunk, Mod: slices, Stride: 2, Div: n / 2})
			}
			for _, stat := range []Stat{StdDev, RMS} {
				for _, sc := range params {
					for _, b := range params {
						l := Layout{Slices: slices, N: n}
						got, want := make([]float32, len(x)), make([]float32, len(x))
						gs := Stats{Means: make([]float64, slices), Variances: make([]float64, slices), Factors: make([]float64, slices)}
						ws := Stats{Means: make([]float64, slices), Variances: make([]float64, slices), Factors: make([]float64, slices)}
						if err := Normalize(stat, 1e-5, l, x, got, sc, b, gs, reduce.Serial); err != nil {
							t.Fatal(err)
						}
						if err := Normalize(stat, 1e-5, l, x64, want, sc, b, ws, reduce.Serial); err != nil {
							t.Fatal(err)
						}
						for i := range got {
							if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
								t.Fatalf("n %d special %v stat %d scale %v bias %v: y[%d] = %v, the float64 walk gives %v", n, special, stat, sc.V != nil, b.V != nil, i, got[i], want[i])
							}
						}
						for s := range slices {
							for k, pair := range [][2]float64{{gs.Means[s], ws.Means[s]}, {gs.Variances[s], ws.Variances[s]}, {gs.Factors[s], ws.Factors[s]}} {
								if pair[0] != pair[1] && !(pair[0] != pair[0] && pair[1] != pair[1]) {
									t.Fatalf("n %d stat %d: statistic %d of slice %d is %v, want %v", n, stat, k, s, pair[0], pair[1])
								}
							}
						}
					}
				}
			}
		}
	}
}

func BenchmarkLayerNormRows25MB(b *testing.B) {
	const rows, n = 8 * 64 * 112, 112
	x := make([]float32, rows*n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	y := make([]float32, len(x))
	sc, bias := make([]float64, n), make([]float64, n)
	b.SetBytes(int64(len(x)) * 4)
	for b.Loop() {
		_ = Normalize(StdDev, 1e-5, Layout{Slices: rows, N: n}, x, y, Param{V: sc}, Param{V: bias}, Stats{}, reduce.Serial)
	}
}

func BenchmarkLayerNormRowsScalar25MB(b *testing.B) {
	haveRowsAVX512 = false
	defer func() { haveRowsAVX512 = haveRowsAVX512Saved }()
	BenchmarkLayerNormRows25MB(b)
}

// TestLpFloat32RowsAsFloat64 checks LpNormalize's float32 rows against
// its float64 walk of the same values rounded to float32, bit for bit,
// with and without the vector loops.
func TestLpFloat32RowsAsFloat64(t *testing.T) {
	defer func() { haveRowsAVX512 = haveRowsAVX512Saved }()
	rng := rand.New(rand.NewPCG(2, 6))
	specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(-1)), 3e38, 1e-45}
	for _, vector := range []bool{true, false} {
		haveRowsAVX512 = vector && haveRowsAVX512Saved
		for _, n := range []int{1, 7, 16, 17, 100, 257} {
			for _, special := range []bool{false, true} {
				const slices = 5
				x := make([]float32, slices*n)
				for i := range x {
					x[i] = float32(rng.NormFloat64())
					if special && rng.IntN(5) == 0 {
						x[i] = specials[rng.IntN(len(specials))]
					}
				}
				copy(x[:n], make([]float32, n)) // a slice of zeros: norm 0
				x64 := make([]float64, len(x))
				for i, v := range x {
					x64[i] = float64(v)
				}
				for _, p := range []int{1, 2} {
					l := Layout{Slices: slices, N: n}
					got, want := make([]float32, len(x)), make([]float64, len(x))
					if err := LpNormalize(p, l, x, got, reduce.Serial); err != nil {
						t.Fatal(err)
					}
					if err := LpNormalize(p, l, x64, want, reduce.Serial); err != nil {
						t.Fatal(err)
					}
					for i := range got {
						w := float32(want[i])
						if math.Float32bits(got[i]) != math.Float32bits(w) && !(got[i] != got[i] && w != w) {
							t.Fatalf("vector %v n %d p %d: y[%d] = %v, the float64 walk gives %v", vector, n, p, i, got[i], w)
						}
					}
				}
			}
		}
	}
}

// TestFloat32RunsAsFloat64 checks the float32 runs of Normalize (slices
// of whole runs of contiguous elements, MeanVarianceNormalization's
// layout over N and the plane) against the float64 walk of the same
// values through one offset per element, bit for bit (any NaN for a NaN),
// with and without the vector loops, on values with NaN, +-0, +-inf and
// huge and tiny magnitudes.
func TestFloat32RunsAsFloat64(t *testing.T) {
	for _, vector := range []bool{true, false} {
		haveRowsAVX512 = vector && haveRowsAVX512Saved
		rng := rand.New(rand.NewPCG(7, 9))
		specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(-1)), 3e38, -3e38, 1e-45, 1}
		for _, shape := range [][3]int{{1, 3, 16}, {3, 2, 32}, {2, 5, 48}, {4, 3, 256}, {2, 2, 1008}} {
			batch, channels, plane := shape[0], shape[1], shape[2]
			for _, special := range []bool{false, true} {
				x := make([]float32, batch*channels*plane)
				for i := range x {
					x[i] = float32(rng.NormFloat64()*5 - 2)
					if special && rng.IntN(50) == 0 {
						x[i] = specials[rng.IntN(len(specials))]
					}
				}
				x64 := make([]float64, len(x))
				for i, v := range x {
					x64[i] = float64(v)
				}
				n := batch * plane
				start := func(s int) int { return s * plane }
				runs, each := make([]int, batch), make([]int, n)
				for b := range batch {
					runs[b] = b * channels * plane
					for k := range plane {
						each[b*plane+k] = b*channels*plane + k
					}
				}
				for _, stat := range []Stat{StdDevPlusEps, StdDev, RMS} {
					got, want := make([]float32, len(x)), make([]float32, len(x))
					gs := Stats{Means: make([]float64, channels), Variances: make([]float64, channels), Factors: make([]float64, channels)}
					ws := Stats{Means: make([]float64, channels), Variances: make([]float64, channels), Factors: make([]float64, channels)}
					if err := Normalize(stat, 1e-9, Layout{Slices: channels, N: n, Start: start, Offsets: runs, Run: plane}, x, got, Param{}, Param{}, gs, reduce.Serial); err != nil {
						t.Fatal(err)
					}
					if err := Normalize(stat, 1e-9, Layout{Slices: channels, N: n, Start: start, Offsets: each}, x64, want, Param{}, Param{}, ws, reduce.Serial); err != nil {
						t.Fatal(err)
					}
					for i := range got {
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
							t.Fatalf("vector %v shape %v special %v stat %d: y[%d] = %v, the float64 walk gives %v", vector, shape, special, stat, i, got[i], want[i])
						}
					}
					for s := range channels {
						for k, pair := range [][2]float64{{gs.Means[s], ws.Means[s]}, {gs.Variances[s], ws.Variances[s]}, {gs.Factors[s], ws.Factors[s]}} {
							if pair[0] != pair[1] && !(pair[0] != pair[0] && pair[1] != pair[1]) {
								t.Fatalf("shape %v stat %d: statistic %d of slice %d is %v, want %v", shape, stat, k, s, pair[0], pair[1])
							}
						}
					}
				}
			}
		}
	}
	haveRowsAVX512 = haveRowsAVX512Saved
}

// TestAffineFloat32AsFloat64 checks BatchNormalization's float32 affine
// map (eight at a time) against the float64 walk of the same values, bit
// for bit, with and without the vector loop, on planes around the vector
// width and values with NaN, +-0, +-inf, huge and tiny magnitudes.
func TestAffineFloat32AsFloat64(t *testing.T) {
	for _, vector := range []bool{true, false} {
		haveRowsAVX512 = vector && haveRowsAVX512Saved
		rng := rand.New(rand.NewPCG(11, 3))
		specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), 3e38, -3e38, 1e-45}
		for _, block := range []int{1, 7, 8, 9, 16, 31, 100} {
			const channels = 3
			x := make([]float32, 2*channels*block)
			for i := range x {
				x[i] = float32(rng.NormFloat64() * 4)
				if rng.IntN(9) == 0 {
					x[i] = specials[rng.IntN(len(specials))]
				}
			}
			x64 := make([]float64, len(x))
			for i, v := range x {
				x64[i] = float64(v)
			}
			a, b := make([]float64, channels), make([]float64, channels)
			for c := range a {
				a[c], b[c] = rng.NormFloat64()*1e3, rng.NormFloat64()
			}
			a[0], b[1] = math.Inf(1), math.Copysign(0, -1)
			got, want := make([]float32, len(x)), make([]float32, len(x))
			if err := Affine(x, got, block, a, b, reduce.Serial); err != nil {
				t.Fatal(err)
			}
			if err := Affine(x64, want, block, a, b, reduce.Serial); err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
					t.Fatalf("vector %v block %d: y[%d] = %v, the float64 walk gives %v (x %v)", vector, block, i, got[i], want[i], x[i])
				}
			}
		}
	}
	haveRowsAVX512 = haveRowsAVX512Saved
}

// TestFloat32RowsInOneCall checks the rows that Normalize hands to one
// vector call (normalizeRowsF32: per-element scale and bias or none,
// StdDev and RMS) against the float64 walk of the same values, bit for
// bit, for every row length from 1 to 70 (every tail of the sixteen lanes
// and of the eight-wide writes) and parts that start in the middle of
// the slices, so that each part's statistics land at their slices.
func TestFloat32RowsInOneCall(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	specials := []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), float32(math.Inf(-1)), 1e-45}
	// parts splits the slices into parts of one to five.
	parts := func(n, _ int, f func(lo, hi int) error) error {
		for lo := 0; lo < n; {
			hi := min(n, lo+1+rng.IntN(5))
			if err := f(lo, hi); err != nil {
				return err
			}
			lo = hi
		}
		return nil
	}
	for n := 1; n <= 70; n++ {
		slices := 1 + rng.IntN(9)
		x := make([]float32, slices*n)
		x64 := make([]float64, len(x))
		for i := range x {
			x[i] = float32(rng.NormFloat64()*2 - 0.5)
			if n%5 == 0 && rng.IntN(20) == 0 {
				x[i] = specials[rng.IntN(len(specials))]
			}
			x64[i] = float64(x[i])
		}
		sc, b := make([]float64, n), make([]float64, n)
		for i := range sc {
			sc[i], b[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		for _, stat := range []Stat{StdDev, RMS} {
			for _, p := range [][2]Param{{{}, {}}, {{V: sc}, {}}, {{V: sc}, {V: b}}, {{}, {V: b}}} {
				l := Layout{Slices: slices, N: n}
				got, want := make([]float32, len(x)), make([]float32, len(x))
				gs := Stats{Means: make([]float64, slices), Variances: make([]float64, slices), Factors: make([]float64, slices)}
				ws := Stats{Means: make([]float64, slices), Variances: make([]float64, slices), Factors: make([]float64, slices)}
				if err := Normalize(stat, 1e-5, l, x, got, p[0], p[1], gs, parts); err != nil {
					t.Fatal(err)
				}
				if err := Normalize(stat, 1e-5, l, x64, want, p[0], p[1], ws, reduce.Serial); err != nil {
					t.Fatal(err)
				}
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
						t.Fatalf("n %d stat %d scale %v bias %v: y[%d] = %v, the float64 walk gives %v", n, stat, p[0].V != nil, p[1].V != nil, i, got[i], want[i])
					}
				}
				for s := range slices {
					for k, pair := range [][2]float64{{gs.Means[s], ws.Means[s]}, {gs.Variances[s], ws.Variances[s]}, {gs.Factors[s], ws.Factors[s]}} {
						if math.Float64bits(pair[0]) != math.Float64bits(pair[1]) && !(pair[0] != pair[0] && pair[1] != pair[1]) {
							t.Fatalf("n %d stat %d: statistic %d of slice %d is %v, want %v", n, stat, k, s, pair[0], pair[1])
						}
					}
				}
			}
		}
	}
}

// TestLpRowsInOneCall checks the rows LpNormalize hands to one vector call
// (lpRowsF32) against its float64 walk, bit for bit, for every row
// length from 1 to 70, p 1 and 2, rows of zeros (norm 0), rows with a NaN
// or an infinity, and parts that start in the middle of the slices.
func TestLpRowsInOneCall(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 4))
	parts := func(n, _ int, f func(lo, hi int) error) error {
		for lo := 0; lo < n; {
			hi := min(n, lo+1+rng.IntN(5))
			if err := f(lo, hi); err != nil {
				return err
			}
			lo = hi
		}
		return nil
	}
	for n := 1; n <= 70; n++ {
		slices := 2 + rng.IntN(8)
		x := make([]float32, slices*n)
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 4)
		}
		zero := rng.IntN(slices)
		clear(x[zero*n : (zero+1)*n])
		if n%3 == 0 {
			s := (zero + 1) % slices
			x[s*n+rng.IntN(n)] = []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Copysign(0, -1))}[n%9/3]
		}
		x64 := make([]float64, len(x))
		for i, v := range x {
			x64[i] = float64(v)
		}
		for _, p := range []int{1, 2} {
			l := Layout{Slices: slices, N: n}
			got, want := make([]float32, len(x)), make([]float64, len(x))
			if err := LpNormalize(p, l, x, got, parts); err != nil {
				t.Fatal(err)
			}
			if err := LpNormalize(p, l, x64, want, reduce.Serial); err != nil {
				t.Fatal(err)
			}
			for i := range got {
				w := float32(want[i])
				if math.Float32bits(got[i]) != math.Float32bits(w) && !(got[i] != got[i] && w != w) {
					t.Fatalf("n %d p %d: y[%d] = %v, the float64 walk gives %v", n, p, i, got[i], w)
				}
			}
		}
	}
}
