package tensor_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestStackUnstack(t *testing.T) {
	a := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	b := tensor.MustFromSlice([]float32{7, 8, 9, 10, 11, 12}, 2, 3)
	s, err := tensor.Stack(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if want := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 2, 2, 3); !s.Equal(want) {
		t.Fatalf("Stack = %v", s)
	}
	parts, err := tensor.Unstack(s)
	if err != nil || len(parts) != 2 || !parts[0].Equal(a) || !parts[1].Equal(b) {
		t.Fatalf("Unstack = %v, %v", parts, err)
	}
	strs, err := tensor.Stack(tensor.MustFromSlice([]string{"a", "b"}), tensor.MustFromSlice([]string{"c", "d"}))
	if err != nil || !reflect.DeepEqual(strs.Strings(), []string{"a", "b", "c", "d"}) {
		t.Fatalf("Stack of strings = %v, %v", strs, err)
	}
	if back, err := tensor.Unstack(strs); err != nil || !reflect.DeepEqual(back[1].Strings(), []string{"c", "d"}) {
		t.Fatalf("Unstack of strings = %v, %v", back, err)
	}
	if _, err := tensor.Stack(a, tensor.MustNew(tensor.Float, 3, 2)); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("shapes differ: %v", err)
	}
	if _, err := tensor.Stack(); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("nothing: %v", err)
	}
	if _, err := tensor.Unstack(tensor.Scalar(float32(1))); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("scalar: %v", err)
	}
	if empty, err := tensor.Unstack(tensor.MustNew(tensor.Int64, 0, 5)); err != nil || len(empty) != 0 {
		t.Errorf("empty: %v, %v", empty, err)
	}
}

func TestFromSliceNoCopySharesStorage(t *testing.T) {
	data := make([]float32, 6)
	v, err := tensor.FromSliceNoCopy(data, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	data[4] = 7
	if f, _ := tensor.Data[float32](v); f[4] != 7 {
		t.Errorf("FromSliceNoCopy does not share: %v", f)
	}
	if _, err := tensor.FromSliceNoCopy(data[1:], 5); err == nil {
		t.Error("a view 4 bytes off an 8-byte boundary was accepted")
	}
	if _, err := tensor.FromSliceNoCopy(data, 4); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("6 elements as 4: %v", err)
	}
	if _, err := tensor.FromSliceNoCopy([]string{"a"}); !errors.Is(err, tensor.ErrType) {
		t.Errorf("strings: %v", err)
	}
	if e, err := tensor.FromSliceNoCopy([]int64{}); err != nil || e.Len() != 0 {
		t.Errorf("empty: %v, %v", e, err)
	}
}

func TestBulkHalfConversions(t *testing.T) {
	src := []float32{0, -1.5, 65504, 1e-8, 3.14159, 70000}
	h := tensor.Float16sFromFloat32(src)
	b := tensor.BFloat16sFromFloat32(src)
	hw, bw := tensor.Float32sFromFloat16(h), tensor.Float32sFromBFloat16(b)
	for i, v := range src {
		if h[i] != tensor.F16FromFloat32(v) || hw[i] != h[i].Float32() {
			t.Errorf("float16 of %v: %v (%v)", v, h[i], hw[i])
		}
		if b[i] != tensor.BF16FromFloat32(v) || bw[i] != b[i].Float32() {
			t.Errorf("bfloat16 of %v: %v (%v)", v, b[i], bw[i])
		}
	}
}
