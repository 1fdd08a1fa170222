package ops

import (
	"errors"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestConstantAttributes(t *testing.T) {
	value := seq64(0, 2, 2)
	cases := []struct {
		attr Attribute
		name string
		want *tensor.Tensor
	}{
		{Attribute{Type: AttrTensor, Tensor: value}, "value", value},
		{Attribute{Type: AttrFloat, Float: 1.5}, "value_float", tensor.Scalar(float32(1.5))},
		{Attribute{Type: AttrFloats, Floats: []float32{1, 2}}, "value_floats", tensor.MustFromSlice([]float32{1, 2})},
		{Attribute{Type: AttrFloats}, "value_floats", tensor.MustFromSlice([]float32{})},
		{Attribute{Type: AttrInt, Int: -7}, "value_int", tensor.Scalar(int64(-7))},
		{Attribute{Type: AttrInts, Ints: []int64{3, 4, 5}}, "value_ints", tensor.MustFromSlice([]int64{3, 4, 5})},
		{Attribute{Type: AttrString, String: "héllo"}, "value_string", tensor.Scalar("héllo")},
		{Attribute{Type: AttrStrings, Strings: []string{"a", ""}}, "value_strings", tensor.MustFromSlice([]string{"a", ""})},
	}
	for _, c := range cases {
		for _, v := range []int{12, 13, 19, 21, 23, 24, 25} {
			out, err := runKernel(nil, "Constant", v, 1, map[string]Attribute{c.name: c.attr})
			if err != nil {
				t.Fatalf("Constant-%d %s: %v", v, c.name, err)
			}
			if y := out[0].(*tensor.Tensor); !y.Equal(c.want) {
				t.Fatalf("Constant-%d %s: got %s, want %s", v, c.name, y.Describe(), c.want.Describe())
			}
		}
	}
	// value alone in versions 1, 9 and 11; value_* only from 12.
	for _, v := range []int{1, 9, 11} {
		out, err := runKernel(nil, "Constant", v, 1, map[string]Attribute{"value": {Type: AttrTensor, Tensor: value}})
		if err != nil || out[0] != value {
			t.Fatalf("Constant-%d value: %v", v, err)
		}
		_, err = runKernel(nil, "Constant", v, 1, map[string]Attribute{"value_int": {Type: AttrInt, Int: 1}})
		wantRule(t, err, "attribute", "")
	}
}

func TestConstantRules(t *testing.T) {
	_, err := runKernel(nil, "Constant", 13, 1, nil)
	wantRule(t, err, "value", "")
	_, err = runKernel(nil, "Constant", 13, 1, map[string]Attribute{
		"value_int": {Type: AttrInt, Int: 1}, "value_float": {Type: AttrFloat, Float: 1}})
	wantRule(t, err, "value", "")
	_, err = runKernel(nil, "Constant", 13, 1, map[string]Attribute{"value_int": {Type: AttrFloat, Float: 1}})
	wantRule(t, err, "attribute", "")
	_, err = runKernel(nil, "Constant", 13, 1, map[string]Attribute{"value": {Type: AttrTensor}})
	wantRule(t, err, "value", "")
	_, err = runKernel(nil, "Constant", 13, 1, map[string]Attribute{"sparse_value": {Type: AttrSparse}})
	wantRule(t, err, "sparse_value", "")
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("sparse_value: %v does not wrap ErrUnsupported", err)
	}
	// The size limit applies to every form.
	small := &Options{MaxTensorBytes: 16}
	_, err = runKernel(small, "Constant", 13, 1, map[string]Attribute{"value": {Type: AttrTensor, Tensor: seq64(0, 3)}})
	wantRule(t, err, "size", "")
	_, err = runKernel(small, "Constant", 13, 1, map[string]Attribute{"value_ints": {Type: AttrInts, Ints: []int64{1, 2, 3}}})
	wantRule(t, err, "size", "")
	// The Go function: exactly one field.
	_, err = Constant(ConstantOptions{})
	wantRule(t, err, "value", "")
	one := int64(1)
	_, err = Constant(ConstantOptions{ValueInt: &one, ValueInts: []int64{}})
	wantRule(t, err, "value", "Constant-25 [value] exactly one value must be set, got value_int and value_ints")
	y, err := Constant(ConstantOptions{ValueInts: []int64{}})
	if err != nil || !slices.Equal(y.Shape(), []int{0}) {
		t.Fatalf("empty value_ints: %v %v", y, err)
	}
}
