package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestOneElementOutputs checks that a reduction whose reduced axes all
// have length 1 (Run reads it as one row of columns) gives, bit for bit,
// reduceRow of each one-element row: signed zeros, infinities, NaNs with
// payloads and denormals included, in float32, float64 and int32.
func TestOneElementOutputs(t *testing.T) {
	nan32 := math.Float32frombits(0x7fc12345)
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 1e-40, -3e-39, 1e38, -7.5}
	kinds := []Kind{Sum, Mean, SumSquare, L2, L1, Max, Min, Prod, LogSum, LogSumExp, Lp}
	for _, n := range []int{1, 5, 17, 100, 1030} {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		x32 := make([]float32, n)
		x64 := make([]float64, n)
		xi := make([]int32, n)
		for i := range x32 {
			v := rng.NormFloat64() * 10
			if rng.IntN(3) == 0 {
				v = specials[rng.IntN(len(specials))]
			}
			x32[i], x64[i], xi[i] = float32(v), v, int32(rng.IntN(2000)-1000)
			if rng.IntN(11) == 0 {
				x32[i], x64[i] = nan32, math.Float64frombits(0x7ff8000000abcdef)
			}
		}
		for _, k := range kinds {
			op := Op{Kind: k, P: 3}
			checkOneElement(t, op, x32, func(v float32) uint64 { return uint64(math.Float32bits(v)) })
			checkOneElement(t, op, x64, math.Float64bits)
			checkOneElement(t, op, xi, func(v int32) uint64 { return uint64(v) })
		}
	}
}

func checkOneElement[A Number](t *testing.T, op Op, x []A, bits func(A) uint64) {
	t.Helper()
	y := make([]A, len(x))
	if err := Run(op, Layout{Outer: len(x), N: 1, Inner: 1}, x, y, Serial); err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if want := reduceRow(op, x[i:i+1]); bits(y[i]) != bits(want) {
			t.Fatalf("%T kind %d, %d outputs: output %d of %v is %v (%#x), reduceRow gives %v (%#x)", x[0], op.Kind, len(x), i, x[i], y[i], bits(y[i]), want, bits(want))
		}
	}
}
