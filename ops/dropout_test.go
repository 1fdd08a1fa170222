package ops

import (
	"errors"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// Inference dropout is the identity with a mask of kept elements: of the
// data's type before version 10, bool from it. Training mode with ratio > 0
// is random and refused as unsupported; with ratio 0 it is inference.
func TestDropout(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, -2, 3}, 3)
	out, err := runKernel(nil, "Dropout", 7, 2, map[string]Attribute{"ratio": {Type: AttrFloat, Float: 0.3}}, x)
	if err != nil {
		t.Fatal(err)
	}
	if !out[0].(*tensor.Tensor).Equal(x) || !out[1].(*tensor.Tensor).Equal(tensor.MustFromSlice([]float32{1, 1, 1}, 3)) {
		t.Errorf("Dropout-7: %v %v", out[0], out[1])
	}
	out, err = runKernel(nil, "Dropout", 13, 2, nil, x, tensor.Scalar(float32(0)), tensor.Scalar(true))
	if err != nil {
		t.Fatal(err)
	}
	if !out[1].(*tensor.Tensor).Equal(tensor.MustFromSlice([]bool{true, true, true}, 3)) {
		t.Errorf("Dropout-13 mask: %v", out[1])
	}
	_, err = runKernel(nil, "Dropout", 13, 1, nil, x, tensor.Scalar(float32(0.5)), tensor.Scalar(true))
	var e *Error
	if !errors.Is(err, ErrUnsupported) || !errors.As(err, &e) || e.Rule != "training" {
		t.Errorf("training mode: %v", err)
	}
	if _, err := runKernel(nil, "Dropout", 6, 1, nil, x); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Dropout-6 defaults to training mode (is_test 0): %v", err)
	}
	_, err = runKernel(nil, "Dropout", 13, 1, nil, x, tensor.Scalar(float32(1)))
	if !errors.As(err, &e) || e.Rule != "ratio" {
		t.Errorf("ratio 1: %v", err)
	}
	if _, err := runKernel(nil, "Dropout", 12, 1, nil, tensor.MustFromSlice([]int32{1}, 1)); !errors.As(err, &e) || e.Rule != "type" {
		t.Errorf("int32 data: %v", err)
	}
}
