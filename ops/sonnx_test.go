package ops

import (
	"errors"
	"math"
	"testing"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/tensor"
)

// Under the profile, MaxPool refuses a NaN anywhere in X, in every float
// type, and computes as before without one; ONNX rules let the NaN through.
func TestMaxPoolSONNXRefusesNaN(t *testing.T) {
	sonnx := &Options{Profile: ProfileSONNX}
	o := MaxPoolOptions{KernelShape: []int{2, 2}, Strides: []int{2, 2}, Dilations: []int{1, 1}, Pads: []int{0, 0, 0, 0}}
	nan := math.NaN()
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16} {
		v := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, nan}
		x := poolTyped(dt, v, []int{1, 1, 4, 4})
		_, _, err := maxPool(sonnx, opRef{"MaxPool", 22}, x, o)
		checkRule(t, err, "NaN")
		y, _, err := maxPool(nil, opRef{"MaxPool", 22}, x, o)
		checkRule(t, err, "")
		if got, _ := y.Float64s(); !math.IsNaN(got[3]) {
			t.Errorf("%v under ONNX rules: %v, want the NaN propagated", dt, got)
		}
		x = poolTyped(dt, append(v[:15:15], 16), []int{1, 1, 4, 4})
		if _, _, err := maxPool(sonnx, opRef{"MaxPool", 22}, x, o); err != nil {
			t.Errorf("%v without a NaN: %v", dt, err)
		}
	}
	// A float16 NaN with a payload, and an infinity, which is not a NaN.
	h := tensor.MustFromSlice([]float16.Float16{0x7C00, 0xFC00, 0x7E01, 0}, 1, 1, 2, 2)
	_, _, err := maxPool(sonnx, opRef{"MaxPool", 22}, h, MaxPoolOptions{KernelShape: []int{1, 1}, Strides: []int{1, 1}, Dilations: []int{1, 1}, Pads: []int{0, 0, 0, 0}})
	wantRule(t, err, "NaN", "MaxPool-22 [NaN] X[2] (flat) is NaN: the profile's texts disagree on a NaN input (its float specification reads NaN as -inf, ONNX and its reference propagate it), so the profile refuses it")
}

// Under the profile, the operators it specifies refuse a zero dimension in
// their input or output; ONNX rules allow it.
func TestSONNXPositiveDims(t *testing.T) {
	sonnx := &Options{Profile: ProfileSONNX}
	empty := tensor.MustNew(tensor.Float, 2, 0)
	full := tensor.MustNew(tensor.Float, 2, 3)
	for _, c := range []struct {
		name    string
		version int
		outputs int
		attrs   map[string]Attribute
		in      []tensor.Value
	}{
		{"Concat", 13, 1, map[string]Attribute{"axis": intAttribute(1)}, []tensor.Value{full, empty}},
		{"Transpose", 21, 1, map[string]Attribute{"perm": ints(1, 0)}, []tensor.Value{empty}},
		{"Squeeze", 21, 1, nil, []tensor.Value{tensor.MustNew(tensor.Float, 1, 0), i64s(0)}},
		{"Unsqueeze", 21, 1, nil, []tensor.Value{empty, i64s(0)}},
		{"Flatten", 21, 1, map[string]Attribute{"axis": intAttribute(1)}, []tensor.Value{empty}},
		{"Reshape", 21, 1, map[string]Attribute{"allowzero": intAttribute(1)}, []tensor.Value{empty, i64s(0, 2)}},
		{"Expand", 13, 1, nil, []tensor.Value{full, i64s(0, 2, 3)}},
		{"Pad", 21, 1, map[string]Attribute{"mode": strAttribute("constant")}, []tensor.Value{full, i64s(0, 0, 0, -3), tensor.Scalar[float32](0)}},
		{"Split", 18, 2, map[string]Attribute{"axis": intAttribute(1)}, []tensor.Value{full, i64s(3, 0)}},
		{"Resize", 19, 1, map[string]Attribute{"mode": strAttribute("nearest"), "coordinate_transformation_mode": strAttribute("asymmetric"),
			"nearest_mode": strAttribute("floor"), "keep_aspect_ratio_policy": strAttribute("stretch")}, []tensor.Value{full, nil, nil, i64s(2, 0)}},
		{"MaxPool", 22, 1, map[string]Attribute{"kernel_shape": ints(1, 1)}, []tensor.Value{tensor.MustNew(tensor.Float, 0, 1, 2, 2)}},
	} {
		_, err := runKernel(sonnx, c.name, c.version, c.outputs, c.attrs, c.in...)
		var e *Error
		if !errors.As(err, &e) || e.Rule != sonnxPositiveDims {
			t.Errorf("%s under SONNX: got %v, want rule %s", c.name, err, sonnxPositiveDims)
		}
		if _, err := runKernel(nil, c.name, c.version, c.outputs, c.attrs, c.in...); err != nil {
			t.Errorf("%s under ONNX rules: %v", c.name, err)
		}
	}
}
