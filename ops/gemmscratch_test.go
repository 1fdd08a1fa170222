package ops

import (
	"math/rand"
	"sync"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/tensor"
)

// The packing scratch of a node's many products is charged once (the most
// its products hold at once), not at every product: a MatMul over a batch
// of 200 matrices charges what a batch of one charges beyond its output.
func TestMatMulBatchScratchChargedOnce(t *testing.T) {
	for _, c := range []struct {
		name    string
		m, k, n int
	}{
		{"large products, one after the other", 64, 256, 200},
		{"small products shared among the cores", 50, 64, 200},
	} {
		scratch := func(batch int) int64 {
			a, b := seqTensor(batch, c.m, c.k), seqTensor(c.k, c.n)
			// Two cores, whatever the machine's: each worker charges its
			// own slot, so the bound below is per worker.
			opt, used := countingOptions(2)
			if _, err := runKernel(opt, "MatMul", 13, 1, nil, a, b); err != nil {
				t.Fatal(err)
			}
			return used() - int64(batch*c.m*c.n*4)
		}
		one, many := scratch(1), scratch(200)
		t.Logf("%s: scratch of 1 product %d bytes, of 200: %d", c.name, one, many)
		if many > 2*max(one, 64<<10) {
			t.Errorf("%s: 200 products charged %d bytes of scratch, one %d", c.name, many, one)
		}
	}
}

// The scratch a node charges does not depend on how its workers happen to
// overlap: every product of one worker takes its worker's slot of the
// account, so two runs of the same node on the same cores charge the same
// bytes. (A shared high-water mark charged one worker's scratch when the
// first worker finished before the second started, two when they
// overlapped: a ConvInteger's charge moved between runs.)
func TestChargesDoNotDependOnScheduling(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	ints := func(v ...int64) Attribute { return Attribute{Type: AttrInts, Ints: v} }
	cases := []struct {
		name  string
		op    string
		ver   int
		attrs map[string]Attribute
		in    []tensor.Value
	}{
		{"ConvInteger 3x3 two images", "ConvInteger", 10, nil,
			[]tensor.Value{randTensorOf(r, tensor.Uint8, 2, 8, 20, 20), randTensorOf(r, tensor.Int8, 16, 8, 3, 3)}},
		{"Conv 3x3 two images", "Conv", 11, map[string]Attribute{"pads": ints(1, 1, 1, 1)},
			[]tensor.Value{randTensorOf(r, tensor.Float, 2, 16, 24, 24), randTensorOf(r, tensor.Float, 32, 16, 3, 3)}},
		{"Conv 1x1 four images", "Conv", 11, nil,
			[]tensor.Value{randTensorOf(r, tensor.Float, 4, 32, 16, 16), randTensorOf(r, tensor.Float, 64, 32, 1, 1)}},
		{"Conv 3-D", "Conv", 11, nil,
			[]tensor.Value{randTensorOf(r, tensor.Float, 2, 4, 6, 8, 8), randTensorOf(r, tensor.Float, 8, 4, 3, 3, 3)}},
		{"ConvTranspose two images", "ConvTranspose", 11, map[string]Attribute{"strides": ints(2, 2)},
			[]tensor.Value{randTensorOf(r, tensor.Float, 2, 16, 12, 12), randTensorOf(r, tensor.Float, 16, 8, 3, 3)}},
		{"MatMul batch", "MatMul", 13, nil,
			[]tensor.Value{randTensorOf(r, tensor.Float, 16, 40, 64), randTensorOf(r, tensor.Float, 64, 72)}},
	}
	for _, c := range cases {
		var first int64
		for run := range 40 {
			opt, used := countingOptions(2)
			if _, err := runKernel(opt, c.op, c.ver, 1, c.attrs, c.in...); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if run == 0 {
				first = used()
			} else if used() != first {
				t.Fatalf("%s: run %d charged %d bytes, run 0 %d", c.name, run, used(), first)
			}
		}
	}
}

// countingOptions returns options for threads cores whose budget counts
// what is charged (workers may charge at once), and the count so far.
func countingOptions(threads int) (*Options, func() int64) {
	var mu sync.Mutex
	var used int64
	opt := &Options{Threads: threads, env: runenv.Env{Charge: func(n int64) error {
		mu.Lock()
		used += n
		mu.Unlock()
		return nil
	}}}
	return opt, func() int64 {
		mu.Lock()
		defer mu.Unlock()
		return used
	}
}
