package profile

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/examples"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

func TestLoadBytesEnforcesTheProfile(t *testing.T) {
	m, err := LoadBytes(examples.Model(), "")
	if err != nil {
		t.Fatalf("the bundled example is written inside the profile: %v", err)
	}
	in, err := examples.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(context.Background(), in, RunOptions()); err != nil {
		t.Fatal(err)
	}
	// Flatten without its axis: GR4, no default values.
	outside, err := onnx.EncodeModel(newModel(t, 13).input("x", tensor.Float, 2, 3).output("y", tensor.Float, 2, 3).
		node("Flatten", names("x"), names("y")).build())
	if err != nil {
		t.Fatal(err)
	}
	var v *ViolationError
	if _, err := LoadBytes(outside, ""); !errors.As(err, &v) || !strings.Contains(err.Error(), "GR4") {
		t.Fatalf("a model outside the profile must be refused with a ViolationError, got %v", err)
	}
	if _, err := LoadBytes([]byte("garbage"), ""); err == nil {
		t.Fatal("garbage must not load")
	}
}
