package ops

import (
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// auto_pad VALID fits ceil((in - dilated kernel + 1) / stride) windows:
// none when the kernel is longer than the input, an empty output rather
// than an error (what onnxruntime does too; the differential test in
// bench/ort found it).
func TestPoolValidLongKernelIsEmpty(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2}, 1, 1, 2)
	attrs := map[string]Attribute{
		"kernel_shape": {Type: AttrInts, Ints: []int64{3}},
		"auto_pad":     {Type: AttrString, String: "VALID"},
	}
	for _, op := range []struct {
		name    string
		version int
	}{{"MaxPool", 22}, {"AveragePool", 22}, {"LpPool", 22}} {
		out, err := runKernel(nil, op.name, op.version, 1, attrs, x)
		if err != nil {
			t.Errorf("%s: %v", op.name, err)
			continue
		}
		if y := out[0].(*tensor.Tensor); !tensor.SameShape(y.Shape(), []int{1, 1, 0}) {
			t.Errorf("%s: shape %v, want [1 1 0]", op.name, y.Shape())
		}
	}
}
