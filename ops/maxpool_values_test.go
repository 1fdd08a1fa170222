package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// MaxPool without Indices (window.Max2D) against MaxPool's Y, bit for bit,
// on random 1-D and 2-D geometries over planes full of ties, both zeros,
// infinities and NaNs of several payloads, in float and double.
func TestMaxPoolValuesOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for iter := range 600 {
		dims, a, axes, _ := poolRandomGeometry(rng, 9)
		if axes == nil {
			continue
		}
		shape := append([]int{1 + rng.IntN(2), 1 + rng.IntN(3)}, dims...)
		n := 1
		for _, d := range shape {
			n *= d
		}
		if n == 0 {
			continue
		}
		bits := poolRandomBits(rng, n)
		o := MaxPoolOptions{AutoPad: a.AutoPad, CeilMode: a.CeilMode, Dilations: a.Dilations,
			KernelShape: a.Kernel, Pads: a.Pads, Strides: a.Strides}
		op := opRef{"MaxPool", 22}
		for _, dt := range []tensor.DataType{tensor.Float, tensor.Double} {
			var x *tensor.Tensor
			var err error
			if dt == tensor.Float {
				v := make([]float32, n)
				for i, b := range bits {
					v[i] = math.Float32frombits(b)
				}
				x, err = tensor.FromSlice(v, shape...)
			} else {
				v := make([]float64, n)
				for i, b := range bits {
					// Widen keeping the NaN payloads apart.
					f := float64(math.Float32frombits(b))
					if f != f {
						f = math.Float64frombits(0x7FF8000000000000 | uint64(b)<<20 | uint64(b>>31)<<63)
					}
					v[i] = f
				}
				x, err = tensor.FromSlice(v, shape...)
			}
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := maxPool(nil, op, x, o)
			if err != nil {
				t.Fatal(err)
			}
			got, err := maxPoolValues(nil, op, x, o)
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Bytes()) != string(want.Bytes()) {
				t.Fatalf("iter %d %v shape %v %+v: values-only MaxPool differs from MaxPool's Y", iter, dt, shape, o)
			}
		}
	}
}
