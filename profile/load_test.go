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
	transpose, err := onnx.EncodeModel(newModel(t, 21).input("x", tensor.Float, 2, 3).output("y", tensor.Float, 3, 2).
		node("Transpose", names("x"), names("y"), attrInts("perm", 1, 0)).build())
	if err != nil {
		t.Fatal(err)
	}
	m, err := LoadBytes(transpose, "")
	if err != nil {
		t.Fatalf("a Transpose with its perm is inside the profile: %v", err)
	}
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	if _, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, RunOptions()); err != nil {
		t.Fatal(err)
	}
	// The bundled example letterboxes inside the profile, then normalises
	// with Cast, which is outside its operator set.
	var v *ViolationError
	if _, err := LoadBytes(examples.Model(), ""); !errors.As(err, &v) || !strings.Contains(err.Error(), "(Cast-21) [OPS]") {
		t.Fatalf("the bundled example must be refused for its Cast, got %v", err)
	}
	// Flatten without its axis: GR4, no default values.
	outside, err := onnx.EncodeModel(newModel(t, 13).input("x", tensor.Float, 2, 3).output("y", tensor.Float, 2, 3).
		node("Flatten", names("x"), names("y")).build())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LoadBytes(outside, ""); !errors.As(err, &v) || !strings.Contains(err.Error(), "GR4") {
		t.Fatalf("a model outside the profile must be refused with a ViolationError, got %v", err)
	}
	if _, err := LoadBytes([]byte("garbage"), ""); err == nil {
		t.Fatal("garbage must not load")
	}
}
