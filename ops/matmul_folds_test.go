package ops

import (
	"math"
	"math/rand"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/tensor"
)

// A MatMul with Transposes folded before its inputs and after its output,
// in a run that fuses, gives the bits of the Transposes and the MatMul run
// one by one: every type, operands of other ranks (the batch broadcast, a
// 1-D operand), permutations read in place and ones that are not (the
// Transpose's own kernel then runs), at 1 and 2 threads; a permutation
// that does not fit the value is the Transpose's error. A NaN's payload
// may differ: the random float16 operands hold NaNs, and which of two NaN
// operands a sum passes on depends on the order of the operands of an
// addition, which the Go kernels (the purego build) do not keep between
// the strided and the stacked products.
func TestFoldedTransposesAgree(t *testing.T) {
	r := rand.New(rand.NewSource(88))
	perm := func(p ...int) map[string]Attribute {
		return map[string]Attribute{"perm": {Type: AttrInts, Ints: toInt64s(p)}}
	}
	tr := func(p []int) *Node {
		n := &Node{OpType: "Transpose", Version: 21, NumOutputs: 1}
		if p != nil {
			n.Attrs = perm(p...)
		}
		return n
	}
	type c struct {
		a, b         []int // the values before the input folds
		pa, pb, pout [][]int
	}
	cases := []c{
		{a: []int{2, 7, 3, 5}, b: []int{2, 7, 3, 5}, pa: [][]int{{0, 2, 1, 3}}, pb: [][]int{{0, 2, 1, 3}, {0, 1, 3, 2}}, pout: [][]int{{0, 2, 1, 3}}},
		{a: []int{1, 9, 4, 6}, b: []int{1, 9, 4, 6}, pa: [][]int{{0, 2, 1, 3}}, pb: [][]int{{0, 2, 3, 1}}},
		{a: []int{2, 4, 9, 9}, b: []int{2, 9, 4, 6}, pb: [][]int{{0, 2, 1, 3}}, pout: [][]int{{0, 2, 1, 3}}},
		{a: []int{5, 3, 4}, b: []int{4, 6}, pa: [][]int{{1, 0, 2}}}, // B broadcasts
		{a: []int{3, 5, 4}, b: []int{2, 1, 4, 6}, pa: [][]int{{1, 0, 2}}, pout: [][]int{{1, 0, 2, 3}, {0, 2, 1, 3}}},
		{a: []int{4}, b: []int{2, 4, 3}, pout: [][]int{nil}},                                     // a 1-D A, the product reversed by its kernel
		{a: []int{2, 3, 4}, b: []int{2, 3, 5}, pa: [][]int{{0, 2, 1}}, pout: [][]int{{2, 0, 1}}}, // neither in place
	}
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.Int32, tensor.Uint64} {
		for i, tc := range cases {
			a, b := randTensorOf(r, dt, tc.a...), randTensorOf(r, dt, tc.b...)
			// The nodes one by one.
			want := func(x *tensor.Tensor, ps [][]int) *tensor.Tensor {
				for _, p := range ps {
					var err error
					if x, err = runNode(nil, "Transpose", 21, tr(p).Attrs, x); err != nil {
						t.Fatal(err)
					}
				}
				return x
			}
			y, err := runNode(nil, "MatMul", 13, nil, want(a, tc.pa), want(b, tc.pb))
			checkRule(t, err, "")
			y = want(y, tc.pout)
			nodes := func(ps [][]int) []*Node {
				var ns []*Node
				for _, p := range ps {
					ns = append(ns, tr(p))
				}
				return ns
			}
			mm := &Node{OpType: "MatMul", Version: 13, NumOutputs: 1}
			if !FoldTransposes(mm, [2][]*Node{nodes(tc.pa), nodes(tc.pb)}, nodes(tc.pout)) {
				t.Fatalf("case %d: nothing folded", i)
			}
			// Transposes that would make an operand read transposed stay
			// nodes of their own: their outputs are the MatMul's inputs.
			if !mm.FoldsInput(0) {
				a = want(a, tc.pa)
			}
			if !mm.FoldsInput(1) {
				b = want(b, tc.pb)
			}
			for _, threads := range []int{1, 2} {
				opt := &Options{Threads: threads, env: runenv.Env{Fuse: true}}
				out, err := matMulNode(opt, mm, []tensor.Value{a, b})
				checkRule(t, err, "")
				got := out[0].(*tensor.Tensor)
				if !sameBitsButNaNPayloads(got, y) {
					t.Fatalf("%v case %d, %d threads: folded %v, one by one %v", dt, i, threads, got.Shape(), y.Shape())
				}
			}
		}
	}
	mm := &Node{OpType: "MatMul", Version: 13, NumOutputs: 1}
	FoldTransposes(mm, [2][]*Node{{tr([]int{1, 0, 2})}}, nil)
	_, err := matMulNode(&Options{env: runenv.Env{Fuse: true}}, mm, []tensor.Value{randTensorOf(r, tensor.Float, 3, 4), randTensorOf(r, tensor.Float, 4, 2)})
	checkRule(t, err, "perm")
	t.Log(err)
}

// sameBitsButNaNPayloads reports whether a and b are of one type and shape
// and hold the same bits, where a NaN equals any NaN.
func sameBitsButNaNPayloads(a, b *tensor.Tensor) bool {
	if a.Equal(b) {
		return true
	}
	if a.DataType() != b.DataType() || !tensor.SameShape(a.Shape(), b.Shape()) || !a.DataType().IsFloat() {
		return false
	}
	x, err1 := a.Float64s()
	y, err2 := b.Float64s()
	if err1 != nil || err2 != nil {
		return false
	}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) && !(math.IsNaN(x[i]) && math.IsNaN(y[i])) {
			return false
		}
	}
	return true
}
