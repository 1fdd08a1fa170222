package reference_test

import (
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Sigmoid, Tanh and Erf agree bit for bit between the engines on a dense
// sweep of float32 (every 8191st bit pattern, both signs, with the
// infinities, NaN, zeros and the algorithms' branch points), in float,
// float16 and bfloat16, in a tensor whose length is no multiple of the
// vector loops' 8, at 1 and 2 threads.
func TestFloat32FunctionsAgreeOnASweep(t *testing.T) {
	var xs []float32
	for b := uint32(0); b < 0x7f800000; b += 8191 {
		x := math.Float32frombits(b)
		xs = append(xs, x, -x)
	}
	inf := float32(math.Inf(1))
	xs = append(xs, inf, -inf, float32(math.NaN()), float32(math.Copysign(0, -1)), 0.625, -0.625, 0.921875, -0.921875, 4, -4, 9.5, 104, -104)
	x32 := tensor.MustFromSlice(xs, len(xs))
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Float16, tensor.BFloat16} {
		x := x32
		if dt != tensor.Float {
			y, err := ops.Cast(x32, dt, ops.CastOptions{})
			if err != nil {
				t.Fatal(err)
			}
			x = y
		}
		for _, op := range []string{"Sigmoid", "Tanh", "Erf"} {
			n := &ops.Node{OpType: op, Version: 13}
			if !compareEngines(t, ops.ProfileONNX, n, []tensor.Value{x}) {
				t.Fatalf("%s on %v produced no output", op, dt)
			}
		}
	}
}
