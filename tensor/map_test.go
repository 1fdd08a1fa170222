package tensor_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestMapOf(t *testing.T) {
	m, err := tensor.MapOf([]int64{3, 1, 2}, []float32{0.5, 0.25, 0.25})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Describe(); got != "map(int64,tensor(float))[3 entries]" {
		t.Errorf("Describe: %s", got)
	}
	// Insertion order, not key order.
	if k := m.Int64Keys(); k[0] != 3 || k[1] != 1 || k[2] != 2 || m.StringKeys() != nil {
		t.Errorf("keys %v", k)
	}
	s, err := tensor.MapOf([]string{"b", "a"}, []string{"x", "y"})
	if err != nil {
		t.Fatal(err)
	}
	if s.KeyType() != tensor.String || s.ValueType() != tensor.String || s.KeyString(1) != "a" || s.Int64Keys() != nil {
		t.Errorf("%s", s.Describe())
	}
	seq := &tensor.MapSequence{KeyType: tensor.Int64, ValueType: tensor.Float, Items: []*tensor.Map{m}}
	if err := seq.Check(); err != nil || seq.Describe() != "seq(map(int64,tensor(float)))[1 items]" {
		t.Errorf("%v %s", err, seq.Describe())
	}
	seq.Items = append(seq.Items, s)
	if err := seq.Check(); !errors.Is(err, tensor.ErrType) {
		t.Errorf("a string map in a sequence of int64 maps: %v", err)
	}
}

func TestMapRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		m    func() (*tensor.Map, error)
		want string
	}{
		{"repeated key", func() (*tensor.Map, error) { return tensor.MapOf([]int64{1, 2, 1}, []float32{1, 2, 3}) }, "map keys 0 and 2 are both 1"},
		{"float keys", func() (*tensor.Map, error) {
			return tensor.NewMap(tensor.MustFromSlice([]float32{1}, 1), tensor.MustFromSlice([]float32{1}, 1))
		}, "keys of float"},
		{"lengths", func() (*tensor.Map, error) {
			return tensor.NewMap(tensor.MustFromSlice([]int64{1, 2}, 2), tensor.MustFromSlice([]float32{1}, 1))
		}, "one length"},
		{"rank 2", func() (*tensor.Map, error) {
			return tensor.NewMap(tensor.MustFromSlice([]int64{1, 2}, 1, 2), tensor.MustFromSlice([]float32{1, 2}, 1, 2))
		}, "1-D"},
		{"no values", func() (*tensor.Map, error) { return tensor.NewMap(tensor.MustFromSlice([]int64{1}, 1), nil) }, "without keys or values"},
	} {
		_, err := c.m()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	var nilMap *tensor.Map
	if nilMap.Check() == nil || nilMap.Len() != 0 || nilMap.Describe() != "<nil map>" {
		t.Error("nil map")
	}
}
