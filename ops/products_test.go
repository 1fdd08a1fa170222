package ops

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/tensor"
)

// The matrix products: the spec's examples with exact values, the
// shapes numpy matmul gives, and each rule's refusal. The random agreement
// of the fast kernels with the reference ones is in package reference
// (TestEnginesAgreeOnRandomValidNodes), within the bound reference.Agree
// states for float sums of products.

func mustData[T tensor.Element](t *testing.T, x *tensor.Tensor) []T {
	t.Helper()
	v, err := tensor.Data[T](x)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func equalSlices[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestMatMulValuesAndShapes(t *testing.T) {
	y, err := MatMul(tensor.MustFromSlice([]float32{1, 2, 3, 4}, 2, 2), tensor.MustFromSlice([]float32{5, 6, 7, 8}, 2, 2))
	checkRule(t, err, "")
	if v := mustData[float32](t, y); !equalSlices(v, []float32{19, 22, 43, 50}) {
		t.Fatalf("2-D product %v", v)
	}
	shapes := []struct{ a, b, out []int }{
		{[]int{3}, []int{3}, []int{}},
		{[]int{3}, []int{2, 3, 4}, []int{2, 4}},
		{[]int{2, 3, 4}, []int{4}, []int{2, 3}},
		{[]int{2, 1, 3, 4}, []int{5, 4, 2}, []int{2, 5, 3, 2}},
		{[]int{1, 3, 0}, []int{0, 2}, []int{1, 3, 2}},
		{[]int{0, 3, 4}, []int{4, 2}, []int{0, 3, 2}},
	}
	for _, c := range shapes {
		a, b := tensor.MustNew(tensor.Double, c.a...), tensor.MustNew(tensor.Double, c.b...)
		for i := range mustData[float64](t, a) {
			mustData[float64](t, a)[i] = 1
		}
		for i := range mustData[float64](t, b) {
			mustData[float64](t, b)[i] = 2
		}
		y, err := MatMul(a, b)
		checkRule(t, err, "")
		if !tensor.SameShape(y.Shape(), c.out) {
			t.Fatalf("%v x %v gave %v, want %v", c.a, c.b, y.Shape(), c.out)
		}
		k := c.a[len(c.a)-1]
		for _, v := range mustData[float64](t, y) {
			if v != float64(2*k) {
				t.Fatalf("%v x %v: element %v, want %d", c.a, c.b, v, 2*k)
			}
		}
	}
	// Integers wrap; float16 is computed in float32 and rounded once.
	y, err = runNode(nil, "MatMul", 13, nil, tensor.MustFromSlice([]int32{math.MaxInt32, 1}, 1, 2), tensor.MustFromSlice([]int32{1, 1}, 2, 1))
	checkRule(t, err, "")
	if v := mustData[int32](t, y); v[0] != math.MinInt32 {
		t.Fatalf("int32 product %v, want wrapped %d", v, math.MinInt32)
	}
	h := func(v ...float32) *tensor.Tensor {
		out := make([]float16.Float16, len(v))
		for i, x := range v {
			out[i] = float16.Fromfloat32(x)
		}
		return tensor.MustFromSlice(out, len(v))
	}
	y, err = runNode(nil, "MatMul", 13, nil, h(1, 2048, 1), h(1, 1, 1))
	checkRule(t, err, "")
	if v := mustData[float16.Float16](t, y)[0].Float32(); v != 2050 {
		t.Fatalf("float16 inner product %v, want 2050 (summed in float32)", v)
	}
}

func TestMatMulRefusals(t *testing.T) {
	f := func(s ...int) *tensor.Tensor { return tensor.MustNew(tensor.Float, s...) }
	_, err := MatMul(f(2, 3), f(4, 2))
	checkRule(t, err, "shape")
	_, err = MatMul(f(2, 2, 3), f(3, 3, 2))
	checkRule(t, err, "broadcast")
	_, err = MatMul(f(), f(3))
	checkRule(t, err, "rank")
	_, err = MatMul(f(2, 2), tensor.MustNew(tensor.Double, 2, 2))
	checkRule(t, err, "type")
	_, err = runNode(nil, "MatMul", 1, nil, tensor.MustNew(tensor.Int32, 2, 2), tensor.MustNew(tensor.Int32, 2, 2))
	checkRule(t, err, "type") // the integers join in version 9
	_, err = runNode(nil, "MatMul", 9, nil, tensor.MustNew(tensor.BFloat16, 2, 2), tensor.MustNew(tensor.BFloat16, 2, 2))
	checkRule(t, err, "type") // bfloat16 joins in version 13
	// Bounded: the output over the cap, float16 scratch over the budget.
	_, err = MatMul(f(64, 2), f(2, 64), WithMaxTensorBytes(1024))
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("over the cap: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = MatMul(f(2, 2), f(2, 2), WithContext(ctx))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestGemmSpecExamples(t *testing.T) {
	a := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	b := tensor.MustFromSlice([]float32{1, 0, 0, 1, 1, 1}, 3, 2)
	// A·B = [[4, 5], [10, 11]].
	cases := []struct {
		name string
		c    *tensor.Tensor
		o    GemmOptions
		want []float32
	}{
		{"no C", nil, GemmOptions{Alpha: 1, Beta: 1}, []float32{4, 5, 10, 11}},
		{"scalar C", tensor.MustFromSlice([]float32{3}), GemmOptions{Alpha: 1, Beta: 1}, []float32{7, 8, 13, 14}},
		{"row C", tensor.MustFromSlice([]float32{1, 2}, 2), GemmOptions{Alpha: 1, Beta: 1}, []float32{5, 7, 11, 13}},
		{"column C", tensor.MustFromSlice([]float32{1, 2}, 2, 1), GemmOptions{Alpha: 1, Beta: 1}, []float32{5, 6, 12, 13}},
		{"alpha and beta", tensor.MustFromSlice([]float32{1, 1, 1, 1}, 2, 2), GemmOptions{Alpha: 0.5, Beta: -2}, []float32{0, 0.5, 3, 3.5}},
		{"beta 0 leaves a NaN C unread", tensor.MustFromSlice([]float32{float32(math.NaN())}), GemmOptions{Alpha: 1}, []float32{4, 5, 10, 11}},
	}
	for _, c := range cases {
		y, err := Gemm(a, b, c.c, c.o)
		checkRule(t, err, "")
		if v := mustData[float32](t, y); !equalSlices(v, c.want) {
			t.Fatalf("%s: %v, want %v", c.name, v, c.want)
		}
	}
	// transA and transB: (Aᵀ)ᵀ·(Bᵀ)ᵀ is A·B.
	at := tensor.MustFromSlice([]float32{1, 4, 2, 5, 3, 6}, 3, 2)
	bt := tensor.MustFromSlice([]float32{1, 0, 1, 0, 1, 1}, 2, 3)
	y, err := runNode(nil, "Gemm", 13, map[string]Attribute{"transA": {Type: AttrInt, Int: 1}, "transB": {Type: AttrInt, Int: 1}}, at, bt)
	checkRule(t, err, "")
	if v := mustData[float32](t, y); !equalSlices(v, []float32{4, 5, 10, 11}) {
		t.Fatalf("transposed: %v", v)
	}
	// Integers: exact with alpha 1, else through float64 and truncated.
	ia, ib := tensor.MustFromSlice([]int64{1, 2, 3, 4}, 2, 2), tensor.MustFromSlice([]int64{1, 0, 0, 1}, 2, 2)
	y, err = runNode(nil, "Gemm", 13, map[string]Attribute{"alpha": {Type: AttrFloat, Float: 0.5}}, ia, ib)
	checkRule(t, err, "")
	if v := mustData[int64](t, y); !equalSlices(v, []int64{0, 1, 1, 2}) {
		t.Fatalf("int64 with alpha 0.5: %v", v)
	}
}

func TestGemmRefusals(t *testing.T) {
	f := func(s ...int) *tensor.Tensor { return tensor.MustNew(tensor.Float, s...) }
	_, err := Gemm(f(2, 3), f(2, 3), nil, GemmOptions{Alpha: 1})
	checkRule(t, err, "shape")
	_, err = Gemm(f(2, 3, 1), f(3, 2), nil, GemmOptions{Alpha: 1})
	checkRule(t, err, "rank")
	_, err = Gemm(f(2, 3), f(3, 2), f(3, 2), GemmOptions{Alpha: 1})
	checkRule(t, err, "C")
	// Versions 1 and 6 take C of shape (M, N) unless broadcast is 1.
	_, err = runNode(nil, "Gemm", 6, nil, f(2, 3), f(3, 2), f(2))
	checkRule(t, err, "C")
	_, err = runNode(nil, "Gemm", 6, map[string]Attribute{"broadcast": {Type: AttrInt, Int: 1}}, f(2, 3), f(3, 2), f(2))
	checkRule(t, err, "")
	_, err = runNode(nil, "Gemm", 9, nil, f(2, 3), f(3, 2))
	checkRule(t, err, "input") // C is required before version 11
}

func TestMatMulIntegerSpecExample(t *testing.T) {
	a := tensor.MustFromSlice([]uint8{11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0}, 4, 3)
	b := tensor.MustFromSlice([]uint8{1, 4, 2, 5, 3, 6}, 3, 2)
	y, err := runNode(nil, "MatMulInteger", 10, nil, a, b, tensor.MustFromSlice([]uint8{12}), tensor.MustFromSlice([]uint8{0}))
	checkRule(t, err, "")
	if v := mustData[int32](t, y); !equalSlices(v, []int32{-38, -83, -44, -98, -50, -113, -56, -128}) {
		t.Fatalf("MatMulInteger: %v", v)
	}
	// Per row of A, per column of B.
	y, err = runNode(nil, "MatMulInteger", 10, nil, a, b, tensor.MustFromSlice([]uint8{11, 10, 9, 8}, 4), tensor.MustFromSlice([]uint8{1, 4}, 2))
	checkRule(t, err, "")
	// Each row of A less its zero point is [0, -4, -8], each column of B
	// less its own [0, 1, 2].
	if v := mustData[int32](t, y); !equalSlices(v, []int32{-20, -20, -20, -20, -20, -20, -20, -20}) {
		t.Fatalf("per-row and per-column zero points: %v", v)
	}
	_, err = runNode(nil, "MatMulInteger", 10, nil, a, b, tensor.MustFromSlice([]uint8{1, 2}, 2))
	checkRule(t, err, "zero point")
	_, err = runNode(nil, "MatMulInteger", 10, nil, a, b, tensor.MustFromSlice([]int8{1}))
	checkRule(t, err, "type")
}

func TestQLinearMatMulSpecExample(t *testing.T) {
	a := tensor.MustFromSlice([]uint8{208, 236, 0, 238, 3, 214, 255, 29}, 2, 4)
	b := tensor.MustFromSlice([]uint8{152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247}, 4, 3)
	sc := func(v float32) *tensor.Tensor { return tensor.MustFromSlice([]float32{v}, 1) }
	zp := func(v uint8) *tensor.Tensor { return tensor.MustFromSlice([]uint8{v}, 1) }
	y, err := runNode(nil, "QLinearMatMul", 10, nil, a, sc(0.0066), zp(113), b, sc(0.00705), zp(114), sc(0.0107), zp(118))
	checkRule(t, err, "")
	if v := mustData[uint8](t, y); !equalSlices(v, []uint8{168, 115, 255, 1, 66, 151}) {
		t.Fatalf("QLinearMatMul: %v", v)
	}
	_, err = runNode(nil, "QLinearMatMul", 10, nil, a, tensor.MustFromSlice([]float32{1, 2}, 2), zp(113), b, sc(0.00705), zp(114), sc(0.0107), zp(118))
	checkRule(t, err, "scale")
	_, err = runNode(nil, "QLinearMatMul", 10, nil, a, tensor.MustFromSlice([]float16.Float16{0}, 1), zp(113), b, sc(0.00705), zp(114), sc(0.0107), zp(118))
	checkRule(t, err, "type") // float16 scales join in version 21
}

func TestEinsumSpecExamples(t *testing.T) {
	x := tensor.MustFromSlice([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 3, 3)
	v := tensor.MustFromSlice([]float64{1, 2, 3}, 3)
	cases := []struct {
		eq   string
		in   []*tensor.Tensor
		want []float64
		dims []int
	}{
		{"ij->ji", []*tensor.Tensor{x}, []float64{1, 4, 7, 2, 5, 8, 3, 6, 9}, []int{3, 3}},
		{"ii->i", []*tensor.Tensor{x}, []float64{1, 5, 9}, []int{3}},
		{"ii", []*tensor.Tensor{x}, []float64{15}, []int{}},
		{"ij->i", []*tensor.Tensor{x}, []float64{6, 15, 24}, []int{3}},
		{"i,i", []*tensor.Tensor{v, v}, []float64{14}, []int{}},
		{"i,j->ij", []*tensor.Tensor{v, v}, []float64{1, 2, 3, 2, 4, 6, 3, 6, 9}, []int{3, 3}},
		{"ij,j", []*tensor.Tensor{x, v}, []float64{14, 32, 50}, []int{3}},
		{"ji,j->i", []*tensor.Tensor{x, v}, []float64{30, 36, 42}, []int{3}},
		{"...j,j", []*tensor.Tensor{x, v}, []float64{14, 32, 50}, []int{3}},
		{"ij,jk,k", []*tensor.Tensor{x, x, v}, []float64{228, 516, 804}, []int{3}},
	}
	for _, c := range cases {
		y, err := Einsum(c.in, EinsumOptions{Equation: c.eq})
		checkRule(t, err, "")
		if got := mustData[float64](t, y); !equalSlices(got, c.want) || !tensor.SameShape(y.Shape(), c.dims) {
			t.Fatalf("%s: %v of shape %v, want %v of %v", c.eq, got, y.Shape(), c.want, c.dims)
		}
	}
	// A batched product is MatMul's.
	a, b := tensor.MustNew(tensor.Float, 2, 3, 4), tensor.MustNew(tensor.Float, 2, 4, 5)
	for i := range mustData[float32](t, a) {
		mustData[float32](t, a)[i] = float32(i%7) - 3
	}
	for i := range mustData[float32](t, b) {
		mustData[float32](t, b)[i] = float32(i%5) - 2
	}
	e, err := Einsum([]*tensor.Tensor{a, b}, EinsumOptions{Equation: "bij,bjk->bik"})
	checkRule(t, err, "")
	m, err := MatMul(a, b)
	checkRule(t, err, "")
	if !e.Equal(m) {
		t.Fatalf("Einsum %v, MatMul %v", e, m)
	}
	// The inputs are never written.
	before := x.Clone()
	if _, err := Einsum([]*tensor.Tensor{x, x}, EinsumOptions{Equation: "ij,jk->ki"}); err != nil || !x.Equal(before) {
		t.Fatalf("Einsum changed its input (or failed: %v)", err)
	}
}

func TestEinsumRefusals(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 2, 3)
	for _, c := range []struct{ eq, rule string }{
		{"ij->iz", "equation"},
		{"ij->ii", "equation"},
		{"i.j", "equation"},
		{"......ij", "equation"},
		{"ij,jk", "equation"},
		{"ijk", "rank"},
		{"ii", "shape"},
	} {
		_, err := Einsum([]*tensor.Tensor{x}, EinsumOptions{Equation: c.eq})
		checkRule(t, err, c.rule)
	}
}

func TestDetSpecExamples(t *testing.T) {
	y, err := Det(tensor.MustFromSlice([]float32{1, 2, 3, 4}, 2, 2))
	checkRule(t, err, "")
	if v := mustData[float32](t, y); !equalSlices(v, []float32{-2}) || y.Rank() != 0 {
		t.Fatalf("Det 2-D: %v of shape %v", v, y.Shape())
	}
	y, err = Det(tensor.MustFromSlice([]float64{1, 2, 3, 4, 1, 2, 2, 1, 1, 3, 3, 1}, 3, 2, 2))
	checkRule(t, err, "")
	if v := mustData[float64](t, y); !equalSlices(v, []float64{-2, -3, -8}) {
		t.Fatalf("Det N-D: %v", v)
	}
	_, err = Det(tensor.MustNew(tensor.Float, 2, 3))
	checkRule(t, err, "shape")
	_, err = Det(tensor.MustNew(tensor.Float, 3))
	checkRule(t, err, "rank")
	_, err = runNode(nil, "Det", 11, nil, tensor.MustNew(tensor.BFloat16, 2, 2))
	checkRule(t, err, "type")
}

func TestEinsumWithoutEquation(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2})
	_, err := Einsum([]*tensor.Tensor{x}, EinsumOptions{})
	if err == nil || !strings.Contains(err.Error(), "Einsum") {
		t.Fatalf("Einsum with no equation: %v, want a refusal naming Einsum", err)
	}
	t.Log(err)
}

// A batch of A over one matrix B runs as one product of the batch's rows
// stacked (matmulShape.stacked): the same bits as each batch's product on
// its own, at one and two threads, with B packed at load or not, and a
// batch whose A broadcasts or whose B has batch axes of 1 handled too.
func TestMatMulStackedSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct{ a, b []int }{
		{[]int{16, 25, 77}, []int{77, 45}},
		{[]int{2, 3, 13, 300}, []int{300, 33}},
		{[]int{4, 50, 64}, []int{1, 64, 70}},
		{[]int{1, 20, 30}, []int{3, 30, 40}}, // A broadcasts: not stacked
	} {
		a, b := tensor.MustNew(tensor.Float, c.a...), tensor.MustNew(tensor.Float, c.b...)
		for _, x := range []*tensor.Tensor{a, b} {
			v := mustData[float32](t, x)
			for i := range v {
				v[i] = float32(r.NormFloat64())
			}
		}
		m, k := c.a[len(c.a)-2], c.a[len(c.a)-1]
		n := c.b[len(c.b)-1]
		for _, threads := range []int{1, 2} {
			opt := &Options{Threads: threads}
			y, err := runNode(opt, "MatMul", 13, nil, a, b)
			checkRule(t, err, "")
			got := mustData[float32](t, y)
			for i := range len(got) / (m * n) {
				ai := i % (a.Len() / (m * k))
				bi := i % (b.Len() / (k * n))
				am := tensor.MustFromSlice(mustData[float32](t, a)[ai*m*k:(ai+1)*m*k], m, k)
				bm := tensor.MustFromSlice(mustData[float32](t, b)[bi*k*n:(bi+1)*k*n], k, n)
				yi, err := runNode(&Options{Threads: 1}, "MatMul", 13, nil, am, bm)
				checkRule(t, err, "")
				want := mustData[float32](t, yi)
				for j, w := range want {
					if g := got[i*m*n+j]; math.Float32bits(g) != math.Float32bits(w) {
						t.Fatalf("%v x %v, %d threads: product %d element %d is %v, alone %v", c.a, c.b, threads, i, j, g, w)
					}
				}
			}
		}
	}
}
