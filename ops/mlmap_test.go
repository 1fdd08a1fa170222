package ops_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The map operators' refusals, each one line naming the rule, and the
// cases where they follow the specification rather than onnxruntime
// (docs/divergences.md).
func TestMapOperatorsRefuse(t *testing.T) {
	ints := func(v ...int64) ops.Attribute { return ops.Attribute{Type: ops.AttrInts, Ints: v} }
	str := func(s string) ops.Attribute { return ops.Attribute{Type: ops.AttrString, String: s} }
	i64 := func(v int64) ops.Attribute { return ops.Attribute{Type: ops.AttrInt, Int: v} }
	strs := func(v ...string) ops.Attribute { return ops.Attribute{Type: ops.AttrStrings, Strings: v} }
	fm, _ := tensor.MapOf([]int64{2, 0}, []float32{1.5, 2})
	sm, _ := tensor.MapOf([]int64{0}, []string{"1.5abc"})
	dm, _ := tensor.MapOf([]string{"a", "z"}, []float32{1, 2})
	for _, c := range []struct {
		name  string
		op    string
		attrs map[string]ops.Attribute
		in    tensor.Value
		rule  string
		limit bool
	}{
		{"ZipMap: 3 columns, 2 labels", "ZipMap", map[string]ops.Attribute{"classlabels_int64s": ints(1, 2)}, tensor.MustNew(tensor.Float, 4, 3), "columns", false},
		{"ZipMap: a label twice", "ZipMap", map[string]ops.Attribute{"classlabels_int64s": ints(1, 1)}, tensor.MustNew(tensor.Float, 4, 2), "labels", false},
		{"ZipMap: both label lists", "ZipMap", map[string]ops.Attribute{"classlabels_int64s": ints(1), "classlabels_strings": strs("a")}, tensor.MustNew(tensor.Float, 1), "classlabels", false},
		{"ZipMap: double", "ZipMap", map[string]ops.Attribute{"classlabels_int64s": ints(1)}, tensor.MustNew(tensor.Double, 1), "type", false},
		{"ZipMap: a map", "ZipMap", map[string]ops.Attribute{"classlabels_int64s": ints(1)}, fm, "input", false},
		{"CastMap: max_map -1", "CastMap", map[string]ops.Attribute{"map_form": str("SPARSE"), "max_map": i64(-1)}, fm, "max_map", false},
		{"CastMap: max_map 2^40", "CastMap", map[string]ops.Attribute{"map_form": str("SPARSE"), "max_map": i64(1 << 40)}, fm, "size", true},
		{"CastMap: a key past max_map (onnxruntime drops it)", "CastMap", map[string]ops.Attribute{"map_form": str("SPARSE"), "max_map": i64(2)}, fm, "keys", false},
		{"CastMap: not a number (onnxruntime reads 1.5)", "CastMap", nil, sm, "cast", false},
		{"CastMap: TO_DOUBLE", "CastMap", map[string]ops.Attribute{"cast_to": str("TO_DOUBLE")}, fm, "cast_to", false},
		{"CastMap: a tensor", "CastMap", nil, tensor.MustNew(tensor.Float, 1), "input", false},
		{"DictVectorizer: a key outside the vocabulary (onnxruntime ignores it)", "DictVectorizer", map[string]ops.Attribute{"string_vocabulary": strs("a", "b")}, dm, "keys", false},
		{"DictVectorizer: a vocabulary of the other key type", "DictVectorizer", map[string]ops.Attribute{"int64_vocabulary": ints(1)}, dm, "vocabulary", false},
		{"DictVectorizer: map(int64, int64)", "DictVectorizer", map[string]ops.Attribute{"int64_vocabulary": ints(1)}, &tensor.Map{Keys: tensor.MustFromSlice([]int64{1}, 1), Values: tensor.MustFromSlice([]int64{1}, 1)}, "type", false},
		{"DictVectorizer: a repeated key", "DictVectorizer", map[string]ops.Attribute{"string_vocabulary": strs("a", "z")}, &tensor.Map{Keys: tensor.MustFromSlice([]string{"a", "a"}, 2), Values: tensor.MustFromSlice([]float32{1, 2}, 2)}, "keys", false},
	} {
		if strconv.IntSize == 32 && c.name == "CastMap: max_map 2^40" {
			// An int of 32 bits cannot hold the count: refused where
			// max_map is read, before the size cap is asked.
			c.rule, c.limit = "max_map", false
		}
		_, err := ops.Call(context.Background(), nil, ops.Node{OpType: c.op, Domain: "ai.onnx.ml", Attrs: c.attrs}, c.in)
		var e *ops.Error
		if !errors.As(err, &e) || e.Rule != c.rule || strings.Contains(err.Error(), "\n") || errors.Is(err, ops.ErrLimit) != c.limit {
			t.Errorf("%s: %v, want the rule %s", c.name, err, c.rule)
		}
	}
}
