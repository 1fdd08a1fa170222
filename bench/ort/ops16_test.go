//go:build ort

package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/tensor"
)

// Differential tests of the operators of issue 16 against onnxruntime: for
// each family, a few hundred small one-node models on random shapes, types
// and attributes (seeded, so a failure names a case that can be rerun), run
// in both engines and compared.
//
// Tolerances, |onnxshape - onnxruntime| <= abs + rel*|onnxruntime|:
//   - exact: integers, bool, and float results that IEEE arithmetic fixes
//     (one Add, Mul, Max, comparison, movement, Cast);
//   - abs 1e-6, rel 1e-5 for float32 transcendentals: onnxruntime computes
//     exp, tanh, sigmoid and erf with MLAS's vectorized polynomials, a few
//     ulps from Go's math package;
//   - abs 1e-5, rel 1e-5 for float32 sums of many terms (reductions, pooling,
//     CumSum, Softmax): the engines add in different orders;
//   - rel 2e-3 for float16 and bfloat16 results computed through float32 and
//     rounded back: one ulp of the 11-bit (8-bit) significand after a float32
//     result that may differ in its last bits.

const casesPerFamily = 200

// family runs n cases drawn by gen; skip, when not nil, names a known
// divergence or bug (see docs/divergences.md and the comments there) for
// cases to leave out, and the count of those is logged.
func family(t *testing.T, seed uint64, n int, gen func(r *rand.Rand, i int) *diffCase, skip func(c *diffCase, res diffResult) string) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 16))
	failures, skipped := 0, map[string]int{}
	for i := range n {
		c := gen(r, i)
		res := runDiff(t, c)
		if res.agree() || (res.oursErr != nil && res.ortErr != nil) {
			continue
		}
		if res.oursErr == nil && res.ortErr != nil && strings.Contains(res.ortErr.Error(), "Could not find an implementation") {
			skipped["onnxruntime has no kernel for this operator and type"]++
			continue
		}
		if skip != nil {
			if why := skip(c, res); why != "" {
				skipped[why]++
				continue
			}
		}
		failures++
		if failures <= 8 {
			t.Errorf("case %d %s: %s\n\tinputs: %s", i, c.name, res, describeInputs(c))
		}
	}
	if failures > 8 {
		t.Errorf("%d failures in all", failures)
	}
	for why, k := range skipped {
		t.Logf("skipped %d cases: %s", k, why)
	}
}

func describeInputs(c *diffCase) string {
	s := ""
	for _, in := range c.inputs {
		if in.t.Len() <= 8 {
			v, _ := in.t.Float64s()
			s += fmt.Sprintf("%s=%v%v%v ", in.name, in.t.DataType(), in.t.Shape(), v)
		} else {
			s += fmt.Sprintf("%s=%v%v ", in.name, in.t.DataType(), in.t.Shape())
		}
	}
	return s
}

// broadcastShapes draws an output shape of rank 0..4 (dimensions 0 now and
// then) and k input shapes that broadcast to it: leading dimensions dropped
// and others set to 1 at random.
func broadcastShapes(r *rand.Rand, k int) [][]int {
	rank := r.IntN(5)
	out := randShape(r, rank, 1, 4)
	for i := range out {
		if r.IntN(12) == 0 {
			out[i] = 0
		}
	}
	shapes := make([][]int, k)
	for j := range shapes {
		drop := 0
		if r.IntN(3) == 0 {
			drop = r.IntN(rank + 1)
		}
		s := append([]int{}, out[drop:]...)
		for i := range s {
			if r.IntN(3) == 0 {
				s[i] = 1
			}
		}
		shapes[j] = s
	}
	// At least one input has rank > 0, for the binding (see diff16_test.go).
	if rank > 0 {
		shapes[0] = append([]int{}, out...)
	} else {
		shapes[0] = []int{1}
	}
	return shapes
}

func node(op string, attrs ...any) func(b *builder.Builder, in []builder.Value) []builder.Value {
	return func(b *builder.Builder, in []builder.Value) []builder.Value {
		args := make([]any, 0, len(in)+len(attrs))
		for _, v := range in {
			args = append(args, v)
		}
		return []builder.Value{b.Op(op, append(args, attrs...)...)}
	}
}

func inputsOf(ts ...*tensor.Tensor) []diffInput {
	out := make([]diffInput, len(ts))
	for i, t := range ts {
		out[i] = diffInput{fmt.Sprintf("x%d", i), t}
	}
	return out
}

var floatTypes = []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16}

func halfTolerance(c *diffCase, dt tensor.DataType) {
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		c.rel = max(c.rel, 2e-3)
		c.abs = max(c.abs, 1e-3)
	}
}

