package ops

import (
	"errors"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The specification's two Range examples, delta 0, and a float range whose
// count comes from float64.
func TestRangeSpecExamples(t *testing.T) {
	for _, c := range []struct {
		start, limit, delta *tensor.Tensor
		want                *tensor.Tensor
	}{
		{tensor.Scalar(int64(3)), tensor.Scalar(int64(9)), tensor.Scalar(int64(3)), tensor.MustFromSlice([]int64{3, 6})},
		{tensor.Scalar(int32(10)), tensor.Scalar(int32(4)), tensor.Scalar(int32(-2)), tensor.MustFromSlice([]int32{10, 8, 6})},
		{tensor.Scalar(int16(1)), tensor.Scalar(int16(1)), tensor.Scalar(int16(1)), tensor.MustFromSlice([]int16{})},
		{tensor.Scalar(float32(0)), tensor.Scalar(float32(1)), tensor.Scalar(float32(0.25)), tensor.MustFromSlice([]float32{0, 0.25, 0.5, 0.75})},
	} {
		y, err := Range(c.start, c.limit, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		if !y.Equal(c.want) {
			t.Errorf("Range(%v, %v, %v) = %v, want %v", c.start, c.limit, c.delta, y, c.want)
		}
	}
	_, err := Range(tensor.Scalar(int64(0)), tensor.Scalar(int64(5)), tensor.Scalar(int64(0)))
	var e *Error
	if !errors.As(err, &e) || e.Rule != "delta" {
		t.Errorf("delta 0: got %v, want rule delta", err)
	}
	_, err = Range(tensor.Scalar(int64(0)), tensor.Scalar(int32(5)), tensor.Scalar(int64(1)))
	if !errors.As(err, &e) || e.Rule != "input" {
		t.Errorf("mixed types: got %v, want rule input", err)
	}
}

// ConstantOfShape's two specification examples, the scalar of an empty
// shape, and a negative dimension.
func TestConstantOfShapeSpecExamples(t *testing.T) {
	y, err := ConstantOfShape([]int{4, 3, 2}, ConstantOfShapeOptions{Value: tensor.MustFromSlice([]float32{1}, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := tensor.ToSlice[float32](y); len(v) != 24 || v[0] != 1 || v[23] != 1 {
		t.Errorf("ones: %v", y)
	}
	y, _ = ConstantOfShape([]int{}, ConstantOfShapeOptions{Value: tensor.MustFromSlice([]int32{7}, 1)})
	if want := tensor.Scalar(int32(7)); !y.Equal(want) {
		t.Errorf("scalar: %v", y)
	}
	y, _ = ConstantOfShape([]int{3}, ConstantOfShapeOptions{})
	if want := tensor.MustFromSlice([]float32{0, 0, 0}); !y.Equal(want) {
		t.Errorf("default value: %v", y)
	}
	_, err = ConstantOfShape([]int{2, -1}, ConstantOfShapeOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Rule != "shape" {
		t.Errorf("negative dim: got %v, want rule shape", err)
	}
}

// Range-27's stash_type: float16 and bfloat16 compute in float (1) or
// double (11); any other type, their own included, is refused.
func TestRangeStashType(t *testing.T) {
	half := func(v float32) *tensor.Tensor { return tensor.Scalar(tensor.F16FromFloat32(v)) }
	want := tensor.MustFromSlice([]tensor.F16{
		tensor.F16FromFloat32(1), tensor.F16FromFloat32(1.5), tensor.F16FromFloat32(2), tensor.F16FromFloat32(2.5)})
	for _, stash := range []tensor.DataType{tensor.Float, tensor.Double} {
		y, err := runNode(nil, "Range", 27, map[string]Attribute{"stash_type": intAttribute(int64(stash))}, half(1), half(3), half(0.5))
		if err != nil {
			t.Fatalf("stash_type %v: %v", stash, err)
		}
		if !y.Equal(want) {
			t.Errorf("stash_type %v: %v, want %v", stash, y, want)
		}
	}
	_, err := runNode(nil, "Range", 27, map[string]Attribute{"stash_type": intAttribute(int64(tensor.Float16))}, half(1), half(3), half(0.5))
	checkRule(t, err, "stash_type")
	// stash_type has no effect on the other types.
	y, err := runNode(nil, "Range", 27, map[string]Attribute{"stash_type": intAttribute(int64(tensor.Float16))},
		tensor.Scalar(int32(1)), tensor.Scalar(int32(4)), tensor.Scalar(int32(1)))
	checkRule(t, err, "")
	if !y.Equal(tensor.MustFromSlice([]int32{1, 2, 3})) {
		t.Errorf("int32 with stash_type float16: %v", y)
	}
}

// A count past what an int holds is refused, not truncated: on a 32-bit
// platform 2^40 elements once became an int of 0 (an empty output).
func TestRangeCountPastInt(t *testing.T) {
	for _, limit := range []int64{1 << 40, 1 << 62} {
		_, err := Range(tensor.Scalar(int64(0)), tensor.Scalar(limit), tensor.Scalar(int64(1)))
		var e *Error
		if !errors.As(err, &e) || e.Rule != "size" {
			t.Errorf("Range(0, %d, 1): %v, want a [size] refusal", limit, err)
		}
	}
	_, err := Range(tensor.Scalar(float64(0)), tensor.Scalar(float64(1<<52)), tensor.Scalar(float64(1)))
	var e *Error
	if !errors.As(err, &e) || e.Rule != "size" {
		t.Errorf("Range(0, 2^52, 1) in float64: %v, want a [size] refusal", err)
	}
}
