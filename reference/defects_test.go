package reference_test

// Defects the mutation tests found (mutations_test.go), each pinned by the
// smallest case that showed it: a panic, a loop that did not stop, an
// output returned beside an error.

import (
	"context"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// GridSample over an image with an empty spatial axis: zeros padding reads
// 0 everywhere; border and reflection have no pixel to repeat and refuse,
// in both engines (they panicked, indexing pixel -1 or 0 of nothing).
func TestGridSampleEmptyImage(t *testing.T) {
	grid := tensor.MustFromSlice([]float32{0.1, 0.2, -0.5, 0.5}, 1, 1, 2, 2)
	for _, mode := range []string{"linear", "nearest", "cubic"} {
		for _, pad := range []string{"zeros", "border", "reflection"} {
			n := &ops.Node{OpType: "GridSample", Version: 22, NumOutputs: 1, Attrs: map[string]ops.Attribute{
				"mode": {Type: ops.AttrString, String: mode}, "padding_mode": {Type: ops.AttrString, String: pad}}}
			fast, ref := kernels(t, n)
			for name, k := range map[string]ops.Kernel{"fast": fast, "reference": ref} {
				x := tensor.MustNew(tensor.Float, 1, 1, 2, 0)
				out, err := k(nil, n, []tensor.Value{x, grid})
				if pad == "zeros" {
					if err != nil {
						t.Errorf("%s %s %s: %v, want zeros", name, mode, pad, err)
						continue
					}
					if y, _ := tensor.ToSlice[float32](out[0].(*tensor.Tensor)); len(y) != 2 || y[0] != 0 || y[1] != 0 {
						t.Errorf("%s %s %s: %v, want [0 0]", name, mode, pad, y)
					}
					continue
				}
				if err == nil || !strings.Contains(err.Error(), "[empty]") || out != nil {
					t.Errorf("%s %s %s: %v, %v; want the [empty] refusal and no output", name, mode, pad, out, err)
				}
			}
		}
	}
}

// TfIdfVectorizer with max_gram_length far beyond the row counts only the
// lengths that fit in it (it looped 2^40 times), and a cancelled run stops.
func TestTfIdfHugeGramLength(t *testing.T) {
	n := &ops.Node{OpType: "TfIdfVectorizer", Version: 9, NumOutputs: 1, Attrs: map[string]ops.Attribute{
		"mode":            {Type: ops.AttrString, String: "TF"},
		"min_gram_length": {Type: ops.AttrInt, Int: 1},
		"max_gram_length": {Type: ops.AttrInt, Int: 1 << 40},
		"max_skip_count":  {Type: ops.AttrInt, Int: 0},
		"ngram_counts":    {Type: ops.AttrInts, Ints: []int64{0, 2}},
		"ngram_indexes":   {Type: ops.AttrInts, Ints: []int64{0, 1, 2}},
		"pool_int64s":     {Type: ops.AttrInts, Ints: []int64{2, 3, 5, 4}},
	}}
	x := tensor.MustFromSlice([]int32{1, 2, 3, 5, 4, 2}, 6)
	_, ref := kernels(t, n)
	out, err := ref(nil, n, []tensor.Value{x})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := tensor.ToSlice[float32](out[0].(*tensor.Tensor)); len(got) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 1 {
		t.Fatalf("counts %v, want [2 1 1] (2 twice, 3 once, the bigram 5 4 once)", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ref(ops.NewOptions(ops.WithContext(ctx)), n, []tensor.Value{x}); err == nil {
		t.Fatal("a cancelled run returned no error")
	}
}

// Agree's bound for an STFT given only its signal and frame step (no
// window) when the engines differ: a report, not a panic (it read in[2]).
func TestAgreeSTFTWithoutWindow(t *testing.T) {
	n := &ops.Node{OpType: "STFT", Version: 17, NumOutputs: 1}
	in := []tensor.Value{tensor.MustNew(tensor.Float, 1, 16, 1), tensor.MustFromSlice([]int64{4})}
	a := tensor.MustFromSlice([]float32{1, 2, 3, 4}, 1, 1, 2, 2)
	b := tensor.MustFromSlice([]float32{1, 2, 3, 5}, 1, 1, 2, 2)
	if err := reference.Agree(n, in, []tensor.Value{a}, []tensor.Value{b}); err == nil {
		t.Fatal("different results agreed")
	}
}

// Identity refused by the run's cap returns the error and no output (it
// returned a one-element slice holding nil beside the error).
func TestIdentityRefusalHasNoOutput(t *testing.T) {
	n := &ops.Node{OpType: "Identity", Version: 21, NumOutputs: 1}
	_, ref := kernels(t, n)
	x := tensor.MustNew(tensor.Float, 1024)
	out, err := ref(ops.NewOptions(ops.WithMaxTensorBytes(16)), n, []tensor.Value{x})
	if err == nil || out != nil {
		t.Fatalf("%v, %v; want a refusal and no output", out, err)
	}
}
