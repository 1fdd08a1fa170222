package ops

// Helpers shared by the operator tests: random tensors of every type, node
// runs through the registry, exact-value builders and an index oracle.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// randomValidTensor returns a tensor of type dt and shape filled with random
// elements, each a valid bit pattern of dt (sub-byte and bool values in
// range; float bytes may be NaN, which Equal compares by bits).
func randomValidTensor(rng *rand.Rand, dt tensor.DataType, shape []int) *tensor.Tensor {
	n, err := tensor.NumElements(shape)
	if err != nil {
		panic(err)
	}
	if dt == tensor.String {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprintf("s%d", rng.IntN(1000))
		}
		t, err := tensor.FromSlice(s, shape...)
		if err != nil {
			panic(err)
		}
		return t
	}
	b := make([]byte, n*dt.Size())
	for i := range b {
		v := byte(rng.IntN(256))
		switch dt {
		case tensor.Bool:
			v &= 1
		case tensor.Uint4, tensor.Float4E2M1:
			v &= 0x0F
		case tensor.Int4:
			v = byte(int8(v&0x0F) - 8)
		case tensor.Uint2:
			v &= 3
		case tensor.Int2:
			v = byte(int8(v&3) - 2)
		}
		b[i] = v
	}
	t, err := tensor.FromBytes(dt, b, shape...)
	if err != nil {
		panic(err)
	}
	return t
}

// randomShape returns a shape of the given rank with dims in [lo, hi].
func randomShape(rng *rand.Rand, rank, lo, hi int) []int {
	s := make([]int, rank)
	for i := range s {
		s[i] = lo + rng.IntN(hi-lo+1)
	}
	return s
}

// typesUnderTest are the element types the type-agnostic tests run on: one
// of each storage size, plus the types that need care elsewhere.
var typesUnderTest = []tensor.DataType{
	tensor.String, tensor.Bool, tensor.Float8E4M3FN, tensor.Int4, tensor.Uint2,
	tensor.Float16, tensor.Float, tensor.Int64, tensor.Complex128,
}

// iota32 returns a float32 tensor of the given shape holding 0, 1, 2, ...
func iota32(shape ...int) *tensor.Tensor {
	n, _ := tensor.NumElements(shape)
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i)
	}
	return tensor.MustFromSlice(v, shape...)
}

// i64s returns a 1-D int64 tensor.
func i64s(v ...int64) *tensor.Tensor {
	if v == nil {
		v = []int64{}
	}
	return tensor.MustFromSlice(v)
}

// ints returns an ints attribute.
func ints(v ...int64) Attribute { return Attribute{Type: AttrInts, Ints: v} }

// intAttribute returns an int attribute.
func intAttribute(v int64) Attribute { return Attribute{Type: AttrInt, Int: v} }

// strAttribute returns a string attribute.
func strAttribute(s string) Attribute { return Attribute{Type: AttrString, String: s} }

// runNode runs operator name at opset version through the registry, as the
// graph runner does, and returns its single output.
func runNode(opt *Options, name string, version int, attrs map[string]Attribute, in ...*tensor.Tensor) (*tensor.Tensor, error) {
	s, err := Lookup("", name, version)
	if err != nil {
		return nil, err
	}
	values := make([]tensor.Value, len(in))
	for i, t := range in {
		if t != nil {
			values[i] = t
		}
	}
	out, err := s.Run(opt, &Node{OpType: name, Version: s.Since, Attrs: attrs, NumOutputs: 1}, values)
	if err != nil {
		return nil, err
	}
	if len(out) != 1 {
		return nil, fmt.Errorf("%d outputs, want 1", len(out))
	}
	return out[0].(*tensor.Tensor), nil
}

// checkRule fails the test unless err is an *Error of the given rule (or
// nil, when rule is "").
func checkRule(t *testing.T, err error, rule string) {
	t.Helper()
	if rule == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v, want an *ops.Error of rule %s", err, rule)
	}
	if e.Rule != rule {
		t.Fatalf("got rule %s (%v), want %s", e.Rule, err, rule)
	}
}

// checkFloats fails the test unless y is a float32 tensor of the given shape
// and values.
func checkFloats(t *testing.T, y *tensor.Tensor, shape []int, want []float32) {
	t.Helper()
	if !tensor.SameShape(y.Shape(), shape) {
		t.Fatalf("shape %v, want %v", y.Shape(), shape)
	}
	got, err := tensor.ToSlice[float32](y)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d values, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("value %d is %v, want %v\n got  %v\n want %v", i, got[i], want[i], got, want)
		}
	}
}

// gather is the test oracle of the data-movement operators: it returns a
// tensor of shape whose element i is element from[i] of x, computed one
// element at a time with no copy plan.
func gather(x *tensor.Tensor, shape []int, from []int) *tensor.Tensor {
	y := tensor.MustNew(x.DataType(), shape...)
	if x.DataType() == tensor.String {
		for i, j := range from {
			y.Strings()[i] = x.Strings()[j]
		}
		return y
	}
	size := x.DataType().Size()
	for i, j := range from {
		copy(y.Bytes()[i*size:(i+1)*size], x.Bytes()[j*size:(j+1)*size])
	}
	return y
}

// oracle returns gather(x, out, from) with from[i] = src(multi-index of i).
func oracle(x *tensor.Tensor, out []int, src func(idx []int) []int) *tensor.Tensor {
	n, _ := tensor.NumElements(out)
	from := make([]int, n)
	for i := range from {
		from[i] = flatIndex(src(multiIndex(i, out)), x.Shape())
	}
	return gather(x, out, from)
}

// unchanged fails the test if x no longer equals its clone c: operators
// never write into their inputs.
func unchanged(t *testing.T, x, c *tensor.Tensor) {
	t.Helper()
	if !x.Equal(c) {
		t.Fatalf("the operator modified its input")
	}
}
