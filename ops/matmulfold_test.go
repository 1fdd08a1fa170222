package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// An A with batch axes of its own by a B without any runs as one product
// of all of A's rows (matmulShape.stacked): each output matrix is that
// of its A matrix by B alone, within the engine's float bound; an A that
// broadcasts against B's batch is not folded.
func TestMatMulFoldedBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 25))
	rnd := func(shape ...int) *tensor.Tensor {
		x := tensor.MustNew(tensor.Float, shape...)
		v, _ := tensor.Data[float32](x)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return x
	}
	for _, c := range []struct{ a, b []int }{
		{[]int{3, 5, 7}, []int{7, 4}},
		{[]int{2, 3, 33, 70}, []int{70, 17}},
		{[]int{2, 3, 33, 70}, []int{1, 70, 17}},
		{[]int{4, 9, 6}, []int{6}},
	} {
		a, b := rnd(c.a...), rnd(c.b...)
		s, err := matmulShapes(opRef{"MatMul", 13}, c.a, c.b)
		if err != nil {
			t.Fatal(err)
		}
		if !s.stacked() {
			t.Fatalf("%v x %v: not folded", c.a, c.b)
		}
		y, err := MatMul(a, b, WithThreads(2))
		if err != nil {
			t.Fatal(err)
		}
		av, bv, yv := mustData[float32](t, a), mustData[float32](t, b), mustData[float32](t, y)
		for i := range s.count {
			for row := range s.m {
				for col := range s.n {
					var want float64
					for j := range s.k {
						want += float64(av[(i*s.m+row)*s.k+j]) * float64(bv[j*s.n+col])
					}
					got := float64(yv[(i*s.m+row)*s.n+col])
					if math.Abs(got-want) > 1e-4*(1+math.Abs(want)) {
						t.Fatalf("%v x %v: [%d,%d,%d] is %v, want %v", c.a, c.b, i, row, col, got, want)
					}
				}
			}
		}
	}
	s, err := matmulShapes(opRef{"MatMul", 13}, []int{1, 5, 7}, []int{3, 7, 4})
	if err != nil {
		t.Fatal(err)
	}
	if s.stacked() {
		t.Fatal("an A broadcast against B's batch was folded")
	}
	s, _ = matmulShapes(opRef{"MatMul", 13}, []int{3, 5, 7}, []int{3, 7, 4})
	if s.stacked() {
		t.Fatal("a batched B was folded")
	}
}
