package ops

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The examples of sonnx-unsqueeze.md: X is 0..23 of shape [2, 3, 4].
func TestUnsqueezeSONNXExamples(t *testing.T) {
	data := make([]int32, 24)
	for i := range data {
		data[i] = int32(i)
	}
	x := tensor.MustFromSlice(data, 2, 3, 4)
	cases := []struct {
		name string
		axes []int
		want []int
	}{
		{"example 1", []int{0}, []int{1, 2, 3, 4}},
		{"example 2", []int{-1}, []int{2, 3, 4, 1}},
		{"example 3", []int{0, 1}, []int{1, 1, 2, 3, 4}},
		{"example 4", []int{1, 2}, []int{2, 1, 1, 3, 4}},
	}
	for _, c := range cases {
		for _, prof := range []Profile{ProfileONNX, ProfileSONNX} {
			y, err := unsqueeze(&Options{Profile: prof}, opRef{"Unsqueeze", 25}, x, c.axes)
			if err != nil {
				t.Fatalf("%s (%v): %v", c.name, prof, err)
			}
			got, _ := tensor.ToSlice[int32](y)
			if !slices.Equal(y.Shape(), c.want) || !slices.Equal(got, data) {
				t.Errorf("%s: got %v %v, want shape %v and the same elements", c.name, y.Shape(), got, c.want)
			}
			if !y.SharesStorage(x) {
				t.Errorf("%s: Unsqueeze must return a view", c.name)
			}
		}
	}
}

func TestUnsqueezeConstraints(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 3, 4, 5)
	cases := []struct {
		axes    []int
		version int
		prof    Profile
		want    string
	}{
		{[]int{1, -4}, 13, ProfileONNX, "Unsqueeze-13 A [C2] axis 1 designated twice (1 and -4)"},
		{[]int{0, 0}, 25, ProfileONNX, "Unsqueeze-25 A [C2] axis 0 designated twice (0 and 0)"},
		{[]int{4}, 13, ProfileONNX, "Unsqueeze-13 A [C1] axis 4 is outside [-4, 3] (output rank 4)"},
		{[]int{-5}, 13, ProfileONNX, "Unsqueeze-13 A [C1] axis -5 is outside [-4, 3] (output rank 4)"},
		{[]int{-1}, 1, ProfileONNX, "Unsqueeze-1 A [C1] axis -1 is outside [0, 3] (output rank 4)"},
		{nil, 25, ProfileSONNX, "Unsqueeze-25 [axes] the profile needs at least one axis"},
	}
	for _, c := range cases {
		_, err := unsqueeze(&Options{Profile: c.prof}, opRef{"Unsqueeze", c.version}, x, c.axes)
		var oe *Error
		if err == nil || err.Error() != c.want || !errors.As(err, &oe) {
			t.Errorf("axes %v: got %v, want %q", c.axes, err, c.want)
		}
	}
	// ONNX itself allows an empty axes list: the output is the input.
	if y, err := Unsqueeze(x, UnsqueezeOptions{}); err != nil || !slices.Equal(y.Shape(), x.Shape()) {
		t.Errorf("empty axes: %v %v", y, err)
	}
}

func TestUnsqueezeNodeVersions(t *testing.T) {
	x := tensor.MustFromSlice([]string{"a", "b"})
	// Versions 1 and 11: axes is an attribute.
	for _, v := range []int{1, 11} {
		s, err := Lookup("", "Unsqueeze", v)
		if err != nil {
			t.Fatal(err)
		}
		n := &Node{OpType: "Unsqueeze", Version: s.Since, Attrs: map[string]Attribute{"axes": {Type: AttrInts, Ints: []int64{0, 2}}}}
		out, err := s.Run(nil, n, []tensor.Value{x})
		if err != nil {
			t.Fatal(err)
		}
		if y := out[0].(*tensor.Tensor); !slices.Equal(y.Shape(), []int{1, 2, 1}) {
			t.Errorf("v%d: shape %v", v, y.Shape())
		}
		if _, err := s.Run(nil, &Node{OpType: "Unsqueeze", Version: s.Since}, []tensor.Value{x}); err == nil {
			t.Errorf("v%d without axes must fail", v)
		}
	}
	// From 13: axes is an int64 input, 1-D.
	s, _ := Lookup("", "Unsqueeze", 25)
	n := &Node{OpType: "Unsqueeze", Version: s.Since}
	out, err := s.Run(nil, n, []tensor.Value{x, tensor.MustFromSlice([]int64{-1})})
	if err != nil || !slices.Equal(out[0].(*tensor.Tensor).Shape(), []int{2, 1}) {
		t.Fatalf("v25: %v %v", out, err)
	}
	for _, bad := range []*tensor.Tensor{
		tensor.MustFromSlice([]int32{0}),
		tensor.MustFromSlice([]int64{0, 1}, 1, 2),
	} {
		if _, err := s.Run(nil, n, []tensor.Value{x, bad}); err == nil {
			t.Errorf("axes %s must be refused", bad.Describe())
		}
	}
	if _, err := s.Run(nil, n, []tensor.Value{x}); err == nil {
		t.Error("missing axes input must be refused")
	}
	// The profile wants a 1-D axes tensor; ONNX also takes a scalar.
	if _, err := s.Run(&Options{Profile: ProfileSONNX}, n, []tensor.Value{x, tensor.Scalar(int64(0))}); err == nil {
		t.Error("a scalar axes input is outside the profile")
	}
	if _, err := s.Run(nil, n, []tensor.Value{x, tensor.Scalar(int64(0))}); err != nil {
		t.Errorf("a scalar axes input: %v", err)
	}
}

// Unsqueeze keeps every element in place: the data is identical and the
// shape is the input's with 1s inserted, for random shapes and axes.
func TestUnsqueezeProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 500; i++ {
		shape := make([]int, r.IntN(5))
		for k := range shape {
			shape[k] = r.IntN(4)
		}
		rY := len(shape) + 1 + r.IntN(3)
		positions := r.Perm(rY)[:rY-len(shape)]
		axes := make([]int, len(positions))
		for k, p := range positions {
			axes[k] = p
			if r.IntN(2) == 0 {
				axes[k] = p - rY
			}
		}
		x := randomTensor(r, tensor.AllTypes()[r.IntN(len(tensor.AllTypes()))], shape)
		y, err := Unsqueeze(x, UnsqueezeOptions{Axes: axes})
		if err != nil {
			t.Fatalf("shape %v axes %v: %v", shape, axes, err)
		}
		var kept []int
		for k, d := range y.Shape() {
			if slices.Contains(positions, k) {
				if d != 1 {
					t.Fatalf("shape %v axes %v: output %v has %d at an inserted axis", shape, axes, y.Shape(), d)
				}
				continue
			}
			kept = append(kept, d)
		}
		if !slices.Equal(kept, shape) || !y.SharesStorage(x) && x.Len() > 0 {
			t.Fatalf("shape %v axes %v: output %v", shape, axes, y.Shape())
		}
		flat, _ := y.View(x.Shape()...)
		if !flat.Equal(x) {
			t.Fatal("data changed")
		}
	}
}
