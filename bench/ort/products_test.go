//go:build ort

package main

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/tensor"
)

// Differential tests of the matrix products of the compute round against
// onnxruntime: random shapes (batches that broadcast, 1-D operands),
// transposes, C shapes, Einsum equations, zero points.
//
// Tolerances, |onnxshape - onnxruntime| <= abs + rel*|onnxruntime|:
//   - exact: the integer products (MatMul of int32/int64, MatMulInteger);
//   - abs 1e-4, rel 1e-5 for float32 sums of at most a few dozen products
//     of values in [-4, 4) (both engines sum in float32, in their own
//     orders; reference.Agree's bound is tighter but per element);
//   - float16: halfTolerance;
//   - QLinearMatMul: 1, since onnxruntime requantizes in float32 where
//     onnxshape follows the ONNX reference's float64, and a value near a
//     half may round either way;
//   - Det: abs 1e-3, rel 1e-4: onnxruntime factors float32 in float32,
//     onnxshape in float64.

func randMatMulPair(r *rand.Rand) (a, b []int) {
	m, k, n := 1+r.IntN(5), 1+r.IntN(8), 1+r.IntN(5)
	batch := randShape(r, r.IntN(3), 1, 3)
	a = append(append([]int{}, batch...), m, k)
	b = append(append([]int{}, batch...), k, n)
	for i := range batch {
		switch r.IntN(4) {
		case 0:
			a[i] = 1
		case 1:
			b[i] = 1
		}
	}
	if len(batch) > 0 && r.IntN(3) == 0 {
		b = b[1:]
	}
	switch r.IntN(8) {
	case 0:
		a = []int{k}
	case 1:
		b = []int{k}
	}
	return a, b
}

func TestORTMatMul(t *testing.T) {
	family(t, 24, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
		dt := pick(r, tensor.Float, tensor.Double, tensor.Int32, tensor.Int64, tensor.Float16)
		a, b := randMatMulPair(r)
		c := &diffCase{name: fmt.Sprintf("MatMul %v %v x %v", dt, a, b), opset: 13,
			inputs: inputsOf(randTensor(r, dt, a), randTensor(r, dt, b)), build: node("MatMul")}
		c.abs, c.rel = 1e-4, 1e-5
		halfTolerance(c, dt)
		return c
	})
}

func TestORTGemm(t *testing.T) {
	family(t, 25, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
		dt := pick(r, tensor.Float, tensor.Double)
		m, k, n := 1+r.IntN(6), 1+r.IntN(8), 1+r.IntN(6)
		ta, tb := r.IntN(2), r.IntN(2)
		as, bs := []int{m, k}, []int{k, n}
		if ta == 1 {
			as = []int{k, m}
		}
		if tb == 1 {
			bs = []int{n, k}
		}
		alpha := pick(r, float32(1), 0.5, -2)
		beta := pick(r, float32(1), 0.25, 0)
		ins := []*tensor.Tensor{randTensor(r, dt, as), randTensor(r, dt, bs)}
		cs := pick(r, []int{m, n}, []int{n}, []int{1}, []int{m, 1}, []int{1, n}, nil)
		if cs != nil {
			ins = append(ins, randTensor(r, dt, cs))
		}
		c := &diffCase{name: fmt.Sprintf("Gemm %v A%v B%v C%v transA=%d transB=%d alpha=%v beta=%v", dt, as, bs, cs, ta, tb, alpha, beta),
			opset: 13, inputs: inputsOf(ins...),
			build: node("Gemm", builder.Int("transA", ta), builder.Int("transB", tb), builder.Float("alpha", alpha), builder.Float("beta", beta))}
		c.abs, c.rel = 1e-4, 1e-5
		return c
	})
}

