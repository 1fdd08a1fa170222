package reference_test

import (
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// Agree holds maps and sequences of maps (ZipMap, CastMap's input) to the
// same entries in the same order, exactly, and reports where they differ.
func TestAgreeMaps(t *testing.T) {
	mapOf := func(keys []int64, values []float32) *tensor.Map {
		m, err := tensor.MapOf(keys, values)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	seq := func(items ...*tensor.Map) *tensor.MapSequence {
		return &tensor.MapSequence{KeyType: tensor.Int64, ValueType: tensor.Float, Items: items}
	}
	a := mapOf([]int64{1, 2}, []float32{0.25, 0.75})
	n := &ops.Node{OpType: "ZipMap", Domain: "ai.onnx.ml", Version: 1}
	for _, c := range []struct {
		name      string
		fast, ref tensor.Value
		want      string // "" when the results agree
	}{
		{"same map", mapOf([]int64{1, 2}, []float32{0.25, 0.75}), a, ""},
		{"other keys", mapOf([]int64{1, 3}, []float32{0.25, 0.75}), a, "the keys differ"},
		{"other keys order", mapOf([]int64{2, 1}, []float32{0.75, 0.25}), a, "the keys differ"},
		{"other value", mapOf([]int64{1, 2}, []float32{0.25, 0.5}), a, "the values differ at entry"},
		{"a tensor for a map", f32(0.25, 0.75), a, "fast"},
		{"a broken map", &tensor.Map{Keys: int64s(1, 1), Values: f32(0.25, 0.75)}, a, "fast"},
		{"same sequence", seq(mapOf([]int64{1, 2}, []float32{0.25, 0.75})), seq(a), ""},
		{"sequence of another length", seq(), seq(a), "fast"},
		{"sequence item differs", seq(mapOf([]int64{1, 2}, []float32{0.5, 0.75})), seq(a), "item 0: the values differ"},
		{"a map for a sequence", a, seq(a), "fast"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := reference.Agree(n, nil, []tensor.Value{c.fast}, []tensor.Value{c.ref})
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("got %v, want agreement", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want an error holding %q", err, c.want)
			}
		})
	}
}
