//go:build ort

package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/tensor"
)

// Differential tests of the normalization operators of the compute round against
// onnxruntime: random shapes, types and attributes of each operator, run in
// both engines. onnxshape computes every element in float64 and rounds it
// once; onnxruntime computes float32 in float32 (sums in its own order), so
// float32 results agree within abs 1e-5, rel 1e-4 (statistics over up to a
// few hundred elements; LRN's pow), double within 1e-9, float16 and
// bfloat16 within one unit of their last place (halfTolerance).

func normTolerance(c *diffCase, dt tensor.DataType) {
	c.abs, c.rel = 1e-5, 1e-4
	if dt == tensor.Double {
		c.abs, c.rel = 1e-9, 1e-9
	}
	halfTolerance(c, dt)
}

// cancellation widens c's absolute tolerance to what onnxruntime's float32
// statistics allow: its mean is rounded to float32 (within 2^-24 * max|x|
// of the exact one, a few such roundings in all), and the deviation x -
// mean is multiplied by 1/sqrt(var + eps), up to 1/sqrt(eps) for a slice
// of nearly equal elements, then by the scale. onnxshape's float64
// statistics are exact to far below that.
func cancellation(c *diffCase, x, scale *tensor.Tensor, eps float32) {
	maxAbs := func(t *tensor.Tensor) float64 {
		v, _ := t.Float64s()
		m := 0.0
		for _, e := range v {
			m = max(m, math.Abs(e))
		}
		return m
	}
	c.abs = max(c.abs, 8*0x1p-24*maxAbs(x)*maxAbs(scale)/math.Sqrt(float64(eps)))
}

// positive returns a tensor of dt and shape with values in [lo, lo+span).
func positive(r *rand.Rand, dt tensor.DataType, shape []int, lo, span float64) *tensor.Tensor {
	n, _ := tensor.NumElements(shape)
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + r.Float64()*span
	}
	return floatTensor(dt, v, shape)
}

func nodeN(op string, n int, attrs ...builder.Arg) func(b *builder.Builder, in []builder.Value) []builder.Value {
	return func(b *builder.Builder, in []builder.Value) []builder.Value {
		args := make([]builder.Arg, 0, len(in)+len(attrs))
		for _, v := range in {
			args = append(args, v)
		}
		return b.OpN(op, n, append(args, attrs...)...)
	}
}

