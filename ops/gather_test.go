package ops

import (
	"errors"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The ONNX specification's two Gather examples, and its refusals.
func TestGatherSpecExamples(t *testing.T) {
	data := tensor.MustFromSlice([]float32{1.0, 1.2, 2.3, 3.4, 4.5, 5.7}, 3, 2)
	y, err := Gather(data, tensor.MustFromSlice([]int64{0, 1, 1, 2}, 2, 2), GatherOptions{Axis: 0})
	if err != nil {
		t.Fatal(err)
	}
	want := tensor.MustFromSlice([]float32{1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7}, 2, 2, 2)
	if !y.Equal(want) {
		t.Errorf("axis 0: got %v, want %v", y, want)
	}
	data = tensor.MustFromSlice([]float32{1.0, 1.2, 1.9, 2.3, 3.4, 3.9, 4.5, 5.7, 5.9}, 3, 3)
	y, err = Gather(data, tensor.MustFromSlice([]int32{0, 2}, 1, 2), GatherOptions{Axis: 1})
	if err != nil {
		t.Fatal(err)
	}
	want = tensor.MustFromSlice([]float32{1.0, 1.9, 2.3, 3.9, 4.5, 5.9}, 3, 1, 2)
	if !y.Equal(want) {
		t.Errorf("axis 1: got %v, want %v", y, want)
	}
	y, err = Gather(data, tensor.Scalar(int64(-1)), GatherOptions{Axis: -1}) // negative index and axis; rank-0 indices drop the axis
	if err != nil {
		t.Fatal(err)
	}
	if want = tensor.MustFromSlice([]float32{1.9, 3.9, 5.9}, 3); !y.Equal(want) {
		t.Errorf("scalar index: got %v, want %v", y, want)
	}
	for _, c := range []struct {
		indices *tensor.Tensor
		axis    int
		rule    string
	}{
		{tensor.MustFromSlice([]int64{3}, 1), 0, "indices"},
		{tensor.MustFromSlice([]int64{-4}, 1), 0, "indices"},
		{tensor.MustFromSlice([]int64{0}, 1), 2, "axis"},
		{tensor.MustFromSlice([]float32{0}, 1), 0, "indices-type"},
	} {
		_, err := Gather(data, c.indices, GatherOptions{Axis: c.axis})
		var e *Error
		if !errors.As(err, &e) || e.Rule != c.rule {
			t.Errorf("indices %v axis %d: got %v, want rule %s", c.indices, c.axis, err, c.rule)
		}
	}
}

// Gather of strings moves the strings.
func TestGatherStrings(t *testing.T) {
	data := tensor.MustFromSlice([]string{"a", "b", "c"}, 3)
	y, err := Gather(data, tensor.MustFromSlice([]int64{2, 0, 2}, 3), GatherOptions{Axis: 0})
	if err != nil {
		t.Fatal(err)
	}
	if want := tensor.MustFromSlice([]string{"c", "a", "c"}, 3); !y.Equal(want) {
		t.Errorf("got %v, want %v", y, want)
	}
}
