package reference

import (
	"flag"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

var exp32All = flag.Bool("exp32.all", false, "measure exp32 over every float32 of its range (90 s), not every 61st")

// TestExp32Bound measures exp32 against float64 math.Exp over the float32
// of [-104, 88.72] (every 61st bit pattern, or all with -exp32.all) and
// holds it to the bound exp32's comment states: within 0.895 units in the
// last place, correctly rounded for at least 99.5% of the inputs; and to
// the values at the ends of its range.
func TestExp32Bound(t *testing.T) {
	step := uint32(61)
	if *exp32All {
		step = 1
	}
	worst, worstX := 0.0, float32(0)
	correct, total := 0, 0
	measure := func(from, to uint32) {
		for b := from; b <= to; b += step {
			x := math.Float32frombits(b)
			got, want := exp32(x), math.Exp(float64(x))
			if got == float32(want) {
				correct++
			}
			total++
			if e := ulpsFrom(got, want); e > worst {
				worst, worstX = e, x
			}
		}
	}
	measure(0x80000000, 0xC2D00000) // -0 to -104
	measure(0, 0x42B17217)          // 0 to 88.72283 (e^x < MaxFloat32)
	share := float64(correct) / float64(total)
	t.Logf("%d inputs: at most %.4f ulp (at %v), correctly rounded %.4f%%", total, worst, worstX, 100*share)
	if worst > 0.895 || share < 0.995 {
		t.Errorf("exp32 is within %.4f ulp (at %v) and correctly rounded for %.4f%% of the inputs; its comment says 0.895 ulp and 99.54%%", worst, worstX, 100*share)
	}
	for _, c := range []struct{ x, want float32 }{
		{float32(math.Inf(-1)), 0}, {-1000, 0}, {-104, 0}, {-103.9, 1e-45}, {0, 1}, {float32(math.Copysign(0, -1)), 1},
		{88.72, 3.3931806e+38}, {88.73, float32(math.Inf(1))}, {float32(math.Inf(1)), float32(math.Inf(1))},
	} {
		if got := exp32(c.x); got != c.want {
			t.Errorf("exp32(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if got := exp32(float32(math.NaN())); got == got {
		t.Errorf("exp32(NaN) = %v", got)
	}
}

// ulpsFrom is |got - want| in units in the last place of the float32 next
// to want (the smallest subnormal below the normal range).
func ulpsFrom(got float32, want float64) float64 {
	w := float32(want)
	if w == got && (math.IsInf(float64(w), 0) || w == 0) {
		return 0
	}
	bits := math.Float32bits(w)
	ulp := float64(math.Float32frombits(bits+1)) - float64(w)
	if math.IsInf(ulp, 0) {
		ulp = float64(w) - float64(math.Float32frombits(bits-1))
	}
	ulp = max(ulp, math.SmallestNonzeroFloat32)
	return math.Abs(float64(got)-want) / ulp
}

// TestFMA32 checks fma32 against a*b + c computed exactly (math/big) and
// rounded once to float32: random bit patterns, products that cancel c
// (the sums that double rounding gets wrong), and values of exp32's sizes.
func TestFMA32(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for i := range 300000 {
		a, b, c := math.Float32frombits(rng.Uint32()), math.Float32frombits(rng.Uint32()), math.Float32frombits(rng.Uint32())
		switch i % 3 {
		case 1:
			c = -float32(float64(a) * float64(b))
		case 2:
			a, b, c = float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64()*1e-3)
		}
		p := float64(a) * float64(b)
		if math.IsNaN(p) || math.IsInf(p, 0) || math.Abs(p) > math.MaxFloat32/2 || c != c || math.IsInf(float64(c), 0) {
			continue
		}
		exact := new(big.Float).SetPrec(1000).SetFloat64(float64(a))
		exact.Mul(exact, new(big.Float).SetFloat64(float64(b)))
		exact.Add(exact, new(big.Float).SetFloat64(float64(c)))
		want, _ := exact.Float32()
		if got := fma32(a, b, c); got != want {
			t.Fatalf("fma32(%v, %v, %v) = %v, the exact sum rounds to %v", a, b, c, got, want)
		}
	}
}

// TestSoftmaxExponentialByProfile pins which exponential Softmax takes in
// both engines: exp32 under ONNX's rules, the Exp operator's (math.Exp
// rounded) under SONNX, whose softmax.md says the exponential "refers to
// ONNX operator exp". The row [v, 0] has the sum e + 1, with v one of the
// inputs where the two exponentials differ.
func TestSoftmaxExponentialByProfile(t *testing.T) {
	v := float32(-1)
	for exp32(v) == float32(math.Exp(float64(v))) {
		v = math.Nextafter32(v, 0)
	}
	x := tensor.MustFromSlice([]float32{v, 0}, 2)
	for _, c := range []struct {
		profile ops.Profile
		e       float32
	}{{ops.ProfileONNX, exp32(v)}, {ops.ProfileSONNX, float32(math.Exp(float64(v)))}} {
		want := []float32{c.e / (c.e + 1), 1 / (c.e + 1)}
		fast, err := ops.Softmax(x, ops.SoftmaxOptions{Axis: new(0)}, ops.WithProfile(c.profile))
		if err != nil {
			t.Fatal(err)
		}
		node := &ops.Node{OpType: "Softmax", Version: 13, Attrs: map[string]ops.Attribute{"axis": {Type: ops.AttrInt, Int: 0}}}
		ref, _ := Kernel("", "Softmax", 13)
		out, err := ref(&ops.Options{Profile: c.profile}, node, []tensor.Value{x})
		if err != nil {
			t.Fatal(err)
		}
		for name, y := range map[string]*tensor.Tensor{"fast": fast, "reference": out[0].(*tensor.Tensor)} {
			got, err := y.Float32s()
			if err != nil || got[0] != want[0] || got[1] != want[1] {
				t.Errorf("%v, %s engine: softmax of [%v 0] is %v, want %v", c.profile, name, v, got, want)
			}
		}
	}
}
