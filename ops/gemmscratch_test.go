package ops

import (
	"sync"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
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
			var mu sync.Mutex
			var used int64
			opt := &Options{env: runenv.Env{Charge: func(n int64) error {
				mu.Lock()
				used += n
				mu.Unlock()
				return nil
			}}}
			if _, err := runKernel(opt, "MatMul", 13, 1, nil, a, b); err != nil {
				t.Fatal(err)
			}
			return used - int64(batch*c.m*c.n*4)
		}
		one, many := scratch(1), scratch(200)
		t.Logf("%s: scratch of 1 product %d bytes, of 200: %d", c.name, one, many)
		if many > 2*max(one, 64<<10) {
			t.Errorf("%s: 200 products charged %d bytes of scratch, one %d", c.name, many, one)
		}
	}
}
