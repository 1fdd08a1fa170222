package reference_test

import (
	"math/rand/v2"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Random nodes of the matrix products for TestEnginesAgreeOnRandomValidNodes:
// shapes drawn the way models use them (batches that broadcast, 1-D
// operands, transposes, every C shape Gemm takes), now and then off the
// valid range; the float outputs are held to the bound reference.Agree
// states for sums of products, the integer ones bit for bit.

var productTypes = []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16,
	tensor.Int32, tensor.Int64, tensor.Uint32, tensor.Uint64}

func init() {
	generators["MatMul"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		dt := productTypes[r.IntN(len(productTypes))]
		a, b := randMatMulShapes(r)
		lo := -4.0
		if dt == tensor.Uint32 || dt == tensor.Uint64 {
			lo = 0
		}
		n := &ops.Node{OpType: "MatMul", Version: pickVersion(r, "MatMul")}
		return n, []tensor.Value{randTensor(r, dt, a, lo, 4, false), randTensor(r, dt, b, lo, 4, false)}
	}
	generators["Gemm"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		dt := productTypes[r.IntN(len(productTypes))]
		v := pickVersion(r, "Gemm")
		m, k, nn := 1+r.IntN(7), r.IntN(9), 1+r.IntN(7)
		n := &ops.Node{OpType: "Gemm", Version: v, Attrs: map[string]ops.Attribute{}}
		as, bs := []int{m, k}, []int{k, nn}
		if r.IntN(2) == 0 {
			n.Attrs["transA"] = attrInt(1)
			as = []int{k, m}
		}
		if r.IntN(2) == 0 {
			n.Attrs["transB"] = attrInt(1)
			bs = []int{nn, k}
		}
		if r.IntN(10) == 0 {
			bs[0]++ // [shape]
		}
		if r.IntN(2) == 0 {
			n.Attrs["alpha"] = ops.Attribute{Type: ops.AttrFloat, Float: []float32{1, -0.5, 2, 0}[r.IntN(4)]}
		}
		if r.IntN(2) == 0 {
			n.Attrs["beta"] = ops.Attribute{Type: ops.AttrFloat, Float: []float32{1, 0.25, -3, 0}[r.IntN(4)]}
		}
		lo := -4.0
		if dt == tensor.Uint32 || dt == tensor.Uint64 {
			lo = 0
		}
		in := []tensor.Value{randTensor(r, dt, as, lo, 4, false), randTensor(r, dt, bs, lo, 4, false)}
		var cs []int
		switch r.IntN(6) {
		case 0:
			cs = []int{m, nn}
		case 1:
			cs = []int{nn}
		case 2:
			cs = []int{}
		case 3:
			cs = []int{m, 1}
		case 4:
			cs = []int{1, nn}
		default:
			if v >= 11 {
				return n, in
			}
			cs = []int{m + 1, nn} // [C]
		}
		if v < 7 && r.IntN(2) == 0 {
			n.Attrs["broadcast"] = attrInt(1)
		}
		return n, append(in, randTensor(r, dt, cs, lo, 4, false))
	}
}

// randMatMulShapes returns shapes of A and B for numpy matmul: matrices,
// batches that broadcast, 1-D operands, now and then ones that do not fit.
func randMatMulShapes(r *rand.Rand) (a, b []int) {
	m, k, n := 1+r.IntN(6), r.IntN(8), 1+r.IntN(6)
	batch := randShape(r, r.IntN(3), 3)
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
		b = b[1:] // B of lower rank
	}
	switch r.IntN(8) {
	case 0:
		a = []int{k}
	case 1:
		b = []int{k}
	case 2:
		a[len(a)-1]++ // [shape]
	}
	return a, b
}

// randZeroShape returns the shape of a per-tensor, per-row (of A) or
// per-column (of B) parameter for an operand of shape x, now and then one
// that fits neither.
func randZeroShape(r *rand.Rand, x []int, perRow bool) []int {
	switch r.IntN(5) {
	case 0:
		return []int{}
	case 1:
		return []int{1}
	case 2:
		if len(x) >= 2 {
			if perRow {
				return []int{x[len(x)-2]}
			}
			return []int{x[len(x)-1]}
		}
	case 3:
		if len(x) >= 2 {
			s := append([]int{}, x...)
			if perRow {
				s[len(s)-1] = 1
			} else {
				s[len(s)-2] = 1
			}
			return s
		}
	}
	if r.IntN(3) == 0 {
		return []int{7} // [zero point], mostly
	}
	return []int{}
}

