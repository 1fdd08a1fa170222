//go:build ort

package main

import (
	"fmt"
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestORTDivergencesOfTheRound pins the divergences between onnxruntime 1.30 and the
// specification that the differential tests of the elementwise and reduction round found
// (docs/divergences.md, "The elementwise and reduction round against onnxruntime"): onnxshape
// gives the specification's result, onnxruntime another. When onnxruntime
// comes to agree, the test says so, and the skip can go.
func TestORTDivergencesOfTheRound(t *testing.T) {
	pin := func(t *testing.T, c *diffCase, want *tensor.Tensor) {
		t.Helper()
		model, names, err := c.buildModel(nil)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := runOurs(model, c)
		if err != nil {
			t.Fatalf("onnxshape: %v", err)
		}
		got := ours[names[0]]
		if !got.Equal(want) {
			t.Errorf("onnxshape gives %v, the specification %v", got, want)
		}
		theirs, err := runORTModel(model, c, names, nil)
		if err != nil {
			t.Logf("onnxruntime refuses: %v", err)
			return
		}
		if theirs[0].Equal(want) {
			t.Errorf("onnxruntime now gives the specification's result: drop the divergence %q", c.name)
		} else {
			t.Logf("onnxruntime gives %v", theirs[0])
		}
	}

	// With an empty input, onnxruntime leaves out the negative axes: [2, 0,
	// 4] reduced over axis -1 keeps its shape there. The axis -1 is axis 2
	// (ReduceSum-13: "negative value means counting dimensions from the
	// back"), so the result is [2, 0, 1] (keepdims) or [2, 0]. The positive
	// spelling agrees in both engines (node test reduce_sum_empty_set).
	t.Run("negative axes of an empty input", func(t *testing.T) {
		for _, op := range []string{"ReduceSum", "ReduceMax", "ReduceL2"} {
			for keep, want := range [][]int{{2, 0}, {2, 0, 1}} {
				c := &diffCase{name: fmt.Sprintf("%s [2 0 4] axes [-1] keepdims %d", op, keep), opset: 18,
					inputs: inputsOf(tensor.MustNew(tensor.Float, 2, 0, 4)),
					build: func(b *builder.Builder, in []builder.Value) []builder.Value {
						return []builder.Value{b.Op(op, in[0], b.Ints64("axes", -1), builder.Int("keepdims", keep))}
					}}
				pin(t, c, tensor.MustNew(tensor.Float, want...))
			}
		}
	})

	// ReduceMean of no element: the ONNX reference's numpy mean gives NaN
	// (the specification leaves it undefined; docs/divergences.md, the elementwise and reduction round
	// reductions); onnxruntime gives 0.
	t.Run("mean of no element", func(t *testing.T) {
		c := &diffCase{name: "ReduceMean [0] keepdims 1", opset: 18,
			inputs: inputsOf(tensor.MustNew(tensor.Float, 0)),
			build:  node("ReduceMean", builder.Int("keepdims", 1))}
		model, names, err := c.buildModel(nil)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := runOurs(model, c)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := ours[names[0]].Float64s(); len(v) != 1 || !math.IsNaN(v[0]) {
			t.Errorf("onnxshape gives %v, want [NaN]", v)
		}
		theirs, err := runORTModel(model, c, names, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := theirs[0].Float64s(); len(v) != 1 || v[0] != 0 {
			t.Errorf("onnxruntime now gives %v, not [0]: update the divergence", v)
		}
	})

	// MaxPool-12 and AveragePool-19 specify SAME padding from the dilated
	// kernel: pad_shape = (out-1)*stride + ((kernel-1)*dilation+1) - in.
	// Kernel 2, dilation 2, stride 1 on 5: 2 pads, one at each end, and
	// output i is max(x[i-1], x[i+1]). onnxruntime pads by 1 (the undilated
	// kernel), at the end only.
	t.Run("SAME padding with dilations", func(t *testing.T) {
		x := []float32{3, 1, 4, 1, 5}
		c := &diffCase{name: "MaxPool SAME_UPPER kernel 2 dilation 2", opset: 12,
			inputs: inputsOf(tensor.MustFromSlice(x, 1, 1, 5)),
			build:  node("MaxPool", builder.Ints("kernel_shape", 2), builder.Ints("dilations", 2), builder.String("auto_pad", "SAME_UPPER"))}
		pin(t, c, tensor.MustFromSlice([]float32{1, 4, 1, 5, 1}, 1, 1, 5))
	})

	// Kernel 1, stride 2 on 6: output ceil(6/2) = 3, the formula's pad is
	// -1, which the reference clamps to 0: x[0], x[2], x[4]. onnxruntime
	// refuses ("padding values must be non-negative").
	t.Run("SAME padding with a stride above the kernel", func(t *testing.T) {
		c := &diffCase{name: "MaxPool SAME_UPPER kernel 1 stride 2", opset: 12,
			inputs: inputsOf(tensor.MustFromSlice([]float32{0, 1, 2, 3, 4, 5}, 1, 1, 6)),
			build:  node("MaxPool", builder.Ints("kernel_shape", 1), builder.Ints("strides", 2), builder.String("auto_pad", "SAME_UPPER"))}
		pin(t, c, tensor.MustFromSlice([]float32{0, 2, 4}, 1, 1, 3))
	})

	// Shrink on double: y = x - bias for x > lambd in the input's type (the
	// reference: numpy in float64). onnxruntime gives float32 precision:
	// 0.8734568357467651 for 1.1234567890123 - 0.25.
	t.Run("Shrink on double", func(t *testing.T) {
		c := &diffCase{name: "Shrink double lambd 0.5 bias 0.25", opset: 9,
			inputs: inputsOf(tensor.MustFromSlice([]float64{1.1234567890123, -1.1234567890123, 0.1}, 3)),
			build:  node("Shrink", builder.Float("lambd", 0.5), builder.Float("bias", 0.25))}
		pin(t, c, tensor.MustFromSlice([]float64{1.1234567890123 - 0.25, -1.1234567890123 + 0.25, 0}, 3))
	})

	// NaN in a slice (docs/divergences.md, the elementwise and reduction round reductions): onnxshape
	// follows numpy (a NaN is the maximum); onnxruntime's ReduceMax skips a
	// NaN that is not the first element and its Hardmax never picks one.
	t.Run("NaN in ReduceMax and Hardmax", func(t *testing.T) {
		nan := float32(math.NaN())
		c := &diffCase{name: "Hardmax [NaN 1 3]", opset: 13,
			inputs: inputsOf(tensor.MustFromSlice([]float32{nan, 1, 3}, 3)), build: node("Hardmax")}
		pin(t, c, tensor.MustFromSlice([]float32{1, 0, 0}, 3))

		c = &diffCase{name: "ReduceMax [1 NaN 3]", opset: 13,
			inputs: inputsOf(tensor.MustFromSlice([]float32{1, nan, 3}, 3)), build: node("ReduceMax")}
		model, names, err := c.buildModel(nil)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := runOurs(model, c)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := ours[names[0]].Float64s(); len(v) != 1 || !math.IsNaN(v[0]) {
			t.Errorf("onnxshape gives %v, want [NaN]", v)
		}
		theirs, err := runORTModel(model, c, names, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := theirs[0].Float64s(); len(v) != 1 || v[0] != 3 {
			t.Errorf("onnxruntime now gives %v, not [3]: update the divergence", v)
		}
	})

	// What onnxruntime does in cases docs/divergences.md used to mark "not
	// run" or "not checked", observed here: its first output's elements, or
	// nil when it refuses the model or the run.
	t.Run("onnxruntime's side of other rows", func(t *testing.T) {
		nan, inf := float32(math.NaN()), float32(math.Inf(1))
		unused := diffInput{"unused", tensor.MustFromSlice([]float32{0}, 1)}
		withUnused := func(op string) func(b *builder.Builder, in []builder.Value) []builder.Value {
			return func(b *builder.Builder, in []builder.Value) []builder.Value {
				return []builder.Value{b.Op(op, in[0]), b.Op("Identity", in[1])}
			}
		}
		for _, row := range []struct {
			c   *diffCase
			ort []float64
		}{
			{&diffCase{name: "TopK [1 NaN 3 2] k 2", opset: 11, inputs: inputsOf(tensor.MustFromSlice([]float32{1, nan, 3, 2}, 4)),
				build: func(b *builder.Builder, in []builder.Value) []builder.Value {
					return b.OpN("TopK", 2, in[0], b.Ints64("k", 2))
				}},
				[]float64{1, math.NaN()}},
			{&diffCase{name: "Softmax [-inf -inf]", opset: 13, inputs: inputsOf(tensor.MustFromSlice([]float32{-inf, -inf}, 1, 2)), build: node("Softmax")},
				[]float64{math.NaN(), math.NaN()}},
			{&diffCase{name: "AveragePool, a window of padding only", opset: 19, inputs: inputsOf(tensor.MustFromSlice([]float32{1, 2}, 1, 1, 2)),
				build: node("AveragePool", builder.Ints("kernel_shape", 2), builder.Ints("pads", 2, 0))}, nil},
			{&diffCase{name: "MaxPool, a window of padding only", opset: 12, inputs: inputsOf(tensor.MustFromSlice([]float32{1, 2}, 1, 1, 2)),
				build: node("MaxPool", builder.Ints("kernel_shape", 2), builder.Ints("pads", 2, 0))}, nil},
			{&diffCase{name: "ReduceProd int32 [65536 65536 3]", opset: 13, inputs: inputsOf(tensor.MustFromSlice([]int32{65536, 65536, 3}, 3)),
				build: node("ReduceProd", builder.Int("keepdims", 1))}, []float64{math.MaxInt32}},
			{&diffCase{name: "CumProd int32 [65536 65536 3]", opset: 26, inputs: inputsOf(tensor.MustFromSlice([]int32{65536, 65536, 3}, 3)),
				build: func(b *builder.Builder, in []builder.Value) []builder.Value {
					return []builder.Value{b.Op("CumProd", in[0], b.Constant("axis", tensor.Scalar(int64(0))))}
				}}, []float64{65536, 0, 0}},
			{&diffCase{name: "AveragePool float16 [1 1 4] kernel 1 stride 2 ceil_mode", opset: 19, inputs: inputsOf(fromFloat32s(tensor.Float16, []float32{1, 2, 3, 4}, []int{1, 1, 4})),
				build: node("AveragePool", builder.Ints("kernel_shape", 1), builder.Ints("strides", 2), builder.Int("ceil_mode", 1))}, nil},
			{&diffCase{name: "MaxPool float16 [1 1 4] kernel 1 stride 2 ceil_mode", opset: 12, inputs: inputsOf(fromFloat32s(tensor.Float16, []float32{1, 2, 3, 4}, []int{1, 1, 4})),
				build: node("MaxPool", builder.Ints("kernel_shape", 1), builder.Ints("strides", 2), builder.Int("ceil_mode", 1))}, nil},
			{&diffCase{name: "AveragePool float [1 1 4] kernel 1 stride 2 ceil_mode", opset: 19, inputs: inputsOf(tensor.MustFromSlice([]float32{1, 2, 3, 4}, 1, 1, 4)),
				build: node("AveragePool", builder.Ints("kernel_shape", 1), builder.Ints("strides", 2), builder.Int("ceil_mode", 1))}, []float64{1, 3}},
			{&diffCase{name: "MaxPool VALID, kernel 3 on 2", opset: 12, inputs: inputsOf(tensor.MustFromSlice([]float32{1, 2}, 1, 1, 2)),
				build: node("MaxPool", builder.Ints("kernel_shape", 3), builder.String("auto_pad", "VALID"))}, []float64{}},
			{&diffCase{name: "GlobalAveragePool of an empty plane", opset: 13, inputs: inputsOf(tensor.MustNew(tensor.Float, 1, 1, 0)), build: node("GlobalAveragePool")}, nil},
			{&diffCase{name: "ScatterElements, duplicate indices", opset: 18,
				inputs: inputsOf(tensor.MustFromSlice([]float32{0, 0, 0}, 3), tensor.MustFromSlice([]int64{1, 1}, 2), tensor.MustFromSlice([]float32{5, 7}, 2)),
				build:  node("ScatterElements")}, []float64{0, 7, 0}},
			{&diffCase{name: "Compress [1 2] by [false true true]", opset: 11,
				inputs: inputsOf(tensor.MustFromSlice([]float32{1, 2}, 2), tensor.MustFromSlice([]bool{false, true, true}, 3)),
				build:  node("Compress", builder.Int("axis", 0))}, []float64{2}},
			{&diffCase{name: "NonZero of a scalar", opset: 13, inputs: []diffInput{{"s", tensor.Scalar(float32(3))}, unused}, build: withUnused("NonZero")},
				[]float64{0}},
		} {
			model, names, err := row.c.buildModel(nil)
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := runORTModel(model, row.c, names, nil)
			switch {
			case row.ort == nil && err == nil:
				t.Errorf("%s: onnxruntime now runs it: %v", row.c.name, theirs[0])
			case row.ort != nil && err != nil:
				t.Errorf("%s: onnxruntime now refuses: %v", row.c.name, err)
			case row.ort != nil:
				v, _ := theirs[0].Float64s()
				if firstDifference(v, row.ort, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }) != "" || len(v) != len(row.ort) {
					t.Errorf("%s: onnxruntime now gives %v, not %v", row.c.name, v, row.ort)
				}
			}
		}
	})
}