func TestORTEinsum(t *testing.T) {
	type eq struct {
		eq    string
		terms []string
	}
	eqs := []eq{
		{"ij,jk->ik", []string{"ij", "jk"}}, {"ij,jk", []string{"ij", "jk"}}, {"bij,bjk->bik", []string{"bij", "bjk"}},
		{"ij->ji", []string{"ij"}}, {"ii->i", []string{"ii"}}, {"bii->bi", []string{"bii"}}, {"ij->", []string{"ij"}},
		{"i,i", []string{"i", "i"}}, {"i,j->ij", []string{"i", "j"}}, {"...ij,...jk->...ik", []string{"aij", "ajk"}},
		{"ij,jk,kl->il", []string{"ij", "jk", "kl"}}, {"abc,cd,ae->bde", []string{"abc", "cd", "ae"}},
		{"bhqd,bhkd->bhqk", []string{"bhqd", "bhkd"}}, {"iij,jk->ik", []string{"iij", "jk"}}, {"ij->i", []string{"ij"}},
	}
	family(t, 26, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
		e := eqs[i%len(eqs)]
		dt := pick(r, tensor.Float, tensor.Double, tensor.Int32, tensor.Int64)
		size := map[byte]int{}
		var ins []*tensor.Tensor
		for _, term := range e.terms {
			shape := make([]int, len(term))
			for j := range len(term) {
				if _, ok := size[term[j]]; !ok {
					size[term[j]] = 1 + r.IntN(4)
				}
				shape[j] = size[term[j]]
			}
			ins = append(ins, randTensor(r, dt, shape))
		}
		c := &diffCase{name: fmt.Sprintf("Einsum %q %v", e.eq, dt), opset: 12, inputs: inputsOf(ins...),
			build: node("Einsum", builder.String("equation", e.eq))}
		c.abs, c.rel = 1e-3, 1e-5
		return c
	})
}

func TestORTQuantizedProducts(t *testing.T) {
	family(t, 27, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
		ta, tb := pick(r, tensor.Uint8, tensor.Int8), pick(r, tensor.Uint8, tensor.Int8)
		a, b := randMatMulPair(r)
		for len(a) < 2 || len(b) < 2 {
			a, b = randMatMulPair(r)
		}
		lo := func(dt tensor.DataType) int {
			if dt == tensor.Int8 {
				return -128
			}
			return 0
		}
		x, y := randIntsIn(r, ta, a, lo(ta), lo(ta)+255), randIntsIn(r, tb, b, lo(tb), lo(tb)+255)
		az, bz := randIntsIn(r, ta, []int{1}, lo(ta), lo(ta)+255), randIntsIn(r, tb, []int{1}, lo(tb), lo(tb)+255)
		if i%2 == 0 {
			if r.IntN(2) == 0 {
				// Per column; onnxruntime takes a 1-D b_zero_point only for
				// a 2-D B.
				b = b[len(b)-2:]
				y = randIntsIn(r, tb, b, lo(tb), lo(tb)+255)
				bz = randIntsIn(r, tb, []int{b[1]}, lo(tb), lo(tb)+255)
			}
			c := &diffCase{name: fmt.Sprintf("MatMulInteger %v%v x %v%v zero points %v %v", ta, a, tb, b, az.Shape(), bz.Shape()),
				opset: 10, inputs: inputsOf(x, y, az, bz), build: node("MatMulInteger")}
			return c
		}
		opset := pick(r, 10, 21)
		tyz := pick(r, tensor.Uint8, tensor.Int8)
		sc := func(v float64) *tensor.Tensor { return tensor.MustFromSlice([]float32{float32(v)}, 1) }
		c := &diffCase{name: fmt.Sprintf("QLinearMatMul-%d %v%v x %v%v", opset, ta, a, tb, b), opset: opset,
			inputs: inputsOf(x, sc(0.001+r.Float64()/50), az, y, sc(0.001+r.Float64()/50), bz, sc(0.01+r.Float64()), randIntsIn(r, tyz, []int{1}, lo(tyz), lo(tyz)+255)),
			build:  node("QLinearMatMul")}
		c.abs = 1
		return c
	})
}

func TestORTDet(t *testing.T) {
	family(t, 28, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
		dt := pick(r, tensor.Float, tensor.Double)
		m := 1 + r.IntN(5)
		shape := append(randShape(r, r.IntN(3), 1, 3), m, m)
		c := &diffCase{name: fmt.Sprintf("Det %v %v", dt, shape), opset: 11, inputs: inputsOf(randTensor(r, dt, shape)), build: node("Det")}
		c.abs, c.rel = 1e-3, 1e-4
		return c
	})
}