func TestORTNormalizations(t *testing.T) {
	t.Run("BatchNormalization", func(t *testing.T) {
		family(t, 24, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
			opset := pick(r, 9, 14, 15)
			dt := pick(r, floatTypes...)
			shape := randShape(r, 2+r.IntN(3), 1, 6)
			c := shape[1]
			pt, st := dt, dt
			if opset >= 15 && dt != tensor.Float && r.IntN(2) == 0 {
				pt, st = tensor.Float, tensor.Float // onnxruntime's mixed kernels: T float16/double with float parameters
			}
			eps := pick(r, float32(1e-5), 1e-3, 0.1)
			in := inputsOf(randTensor(r, dt, shape), randTensor(r, pt, []int{c}), randTensor(r, pt, []int{c}),
				randTensor(r, st, []int{c}), positive(r, st, []int{c}, 0.1, 3))
			cs := &diffCase{name: fmt.Sprintf("BatchNormalization-%d %v %v eps=%g", opset, dt, shape, eps), opset: opset, inputs: in,
				build: node("BatchNormalization", builder.Float("epsilon", eps))}
			if opset >= 14 && r.IntN(3) == 0 {
				mom := pick(r, float32(0.9), 0.5, 0.1)
				cs.name += fmt.Sprintf(" training momentum=%g", mom)
				cs.build = nodeN("BatchNormalization", 3, builder.Float("epsilon", eps), builder.Float("momentum", mom), builder.Int("training_mode", 1))
			}
			normTolerance(cs, dt)
			return cs
		})
	})
	t.Run("InstanceNormalization", func(t *testing.T) {
		family(t, 25, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
			opset := pick(r, 7, 22) // 7 serves version 6; the builder starts at 7
			dt := pick(r, floatTypes...)
			shape := randShape(r, 3+r.IntN(2), 1, 6)
			eps := pick(r, float32(1e-5), 1e-2)
			in := inputsOf(randTensor(r, dt, shape), randTensor(r, dt, []int{shape[1]}), randTensor(r, dt, []int{shape[1]}))
			cs := &diffCase{name: fmt.Sprintf("InstanceNormalization-%d %v %v", opset, dt, shape), opset: opset, inputs: in,
				build: node("InstanceNormalization", builder.Float("epsilon", eps))}
			normTolerance(cs, dt)
			if dt != tensor.Double {
				cancellation(cs, in[0].t, in[1].t, eps)
			}
			return cs
		})
	})
	t.Run("LayerNormalization", func(t *testing.T) {
		family(t, 26, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
			dt := pick(r, tensor.Float, tensor.Double, tensor.Float16)
			rank := 1 + r.IntN(4)
			shape := randShape(r, rank, 1, 8)
			axis := r.IntN(2*rank) - rank
			a := axis
			if a < 0 {
				a += rank
			}
			ns := shape[a:]
			in := inputsOf(randTensor(r, dt, shape), randTensor(r, dt, ns))
			if r.IntN(2) == 0 {
				in = append(in, diffInput{"b", randTensor(r, dt, ns)})
			}
			outs := 1 + r.IntN(3)
			cs := &diffCase{name: fmt.Sprintf("LayerNormalization-17 %v %v axis=%d outputs=%d", dt, shape, axis, outs), opset: 17, inputs: in,
				build: nodeN("LayerNormalization", outs, builder.Int("axis", axis), builder.Float("epsilon", 1e-5))}
			normTolerance(cs, dt)
			return cs
		})
	})
	t.Run("GroupNormalization", func(t *testing.T) {
		family(t, 27, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
			dt := pick(r, tensor.Float, tensor.Double, tensor.Float16)
			shape := randShape(r, 3+r.IntN(2), 1, 5)
			shape[1] = pick(r, 2, 4, 6)
			g := pick(r, 1, 2)
			in := inputsOf(randTensor(r, dt, shape), randTensor(r, dt, []int{shape[1]}), randTensor(r, dt, []int{shape[1]}))
			cs := &diffCase{name: fmt.Sprintf("GroupNormalization-21 %v %v groups=%d", dt, shape, g), opset: 21, inputs: in,
				build: node("GroupNormalization", builder.Int("num_groups", g), builder.Float("epsilon", 1e-5))}
			normTolerance(cs, dt)
			if dt == tensor.Double {
				// onnxruntime runs the function body, whose statistics
				// are in stash_type (float); onnxshape's in float64.
				cs.abs, cs.rel = 1e-5, 1e-4
			}
			if dt != tensor.Float16 {
				cancellation(cs, in[0].t, in[1].t, 1e-5)
			}
			return cs
		})
	})
	t.Run("RMSNormalization", func(t *testing.T) {
		family(t, 28, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
			dt := pick(r, tensor.Float, tensor.Double, tensor.Float16)
			rank := 1 + r.IntN(4)
			shape := randShape(r, rank, 1, 8)
			axis := r.IntN(2*rank) - rank
			a := axis
			if a < 0 {
				a += rank
			}
			in := inputsOf(randTensor(r, dt, shape), randTensor(r, dt, shape[a:]))
			cs := &diffCase{name: fmt.Sprintf("RMSNormalization-23 %v %v axis=%d", dt, shape, axis), opset: 23, inputs: in,
				build: node("RMSNormalization", builder.Int("axis", axis), builder.Float("epsilon", 1e-5))}
			normTolerance(cs, dt)
			return cs
		})
	})
	t.Run("MeanVarianceNormalization", func(t *testing.T) {
		family(t, 29, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
			dt := pick(r, tensor.Float, tensor.Float, tensor.Float, tensor.Double, tensor.Float16)
			shape := randShape(r, 4, 1, 5)
			axes := pick(r, []int{0, 2, 3}, []int{2, 3}, []int{1}, []int{0, 1, 2, 3}, []int{3})
			cs := &diffCase{name: fmt.Sprintf("MeanVarianceNormalization-13 %v %v axes=%v", dt, shape, axes), opset: 13,
				inputs: inputsOf(randTensor(r, dt, shape)), build: node("MeanVarianceNormalization", builder.Ints("axes", axes...))}
			normTolerance(cs, dt)
			if reducedCount(shape, axes) == 1 {
				cs.known = "onnxruntime's MeanVarianceNormalization divides by the deviation without the function body's epsilon: a constant slice gives NaN, the spec 0 (docs/divergences.md)"
			}
			if dt != tensor.Float {
				cs.known = "onnxruntime expands MeanVarianceNormalization to its function body, whose epsilon constant is float: it refuses float16 and double (docs/divergences.md)"
			}
			return cs
		})
	})
	t.Run("LpNormalization", func(t *testing.T) {
		family(t, 30, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
			opset := pick(r, 7, 22) // 7 serves version 1
			dt := pick(r, floatTypes...)
			rank := 1 + r.IntN(4)
			shape := randShape(r, rank, 1, 6)
			axis := r.IntN(2*rank) - rank
			p := pick(r, 1, 2)
			cs := &diffCase{name: fmt.Sprintf("LpNormalization-%d %v %v axis=%d p=%d", opset, dt, shape, axis, p), opset: opset,
				inputs: inputsOf(randTensor(r, dt, shape)), build: node("LpNormalization", builder.Int("axis", axis), builder.Int("p", p))}
			normTolerance(cs, dt)
			return cs
		})
	})
	t.Run("LRN", func(t *testing.T) {
		family(t, 31, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
			opset := pick(r, 7, 13) // 7 serves version 1
			dt := pick(r, tensor.Float, tensor.Float, tensor.Float16, tensor.Double)
			shape := randShape(r, 4, 1, 7)
			size := pick(r, 1, 3, 5, 3, 5, 2, 4)
			alpha, beta, bias := pick(r, float32(1e-4), 0.01, 0.5), pick(r, float32(0.75), 0.5, 1), pick(r, float32(1), 2)
			cs := &diffCase{name: fmt.Sprintf("LRN-%d %v %v size=%d alpha=%g beta=%g bias=%g", opset, dt, shape, size, alpha, beta, bias), opset: opset,
				inputs: inputsOf(randTensor(r, dt, shape)),
				build:  node("LRN", builder.Int("size", size), builder.Float("alpha", alpha), builder.Float("beta", beta), builder.Float("bias", bias))}
			normTolerance(cs, dt)
			if size%2 == 0 {
				cs.known = "onnxruntime refuses an even LRN size, which the spec's floor/ceil window allows (docs/divergences.md)"
			}
			return cs
		})
	})
}

