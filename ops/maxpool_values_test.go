package ops

import (
	"bytes"
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
			got, err := maxPoolValues(nil, op, nil, x, o)
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Bytes()) != string(want.Bytes()) {
				t.Fatalf("iter %d %v shape %v %+v: values-only MaxPool differs from MaxPool's Y", iter, dt, shape, o)
			}
		}
	}
}

// A MaxPool or AveragePool node keeps the geometry of its last run (Node.pool): runs on
// inputs of other shapes, types, profiles and limits must give what a new
// node gives, bit for bit, or the same error.
func TestMaxPoolNodeKeepsGeometry(t *testing.T) {
	attrs := map[string]Attribute{"kernel_shape": ints(3, 3), "strides": ints(2, 2), "pads": ints(1, 1, 1, 1)}
	testNodeKeepsGeometry(t, "MaxPool", attrs, 1)
	testNodeKeepsGeometry(t, "MaxPool", attrs, 2) // with Indices
	attrs["storage_order"] = intAttribute(1)
	testNodeKeepsGeometry(t, "MaxPool", attrs, 2)
	delete(attrs, "storage_order")
	attrs["count_include_pad"] = intAttribute(1)
	testNodeKeepsGeometry(t, "AveragePool", attrs, 1)
}

func testNodeKeepsGeometry(t *testing.T, name string, attrs map[string]Attribute, outs int) {
	s, err := Lookup("", name, 22)
	if err != nil {
		t.Fatal(err)
	}
	input := func(dt tensor.DataType, shape ...int) *tensor.Tensor {
		x, err := tensor.New(dt, shape...)
		if err != nil {
			t.Fatal(err)
		}
		for i := range x.Len() {
			v := float64((i*7919)%23) - 11
			if dt == tensor.Double {
				d, _ := tensor.Data[float64](x)
				d[i] = v
			} else {
				d, _ := tensor.Data[float32](x)
				d[i] = float32(v)
			}
		}
		return x
	}
	a := input(tensor.Float, 1, 2, 9, 9)
	runs := []struct {
		opt *Options
		x   *tensor.Tensor
	}{
		{nil, a}, {nil, a}, {nil, input(tensor.Float, 2, 3, 7, 11)}, {nil, input(tensor.Double, 1, 2, 9, 9)},
		{nil, input(tensor.Float, 1, 2, 9)}, {nil, a},
		{NewOptions(WithProfile(ProfileSONNX)), a}, {NewOptions(WithMaxTensorBytes(64)), a}, {nil, a},
	}
	n := &Node{OpType: name, Version: s.Since, Attrs: attrs, NumOutputs: outs}
	for i, r := range runs {
		got, gotErr := s.Run(r.opt, n, []tensor.Value{r.x})
		fresh := &Node{OpType: name, Version: s.Since, Attrs: attrs, NumOutputs: outs}
		want, wantErr := s.Run(r.opt, fresh, []tensor.Value{r.x})
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("%s run %d: error %v, a new node's %v", name, i, gotErr, wantErr)
		}
		if gotErr != nil {
			continue
		}
		if len(got) != outs || len(want) != outs {
			t.Fatalf("%s run %d: %d and %d outputs, expected %d", name, i, len(got), len(want), outs)
		}
		for j := range outs {
			g, w := got[j].(*tensor.Tensor), want[j].(*tensor.Tensor)
			if !tensor.SameShape(g.Shape(), w.Shape()) || g.DataType() != w.DataType() || !bytes.Equal(g.Bytes(), w.Bytes()) {
				t.Fatalf("%s run %d output %d: %v %v, a new node's %v %v", name, i, j, g.DataType(), g.Shape(), w.DataType(), w.Shape())
			}
		}
	}
}
