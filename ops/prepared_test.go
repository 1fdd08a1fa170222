package ops_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// A node prepared on one input gives, for another input of the same type
// and shape, what its kernel gives, in new tensors; an input of another
// shape, or another parameter value, does not fit it.
func TestPreparedRunMatchesTheKernel(t *testing.T) {
	s, err := ops.Lookup("", "Slice", 13)
	if err != nil {
		t.Fatal(err)
	}
	n := &ops.Node{OpType: "Slice", Version: 13, NumOutputs: 1}
	starts, ends := tensor.MustFromSlice([]int64{-1}), tensor.MustFromSlice([]int64{1}) // W backwards, from the last to the second
	axes, steps := tensor.MustFromSlice([]int64{1}), tensor.MustFromSlice([]int64{-1})
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8}, 2, 4)
	_, p, err := s.Prepare(nil, n, []tensor.Value{x, starts, ends, axes, steps})
	if err != nil || !p.Replays() {
		t.Fatalf("Prepare: %v, %v", p, err)
	}
	y := tensor.MustFromSlice([]float32{10, 20, 30, 40, 50, 60, 70, 80}, 2, 4)
	in := []tensor.Value{y, starts, ends, axes, steps}
	if !p.Fits(in) {
		t.Fatal("an input of the same type and shape does not fit")
	}
	out := make([]tensor.Value, 1)
	if err := p.Run(nil, in, out); err != nil {
		t.Fatal(err)
	}
	want, err := s.Run(nil, n, in)
	if err != nil {
		t.Fatal(err)
	}
	if got := out[0].(*tensor.Tensor); !got.Equal(want[0].(*tensor.Tensor)) || got.SharesStorage(y) {
		t.Errorf("prepared %v, kernel %v", got, want[0])
	}
	if p.Fits([]tensor.Value{tensor.MustNew(tensor.Float, 2, 5), starts, ends, axes, steps}) {
		t.Error("an input of another shape fits")
	}
	if p.Fits([]tensor.Value{y, tensor.MustFromSlice([]int64{-2}), ends, axes, steps}) {
		t.Error("another starts value fits")
	}
}

// Pad with zero pads is prepared (its output a view of the input) and a
// replay on new values gives what the kernel gives; a Pad that pads is
// not prepared, and other pads do not fit the prepared one.
func TestPreparedPad(t *testing.T) {
	s, err := ops.Lookup("", "Pad", 23)
	if err != nil {
		t.Fatal(err)
	}
	n := &ops.Node{OpType: "Pad", Version: s.Since, NumOutputs: 1}
	zero := tensor.MustFromSlice([]int64{0, 0, 0, 0, 0, 0, 0, 0})
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 1, 1, 2, 3)
	_, p, err := s.Prepare(nil, n, []tensor.Value{x, zero})
	if err != nil || !p.Replays() {
		t.Fatalf("Prepare: %v, %v", p, err)
	}
	for round := range 3 {
		y := tensor.MustFromSlice([]float32{float32(round), -1, 7, 0.5, 9, -3}, 1, 1, 2, 3)
		in := []tensor.Value{y, zero}
		if !p.Fits(in) {
			t.Fatal("an input of the same type and shape does not fit")
		}
		out := make([]tensor.Value, 1)
		if err := p.Run(nil, in, out); err != nil {
			t.Fatal(err)
		}
		want, err := s.Run(nil, n, in)
		if err != nil {
			t.Fatal(err)
		}
		if got := out[0].(*tensor.Tensor); !got.Equal(want[0].(*tensor.Tensor)) || !got.Equal(y) {
			t.Errorf("round %d: prepared %v, kernel %v, input %v", round, got, want[0], y)
		}
	}
	some := tensor.MustFromSlice([]int64{0, 0, 1, 0, 0, 0, 0, 1})
	if p.Fits([]tensor.Value{x, some}) {
		t.Error("other pads fit")
	}
	out, q, err := s.Prepare(nil, n, []tensor.Value{x, some})
	if err != nil || q.Replays() || !q.Fits([]tensor.Value{x, some}) {
		t.Fatalf("a Pad that pads: prepared %v, %v", q, err)
	}
	if err := q.Run(nil, []tensor.Value{x, some}, make([]tensor.Value, 1)); !errors.Is(err, ops.ErrUnsupported) {
		t.Errorf("a declined node ran prepared: %v", err)
	}
	if got := out[0].(*tensor.Tensor); !slices.Equal(got.Shape(), []int{1, 1, 3, 4}) {
		t.Errorf("padded shape %v", got.Shape())
	}
}