func reducedCount(shape, axes []int) int {
	n := 1
	for _, a := range axes {
		n *= shape[a]
	}
	return n
}

// TestORTDivergencesNorm pins the divergences of the normalization
// operators (docs/divergences.md, "Normalizations against onnxruntime"):
// onnxshape gives the specification's result, onnxruntime refuses the
// model or gives another.
func TestORTDivergencesNorm(t *testing.T) {
	pin := func(t *testing.T, c *diffCase, want *tensor.Tensor) {
		t.Helper()
		model, names, err := c.buildModel(nil)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := runOurs(model, c)
		if err != nil {
			t.Fatalf("onnxshape: %v", err)
		}
		if c.compareOutput(ours[names[0]], want) != "" {
			t.Errorf("onnxshape gives %v, the specification %v", ours[names[0]], want)
		}
		theirs, err := runORTModel(model, c, names, nil)
		if err != nil {
			t.Logf("onnxruntime refuses: %v", err)
			return
		}
		if c.compareOutput(theirs[0], want) == "" {
			t.Errorf("onnxruntime now gives the specification's result: drop the divergence %q", c.name)
		} else {
			t.Logf("onnxruntime gives %v", theirs[0])
		}
	}
	// MeanVarianceNormalization-13's function body: (X - mean) / (sqrt(var)
	// + 1e-9); a slice of one element (or of equal ones) gives 0.
	t.Run("MeanVarianceNormalization of a constant slice", func(t *testing.T) {
		c := &diffCase{name: "MeanVarianceNormalization [1 2 1 1] axes [2 3]", opset: 13,
			inputs: inputsOf(tensor.MustFromSlice([]float32{3, -2}, 1, 2, 1, 1)), build: node("MeanVarianceNormalization", builder.Ints("axes", 2, 3))}
		pin(t, c, tensor.MustFromSlice([]float32{0, 0}, 1, 2, 1, 1))
	})
	// LRN: the window is c - floor((size-1)/2) to c + ceil((size-1)/2), any
	// positive size; size 2 takes the channel and the next one.
	t.Run("LRN of an even size", func(t *testing.T) {
		x := []float32{1, 2, 3}
		c := &diffCase{name: "LRN size 2", opset: 13, inputs: inputsOf(tensor.MustFromSlice(x, 1, 3, 1, 1)),
			build: node("LRN", builder.Int("size", 2), builder.Float("alpha", 1), builder.Float("beta", 1), builder.Float("bias", 1))}
		c.abs, c.rel = 1e-7, 1e-6
		want := []float32{1 / (1 + 0.5*(1+4)), 2 / (1 + 0.5*(4+9)), 3 / (1 + 0.5*9)}
		pin(t, c, tensor.MustFromSlice(want, 1, 3, 1, 1))
	})
	// MeanVarianceNormalization of double (float16): valid types of the
	// operator, which onnxruntime's expansion refuses.
	t.Run("MeanVarianceNormalization of double", func(t *testing.T) {
		c := &diffCase{name: "MeanVarianceNormalization double", opset: 13,
			inputs: inputsOf(tensor.MustFromSlice([]float64{1, 3}, 1, 1, 1, 2)), build: node("MeanVarianceNormalization")}
		c.abs, c.rel = 1e-9, 1e-9
		pin(t, c, tensor.MustFromSlice([]float64{-1 / (1 + 1e-9), 1 / (1 + 1e-9)}, 1, 1, 1, 2))
	})
}
