package ops

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// Helpers of the tests of Concat, Split, Slice, CenterCropPad, Identity and
// Constant.

// runKernel runs operator name at opset version through the registry, as the
// graph runner does, with a node that declares outputs outputs.
func runKernel(opt *Options, name string, version, outputs int, attrs map[string]Attribute, in ...tensor.Value) ([]tensor.Value, error) {
	s, err := Lookup("", name, version)
	if err != nil {
		return nil, err
	}
	return s.Run(opt, &Node{OpType: name, Version: s.Since, Attrs: attrs, NumOutputs: outputs}, in)
}

// wantRule fails the test unless err is an *Error of rule whose text is
// text (any text when text is "").
func wantRule(t *testing.T, err error, rule, text string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v, want an *ops.Error of rule %s", err, rule)
	}
	if e.Rule != rule || (text != "" && err.Error() != text) {
		t.Fatalf("got %q (rule %s), want rule %s %q", err, e.Rule, rule, text)
	}
}

// wantInt64s fails the test unless y is an int64 tensor of shape and values.
func wantInt64s(t *testing.T, y tensor.Value, shape []int, want []int64) {
	t.Helper()
	yt, ok := y.(*tensor.Tensor)
	if !ok {
		t.Fatalf("got %s, want a tensor", y.Describe())
	}
	got, err := tensor.ToSlice[int64](yt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(yt.Shape(), shape) || !slices.Equal(got, want) {
		t.Fatalf("got %v %v, want %v %v", yt.Shape(), got, shape, want)
	}
}

// seq64 returns an int64 tensor of shape holding from, from+1, ...
func seq64(from int64, shape ...int) *tensor.Tensor {
	n, _ := tensor.NumElements(shape)
	v := make([]int64, n)
	for i := range v {
		v[i] = from + int64(i)
	}
	return tensor.MustFromSlice(v, shape...)
}

// fill64 returns an int64 tensor of shape holding v everywhere.
func fill64(v int64, shape ...int) *tensor.Tensor {
	n, _ := tensor.NumElements(shape)
	return tensor.MustFromSlice(slices.Repeat([]int64{v}, n), shape...)
}

// movementTypes are element types of every storage size, strings and the
// sub-byte types included.
var movementTypes = []tensor.DataType{
	tensor.String, tensor.Bool, tensor.Uint8, tensor.Int4, tensor.Uint2, tensor.Float4E2M1,
	tensor.Float8E5M2, tensor.Float16, tensor.BFloat16, tensor.Float, tensor.Int32,
	tensor.Double, tensor.Int64, tensor.Complex64, tensor.Complex128,
}

// randomOf returns a tensor of type dt and shape with random valid elements,
// every element distinct where the type has room for it.
func randomOf(rng *rand.Rand, dt tensor.DataType, shape []int) *tensor.Tensor {
	x := tensor.MustNew(dt, shape...)
	if dt == tensor.String {
		for i := range x.Strings() {
			x.Strings()[i] = string(rune('a'+rng.IntN(26))) + string(rune('a'+i%26))
		}
		return x
	}
	b := x.Bytes()
	switch dt {
	case tensor.Bool, tensor.Uint2, tensor.Int2:
		for i := range b {
			b[i] = byte(rng.IntN(2))
		}
	case tensor.Uint4, tensor.Int4, tensor.Float4E2M1:
		for i := range b {
			b[i] = byte(rng.IntN(8))
		}
	default:
		for i := range b {
			b[i] = byte(rng.IntN(120)) // no NaN patterns in the float8 types
		}
	}
	return x
}

// elementAt returns element i of x as a comparable value: the string, or
// the bytes of the element.
func elementAt(x *tensor.Tensor, i int) string {
	if x.DataType() == tensor.String {
		return x.Strings()[i]
	}
	size := x.DataType().Size()
	return string(x.Bytes()[i*size : (i+1)*size])
}

// flatIndex returns the row-major flat index of idx in shape.
func flatIndex(idx, shape []int) int {
	i := 0
	for k, n := range shape {
		i = i*n + idx[k]
	}
	return i
}

// multiIndex returns the multi-index of flat index i in shape.
func multiIndex(i int, shape []int) []int {
	idx := make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		idx[k] = i % shape[k]
		i /= shape[k]
	}
	return idx
}

// wantElements fails the test unless y has shape and its element at every
// index idx equals element src(idx) of x (src returns nil for "zero").
func wantElements(t *testing.T, y, x *tensor.Tensor, shape []int, src func(idx []int) []int) {
	t.Helper()
	if y.DataType() != x.DataType() || !slices.Equal(y.Shape(), shape) {
		t.Fatalf("got %s, want tensor(%v)%v", y.Describe(), x.DataType(), shape)
	}
	zero := tensor.MustNew(x.DataType(), 1)
	for i := 0; i < y.Len(); i++ {
		idx := multiIndex(i, shape)
		want := elementAt(zero, 0)
		if s := src(idx); s != nil {
			want = elementAt(x, flatIndex(s, x.Shape()))
		}
		if got := elementAt(y, i); got != want {
			t.Fatalf("element %v is %q, want %q", idx, got, want)
		}
	}
}

// list64 returns a 1-D int64 tensor holding v.
func list64(v ...int64) *tensor.Tensor {
	return tensor.MustFromSlice(append([]int64{}, v...))
}

// randomTensor returns a tensor of random bits (random strings for String).
func randomTensor(r *rand.Rand, dt tensor.DataType, shape []int) *tensor.Tensor {
	x := tensor.MustNew(dt, shape...)
	if dt == tensor.String {
		s := x.Strings()
		for i := range s {
			s[i] = fmt.Sprint(r.IntN(1000))
		}
		return x
	}
	b := x.Bytes()
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return x
}
