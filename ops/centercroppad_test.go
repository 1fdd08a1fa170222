package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The cases of the ONNX node tests (shapes and axes), against the
// element-by-element definition: the window starts at floor((d-s)/2) in the
// input when cropping, the input at floor((s-d)/2) in the output when
// padding.
func TestCenterCropPadCases(t *testing.T) {
	cases := []struct {
		name  string
		in    []int
		o     CenterCropPadOptions
		shape []int
	}{
		{"crop", []int{20, 10, 3}, CenterCropPadOptions{Shape: []int{10, 7, 3}}, []int{10, 7, 3}},
		{"pad", []int{10, 7, 3}, CenterCropPadOptions{Shape: []int{20, 10, 3}}, []int{20, 10, 3}},
		{"crop and pad", []int{20, 8, 3}, CenterCropPadOptions{Shape: []int{10, 10, 3}}, []int{10, 10, 3}},
		{"crop axes chw", []int{3, 20, 8}, CenterCropPadOptions{Shape: []int{10, 9}, Axes: []int{1, 2}}, []int{3, 10, 9}},
		{"crop axes hwc", []int{20, 8, 3}, CenterCropPadOptions{Shape: []int{10, 9}, Axes: []int{0, 1}}, []int{10, 9, 3}},
		{"negative axes hwc", []int{20, 8, 3}, CenterCropPadOptions{Shape: []int{10, 9}, Axes: []int{-3, -2}}, []int{10, 9, 3}},
		{"axes in any order", []int{20, 8, 3}, CenterCropPadOptions{Shape: []int{9, 10}, Axes: []int{1, 0}}, []int{10, 9, 3}},
		{"odd crop and odd pad", []int{5, 2}, CenterCropPadOptions{Shape: []int{2, 5}}, []int{2, 5}},
		{"to nothing", []int{4, 3}, CenterCropPadOptions{Shape: []int{0}, Axes: []int{0}}, []int{0, 3}},
		{"from nothing", []int{0, 3}, CenterCropPadOptions{Shape: []int{3}, Axes: []int{0}}, []int{3, 3}},
		{"no axes", []int{2, 3}, CenterCropPadOptions{Shape: []int{}, Axes: []int{}}, []int{2, 3}},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range cases {
		for _, dt := range []tensor.DataType{tensor.Float, tensor.String, tensor.Int4, tensor.Complex128} {
			x := randomOf(rng, dt, c.in)
			before := x.Clone()
			y, err := CenterCropPad(x, c.o)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			wantElements(t, y, x, c.shape, func(idx []int) []int {
				src := make([]int, len(idx))
				for k, i := range idx {
					d, s := c.in[k], c.shape[k]
					if s <= d {
						src[k] = i + (d-s)/2
						continue
					}
					src[k] = i - (s-d)/2
					if src[k] < 0 || src[k] >= d {
						return nil // padding
					}
				}
				return src
			})
			if !x.Equal(before) {
				t.Fatalf("%s: CenterCropPad modified its input", c.name)
			}
		}
	}
}

// Exact values: odd differences leave the extra element at the end.
func TestCenterCropPadValues(t *testing.T) {
	y, err := CenterCropPad(seq64(1, 5), CenterCropPadOptions{Shape: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, y, []int{2}, []int64{2, 3})
	y, err = CenterCropPad(seq64(1, 2), CenterCropPadOptions{Shape: []int{5}})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, y, []int{5}, []int64{0, 1, 2, 0, 0})
	y, err = CenterCropPad(seq64(1, 3, 3), CenterCropPadOptions{Shape: []int{1, 5}})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, y, []int{1, 5}, []int64{0, 4, 5, 6, 0})
}

func TestCenterCropPadNode(t *testing.T) {
	x := seq64(1, 4, 4)
	out, err := runKernel(nil, "CenterCropPad", 18, 1, map[string]Attribute{"axes": {Type: AttrInts, Ints: []int64{-1}}},
		x, tensor.MustFromSlice([]int32{2}))
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, out[0], []int{4, 2}, []int64{2, 3, 6, 7, 10, 11, 14, 15})
	cases := []struct {
		name  string
		attrs map[string]Attribute
		shape *tensor.Tensor
		rule  string
		text  string
	}{
		{"one entry per axis", nil, list64(2), "shape", "CenterCropPad-18 [shape] shape has 1 entries for 2 axes"},
		{"negative length", nil, list64(2, -1), "shape", "CenterCropPad-18 [shape] shape[1] = -1 is negative"},
		{"shape is 1-D", nil, tensor.MustFromSlice([]int64{2, 2}, 1, 2), "shape", ""},
		{"shape is an integer", nil, tensor.MustFromSlice([]float32{2, 2}), "shape", ""},
		{"axis out of range", map[string]Attribute{"axes": {Type: AttrInts, Ints: []int64{2}}}, list64(2), "axes",
			"CenterCropPad-18 [axes] axis 2 is outside [-2, 1] (input rank 2)"},
		{"axis twice", map[string]Attribute{"axes": {Type: AttrInts, Ints: []int64{1, -1}}}, list64(2, 2), "axes",
			"CenterCropPad-18 [axes] axis 1 designated twice (1 and -1)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := runKernel(nil, "CenterCropPad", 18, 1, c.attrs, x, c.shape)
			wantRule(t, err, c.rule, c.text)
		})
	}
	_, err = centerCropPad(&Options{MaxTensorBytes: 1000}, opRef{"CenterCropPad", 18}, x, CenterCropPadOptions{Shape: []int{100, 100}})
	wantRule(t, err, "size", "")
}