func TestORTElementwiseBroadcast(t *testing.T) {
	type binop struct {
		op    string
		types []tensor.DataType
		opset int
	}
	numeric := []tensor.DataType{tensor.Float, tensor.Double, tensor.Int32, tensor.Int64, tensor.Float16, tensor.Uint8, tensor.Int8}
	ops := []binop{
		{"Add", numeric, 14}, {"Sub", numeric, 14}, {"Mul", numeric, 14},
		{"Div", []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16}, 14},
		{"Max", numeric, 13}, {"Min", numeric, 13},
		{"Equal", []tensor.DataType{tensor.Float, tensor.Int32, tensor.Int64, tensor.Bool}, 19},
		{"Less", numeric, 13}, {"Greater", numeric, 13},
		{"LessOrEqual", numeric, 16}, {"GreaterOrEqual", numeric, 16},
		{"And", []tensor.DataType{tensor.Bool}, 7}, {"Or", []tensor.DataType{tensor.Bool}, 7}, {"Xor", []tensor.DataType{tensor.Bool}, 7},
		{"Pow", []tensor.DataType{tensor.Float, tensor.Double}, 15},
		{"PRelu", []tensor.DataType{tensor.Float, tensor.Double}, 16},
		{"Sum", []tensor.DataType{tensor.Float, tensor.Double}, 13},
		{"Mean", []tensor.DataType{tensor.Float, tensor.Double}, 13},
		{"BitShift", []tensor.DataType{tensor.Uint8, tensor.Uint32, tensor.Uint64}, 11},
		{"Mod", []tensor.DataType{tensor.Int32, tensor.Int64, tensor.Float}, 13},
	}
	family(t, 1, 2*casesPerFamily, func(r *rand.Rand, i int) *diffCase {
		o := ops[i%len(ops)]
		dt := pick(r, o.types...)
		k := 2
		if o.op == "Max" || o.op == "Min" || o.op == "Sum" || o.op == "Mean" {
			k = 1 + r.IntN(3)
		}
		shapes := broadcastShapes(r, k)
		if o.op == "PRelu" { // slope broadcasts unidirectionally to X
			shapes = broadcastShapes(r, 2)
		}
		ts := make([]*tensor.Tensor, k)
		for j := range ts {
			ts[j] = randTensor(r, dt, shapes[j])
		}
		var attrs []any
		switch o.op {
		case "Pow":
			ts[0] = absTensor(ts[0]) // a negative base to a fractional power is NaN in both, but noisy
		case "BitShift":
			attrs = append(attrs, builder.String("direction", pick(r, "LEFT", "RIGHT")))
			ts[1] = randIntsIn(r, dt, shapes[1], 0, 7)
		case "Mod":
			fmod := 0
			if dt == tensor.Float || r.IntN(2) == 0 {
				fmod = 1
			}
			attrs = append(attrs, builder.Int("fmod", fmod))
			ts[1] = nonZero(r, ts[1])
		}
		c := &diffCase{name: fmt.Sprintf("%s %v %v", o.op, dt, shapes), opset: o.opset, inputs: inputsOf(ts...), build: node(o.op, attrs...)}
		switch o.op {
		case "Pow":
			c.abs, c.rel = 1e-6, 1e-6 // std::pow and Go's math.Pow, rounded to float32
		case "Mean", "Sum":
			c.abs, c.rel = 1e-6, 1e-6
		}
		halfTolerance(c, dt)
		return c
	}, nil)
}

func absTensor(t *tensor.Tensor) *tensor.Tensor {
	v, _ := t.Float64s()
	for i := range v {
		if v[i] < 0 {
			v[i] = -v[i]
		}
	}
	return floatTensor(t.DataType(), v, t.Shape())
}

func floatTensor(dt tensor.DataType, v []float64, shape []int) *tensor.Tensor {
	switch dt {
	case tensor.Double:
		return tensor.MustFromSlice(v, shape...)
	case tensor.Float, tensor.Float16, tensor.BFloat16:
		f := make([]float32, len(v))
		for i, x := range v {
			f[i] = float32(x)
		}
		if dt == tensor.Float {
			return tensor.MustFromSlice(f, shape...)
		}
		return fromFloat32s(dt, f, shape)
	}
	ints := make([]int64, len(v))
	for i, x := range v {
		ints[i] = int64(x)
	}
	return intTensor(dt, ints, shape)
}

// nonZero replaces the zeros of t by 3.
func nonZero(r *rand.Rand, t *tensor.Tensor) *tensor.Tensor {
	v, _ := t.Float64s()
	for i := range v {
		if v[i] == 0 {
			v[i] = 3
		}
	}
	return floatTensor(t.DataType(), v, t.Shape())
}

func randIntsIn(r *rand.Rand, dt tensor.DataType, shape []int, lo, hi int) *tensor.Tensor {
	n, _ := tensor.NumElements(shape)
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(lo + r.IntN(hi-lo+1))
	}
	return intTensor(dt, v, shape)
}
