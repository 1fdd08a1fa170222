package elementwise

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBroadcastWalkMergesAxes(t *testing.T) {
	for _, tc := range []struct {
		out, a, b []int
		span      int
		steps     []int
		outer     int
	}{
		{[]int{2, 3, 4}, []int{2, 3, 4}, []int{2, 3, 4}, 24, []int{1, 1}, 0},
		{[]int{1, 64, 224, 224}, []int{1, 64, 224, 224}, []int{1, 64, 1, 1}, 224 * 224, []int{1, 0}, 1},
		{[]int{5, 6}, []int{5, 1}, []int{6}, 6, []int{0, 1}, 1},
		{[]int{}, []int{}, []int{}, 1, []int{1, 1}, 0},
	} {
		w := NewWalk(tc.out, tc.a, tc.b)
		if w.span != tc.span || !slices.Equal(w.Step, tc.steps) || len(w.outer) != tc.outer {
			t.Errorf("%v %v %v: span %d steps %v outer %v", tc.out, tc.a, tc.b, w.span, w.Step, w.outer)
		}
	}
}

// Relu's AVX loop keeps NaN and -0 and zeroes the negatives, as the Go
// loop does.
func TestReluLoopMatchesGo(t *testing.T) {
	x := make([]float32, 100)
	for i := range x {
		x[i] = float32(i%7) - 3
	}
	x[5], x[40], x[77] = float32(math.NaN()), float32(math.Copysign(0, -1)), float32(math.Inf(-1))
	got, want := make([]float32, len(x)), make([]float32, len(x))
	ReluF32(got, x)
	Relu(want, x)
	for i := range x {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
			t.Fatalf("element %d (%v): %v, want %v", i, x[i], got[i], want[i])
		}
	}
	if !math.Signbit(float64(got[40])) || !math.IsNaN(float64(got[5])) || got[77] != 0 {
		t.Fatalf("got %v %v %v", got[5], got[40], got[77])
	}
}

// Where's AVX2 blend picks as the Go loop does, for any nonzero condition
// byte and every length.
func TestSelectLoopMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, 31, 32, 33, 100, 257} {
		c := make([]uint8, n)
		a, b := make([]uint32, n), make([]uint32, n)
		for i := range c {
			c[i] = []uint8{0, 1, 2, 255}[rng.IntN(4)]
			a[i], b[i] = rng.Uint32(), rng.Uint32()
		}
		got, want := make([]uint32, n), make([]uint32, n)
		Select32(got, c, a, b)
		SelectWords(want, c, a, b)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: %v, want %v", n, got, want)
		}
		for i := range c {
			if (c[i] != 0) != (want[i] == a[i]) && a[i] != b[i] {
				t.Fatalf("n=%d element %d: condition %d picked the wrong source", n, i, c[i])
			}
		}
	}
}
