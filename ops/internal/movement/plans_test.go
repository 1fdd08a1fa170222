package movement

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The copy engine's longInnerLoop only reorders the walk: the plans it changes copy exactly
// what the transpose's definition says, for shapes mixing short and long axes.
func TestLongInnerLoop(t *testing.T) {
	p := PermutePlan([]int{8, 3, 20, 20}, []int{0, 2, 3, 1}).longInnerLoop() // NCHW to NHWC, 3 channels
	if last := len(p.Shape) - 1; p.Shape[last] != 20 || p.SrcStrides[last] != 1 || p.DstStrides[last] != 3 {
		t.Fatalf("the source-contiguous W axis should be innermost: %+v", p)
	}
	q := PermutePlan([]int{8, 20, 20, 16}, []int{0, 3, 1, 2}).longInnerLoop() // NHWC to NCHW: already long inside
	if last := len(q.Shape) - 1; q.Shape[last] != 20 || q.DstStrides[last] != 1 {
		t.Fatalf("a long destination-contiguous axis stays innermost: %+v", q)
	}

	rng := rand.New(rand.NewPCG(19, 20))
	reordered := 0
	for range 200 {
		in := make([]int, 2+rng.IntN(4))
		for i := range in {
			in[i] = 1 + rng.IntN(3)
		}
		for range 1 + rng.IntN(2) {
			in[rng.IntN(len(in))] = 8 + rng.IntN(12)
		}
		perm := rng.Perm(len(in))
		dt := planTypes[rng.IntN(len(planTypes))]
		x := randomTensor(rng, dt, in)
		p := PermutePlan(in, perm).longInnerLoop()
		if !tensor.SameShape(p.DstStrides, ContiguousStrides(p.Shape)) {
			reordered++
		}
		y := tensor.MustNew(dt, Permuted(in, perm)...)
		p.Run(Env{Threads: 1}, y, x)
		if !y.Equal(planDefinition(PermutePlan(in, perm), x, Permuted(in, perm)...)) {
			t.Fatalf("%v %v perm %v: plan %+v differs from the transpose's definition", dt, in, perm, p)
		}
	}
	if reordered == 0 {
		t.Fatal("no random plan was reordered: the test does not test longInnerLoop")
	}
}

// planTypes are the element types of TestLongInnerLoop: one of each
// storage size, and strings.
var planTypes = []tensor.DataType{tensor.Uint8, tensor.Float16, tensor.Float, tensor.Double, tensor.Complex128, tensor.String}
