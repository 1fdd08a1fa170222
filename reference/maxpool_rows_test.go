package reference_test

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// MaxPool's float32 row loops (the vector loops for kernels 2 and 3 at
// stride 2 take rows of 16 outputs or more) against the reference engine,
// bit for bit, on random wide 1-D and 2-D float32 inputs with odd widths,
// pads, ceil_mode, dilations and NaNs, infinities and zeros of both signs.
func TestMaxPoolRowLoopsAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	iterations := 300
	if testing.Short() {
		iterations = 80
	}
	ran := 0
	for range iterations {
		spatial := 1 + r.IntN(2)
		shape := []int{1 + r.IntN(2), 1 + r.IntN(3)}
		var kernel, strides, dilations, pads []int
		for k := range spatial {
			d := 1 + r.IntN(70)
			if k < spatial-1 {
				d = 1 + r.IntN(9)
			}
			shape = append(shape, d)
			kernel = append(kernel, []int{2, 3, 3, 1, 4}[r.IntN(5)])
			strides = append(strides, []int{2, 2, 1, 3}[r.IntN(4)])
			dilations = append(dilations, []int{1, 1, 1, 2}[r.IntN(4)])
		}
		for i := range 2 * spatial {
			pads = append(pads, r.IntN(kernel[i%spatial]))
		}
		x := randTensor(r, tensor.Float, shape, -3, 3, true)
		if r.IntN(3) == 0 { // ties and zeros
			x = randTensor(r, tensor.Float, shape, -1, 1, false)
			v, _ := tensor.Data[float32](x)
			for i := range v {
				v[i] = float32(int(v[i] * 2))
			}
		}
		n := &ops.Node{OpType: "MaxPool", Version: 22, NumOutputs: 1, Attrs: map[string]ops.Attribute{
			"kernel_shape": attrInts(kernel...), "strides": attrInts(strides...), "pads": attrInts(pads...),
			"dilations": attrInts(dilations...), "ceil_mode": attrInt(r.IntN(2)),
		}}
		if compareEngines(t, ops.ProfileONNX, n, []tensor.Value{x}) {
			ran++
		}
	}
	if ran < iterations/2 {
		t.Errorf("only %d of %d nodes ran", ran, iterations)
	}
}