func init() {
	eight := []tensor.DataType{tensor.Int8, tensor.Uint8}
	generators["MatMulInteger"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		ta, tb := eight[r.IntN(2)], eight[r.IntN(2)]
		a, b := randMatMulShapes(r)
		in := []tensor.Value{randTensor(r, ta, a, -128, 255, false), randTensor(r, tb, b, -128, 255, false)}
		if r.IntN(4) > 0 {
			in = append(in, randTensor(r, ta, randZeroShape(r, a, true), -128, 255, false))
			if r.IntN(3) > 0 {
				in = append(in, randTensor(r, tb, randZeroShape(r, b, false), -128, 255, false))
			}
		}
		return &ops.Node{OpType: "MatMulInteger", Version: 10}, in
	}
	generators["QLinearMatMul"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		v := pickVersion(r, "QLinearMatMul")
		st := tensor.Float
		if v >= 21 {
			st = []tensor.DataType{tensor.Float, tensor.Float16, tensor.BFloat16}[r.IntN(3)]
		}
		ta, tb, ty := eight[r.IntN(2)], eight[r.IntN(2)], eight[r.IntN(2)]
		a, b := randMatMulShapes(r)
		az, bz := randZeroShape(r, a, true), randZeroShape(r, b, false)
		return &ops.Node{OpType: "QLinearMatMul", Version: v}, []tensor.Value{
			randTensor(r, ta, a, -128, 255, false), randTensor(r, st, az, 0.001, 0.1, false), randTensor(r, ta, az, -128, 255, false),
			randTensor(r, tb, b, -128, 255, false), randTensor(r, st, bz, 0.001, 0.1, false), randTensor(r, tb, bz, -128, 255, false),
			randTensor(r, st, []int{}, 0.01, 1, false), randTensor(r, ty, []int{}, -128, 255, false),
		}
	}
}

func init() {
	generators["Det"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}[r.IntN(4)]
		m := []int{0, 1, 2, 3, 4, 5, 8}[r.IntN(7)] // 8: the fast engine's vector kernel
		s := append(randShape(r, r.IntN(3), 3), m, m)
		if r.IntN(10) == 0 {
			s[len(s)-1]++ // [shape]
		}
		return &ops.Node{OpType: "Det", Version: pickVersion(r, "Det")}, []tensor.Value{randTensor(r, dt, s, -3, 3, r.IntN(8) == 0)}
	}
}

// einsumCases are equations with the shapes of their inputs (letters'
// sizes are drawn per case): products, diagonals, sums, broadcasts,
// implicit outputs, and a few that break a rule.
var einsumCases = []struct {
	eq    string
	terms []string // each input's axes, as letters; '.' an ellipsis axis
}{
	{"ij,jk->ik", []string{"ij", "jk"}},
	{"ij,jk", []string{"ij", "jk"}},
	{"bij,bjk->bik", []string{"bij", "bjk"}},
	{"ij->ji", []string{"ij"}},
	{"ii->i", []string{"ii"}},
	{"ii", []string{"ii"}},
	{"bii->bi", []string{"bii"}},
	{"ij->", []string{"ij"}},
	{"i,i", []string{"i", "i"}},
	{"i,j->ij", []string{"i", "j"}},
	{"...ij,...jk->...ik", []string{".ij", "..jk"}},
	{"...ii->...i", []string{"..ii"}},
	{"...i->i", []string{"..i"}},
	{"ij,jk,kl->il", []string{"ij", "jk", "kl"}},
	{"abc,cd,ae->bde", []string{"abc", "cd", "ae"}},
	{"bhqd,bhkd->bhqk", []string{"bhqd", "bhkd"}},
	{"iij,jk->ik", []string{"iij", "jk"}},
	{"Ab,bC->AC", []string{"Ab", "bC"}},
	{"ij,jk->ik", []string{"ij", "kk"}}, // [shape] most of the time
	{"ij,jk->iz", []string{"ij", "jk"}}, // [equation]
	{"ij,jk", []string{"ij"}},           // [equation]: one input short
	{"ijk->ij", []string{"ij"}},         // [rank]
}

func init() {
	generators["Einsum"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		c := einsumCases[r.IntN(len(einsumCases))]
		size := map[byte]int{}
		for _, t := range c.terms {
			for i := range len(t) {
				if _, ok := size[t[i]]; !ok {
					size[t[i]] = 1 + r.IntN(4)
				}
			}
		}
		dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.Int32, tensor.Int64,
			tensor.Uint8, tensor.Int8, tensor.Uint16, tensor.Int16, tensor.Uint64}[r.IntN(10)]
		var in []tensor.Value
		for _, t := range c.terms {
			shape := make([]int, len(t))
			for i := range len(t) {
				shape[i] = size[t[i]]
				if t[i] == '.' && r.IntN(3) == 0 {
					shape[i] = 1 // broadcast
				}
			}
			in = append(in, randTensor(r, dt, shape, 0, 5, false))
		}
		return &ops.Node{OpType: "Einsum", Version: 12, Attrs: map[string]ops.Attribute{"equation": attrStr(c.eq)}}, in
	}
}
