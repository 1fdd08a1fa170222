package main

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func previewString(v tensor.Value) string {
	var b bytes.Buffer
	preview(&b, v)
	return b.String()
}

// Where the windows are numpy's, the preview is tensor.Format's text.
func TestPreviewMatchesFormat(t *testing.T) {
	for _, x := range []*tensor.Tensor{
		tensor.MustFromSlice([]float32{1, 2.5, 3, 4, 5, 6}, 2, 3),
		tensor.Scalar(int64(-7)),
		tensor.MustFromSlice([]bool{true, false}),
		tensor.MustFromSlice([]string{"a", "b c"}),
		tensor.MustNew(tensor.Uint8, 1, 4, 6, 6),
		tensor.MustNew(tensor.Uint8, 1, 4, 12, 12),
		tensor.MustNew(tensor.Float, 2, 0),
		tensor.MustNew(tensor.Int32, 2000),
		tensor.MustNew(tensor.Float16, 10, 10),
		tensor.MustFromSlice([]tensor.I4{-8, 7, 1}),
		tensor.MustFromSlice([]complex64{1 + 2i, -3}),
		tensor.MustFromSlice([]uint64{1 << 63}),
		tensor.MustNew(tensor.Float8E4M3FN, 3, 30),
	} {
		var sb strings.Builder
		x.Format(&sb, x.Len() > previewElements)
		want := x.Describe() + "\n" + sb.String() + "\n"
		if got := previewString(x); got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", x.Describe(), got, want)
		}
	}
}

func TestPreviewBounded(t *testing.T) {
	shape := []int{6, 6, 6, 6, 6, 6, 6, 6, 6, 6}
	big := tensor.MustNew(tensor.Uint8, shape...)
	got := previewString(big)
	if lines := strings.Count(got, "\n"); lines > 100 || len(got) > 4096 {
		t.Errorf("[6]^10: %d lines, %d bytes:\n%s", lines, len(got), got)
	}
	if !strings.HasPrefix(got, "tensor(uint8)[6 6 6 6 6 6 6 6 6 6]\n[[[[[[[[[[0 0 0 0 0 0]") || !strings.Contains(got, "...") {
		t.Errorf("[6]^10 preview:\n%s", got)
	}
	// Rank 2000 of ones: one element, no elision needed.
	ones := make([]int, 2000)
	for i := range ones {
		ones[i] = 1
	}
	if got := previewString(tensor.MustNew(tensor.Uint8, ones...)); !strings.Contains(got, strings.Repeat("[", 2000)+"0"+strings.Repeat("]", 2000)) {
		t.Errorf("rank 2000 of ones: %.100s", got)
	}
	// No element, axes of 2^62 on 64 bits (ConstantOfShape [2^63-1,
	// 2^63-1, 0] in the second hostile-file audit printed until memory ran out).
	wide := math.MaxInt / 2
	empty, err := tensor.New(tensor.Float, wide, wide, 0)
	if err != nil {
		t.Fatalf("tensor.New [%d, %d, 0]: %v", wide, wide, err)
	}
	if got := previewString(empty); len(got) > 400 || !strings.Contains(got, "[[]") {
		t.Errorf("an empty tensor with long axes: %.300s", got)
	}
	long := tensor.MustFromSlice([]string{strings.Repeat("x", 4<<20), ""})
	if got := previewString(long); len(got) > 200 || !strings.Contains(got, `...(4194304 bytes)`) {
		t.Errorf("a 4 MiB string: %.300s", got)
	}
	items := make([]*tensor.Tensor, 100000)
	for i := range items {
		items[i] = tensor.Scalar(float32(i))
	}
	seq := &tensor.Sequence{ElemType: tensor.Float, Items: items}
	if got := previewString(seq); strings.Count(got, "\n") > 20 || !strings.Contains(got, "[99999] tensor(float)[]\n99999") {
		t.Errorf("a sequence of 100000 items:\n%s", got)
	}
}

func TestPreviewWindows(t *testing.T) {
	ws := previewWindows([]int{6, 6, 6, 6, 6}, 6*6*6*6*6)
	total := 1
	for _, w := range ws {
		total *= w.shown()
	}
	if total > previewShown || ws[len(ws)-1] != (window{head: 6}) {
		t.Errorf("windows %v show %d elements", ws, total)
	}
	if ws := previewWindows([]int{4, 4}, 16); ws[0] != (window{head: 4}) || ws[1] != (window{head: 4}) {
		t.Errorf("a small tensor is shown whole: %v", ws)
	}
}
