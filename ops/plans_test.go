package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The copy engine's longInnerLoop only reorders the walk: the plans it changes copy exactly
// what the oracle says, for shapes mixing short and long axes.
func TestLongInnerLoop(t *testing.T) {
	p := permutePlan([]int{8, 3, 20, 20}, []int{0, 2, 3, 1}).longInnerLoop() // NCHW to NHWC, 3 channels
	if last := len(p.shape) - 1; p.shape[last] != 20 || p.srcStrides[last] != 1 || p.dstStrides[last] != 3 {
		t.Fatalf("the source-contiguous W axis should be innermost: %+v", p)
	}
	q := permutePlan([]int{8, 20, 20, 16}, []int{0, 3, 1, 2}).longInnerLoop() // NHWC to NCHW: already long inside
	if last := len(q.shape) - 1; q.shape[last] != 20 || q.dstStrides[last] != 1 {
		t.Fatalf("a long destination-contiguous axis stays innermost: %+v", q)
	}

	rng := rand.New(rand.NewPCG(19, 20))
	reordered := 0
	for range 200 {
		in := randomShape(rng, 2+rng.IntN(4), 1, 3)
		for range 1 + rng.IntN(2) {
			in[rng.IntN(len(in))] = 8 + rng.IntN(12)
		}
		perm := rng.Perm(len(in))
		dt := typesUnderTest[rng.IntN(len(typesUnderTest))]
		x := randomValidTensor(rng, dt, in)
		p := permutePlan(in, perm).longInnerLoop()
		if !tensor.SameShape(p.dstStrides, contiguousStrides(p.shape)) {
			reordered++
		}
		y := tensor.MustNew(dt, permuted(in, perm)...)
		p.run(&Options{Threads: 1}, y, x)
		if !y.Equal(transposeOracle(x, perm)) {
			t.Fatalf("%v %v perm %v: plan %+v differs from the oracle", dt, in, perm, p)
		}
	}
	if reordered == 0 {
		t.Fatal("no random plan was reordered: the test does not test longInnerLoop")
	}
}
