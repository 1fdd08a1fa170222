package ops

import (
	"fmt"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// A rotation by a quarter turn (cos 0, sin 1) maps (x1, x2) to (-x2, x1),
// and by none (cos 1, sin 0) leaves the pair: exact values for halves and
// for interleaved pairs, with the elements past rotary_embedding_dim
// copied, in the 4-D and the 3-D layouts and through position_ids.
func TestRotaryEmbedding(t *testing.T) {
	// One batch, one head, two positions of a head of 6, 4 rotated.
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 1, 1, 2, 6)
	cos := tensor.MustFromSlice([]float32{0, 0, 1, 1}, 1, 2, 2)
	sin := tensor.MustFromSlice([]float32{1, 1, 0, 0}, 1, 2, 2)
	y, err := RotaryEmbedding(x, cos, sin, nil, RotaryEmbeddingOptions{RotaryEmbeddingDim: 4})
	if err != nil {
		t.Fatal(err)
	}
	// Halves (1, 2 | 3, 4): real = -x2 = (-3, -4), imag = x1 = (1, 2).
	want := tensor.MustFromSlice([]float32{-3, -4, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12}, 1, 1, 2, 6)
	if !y.Equal(want) {
		t.Errorf("halves: %v, want %v", y, want)
	}
	y, err = RotaryEmbedding(x, cos, sin, nil, RotaryEmbeddingOptions{RotaryEmbeddingDim: 4, Interleaved: true})
	if err != nil {
		t.Fatal(err)
	}
	// Pairs (1, 2), (3, 4): each (-x2, x1).
	want = tensor.MustFromSlice([]float32{-2, 1, -4, 3, 5, 6, 7, 8, 9, 10, 11, 12}, 1, 1, 2, 6)
	if !y.Equal(want) {
		t.Errorf("interleaved: %v, want %v", y, want)
	}
	// The same through position_ids picking rows of a [3, 2] cache (row
	// 2 a quarter turn, row 0 none), X 3-D with two heads of 2.
	x3 := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8}, 1, 2, 4)
	cache := tensor.MustFromSlice([]float32{1, 9, 0}, 3, 1)
	sinc := tensor.MustFromSlice([]float32{0, 9, 1}, 3, 1)
	pos := tensor.MustFromSlice([]int64{2, 0}, 1, 2)
	y, err = RotaryEmbedding(x3, cache, sinc, pos, RotaryEmbeddingOptions{NumHeads: 2})
	if err != nil {
		t.Fatal(err)
	}
	want = tensor.MustFromSlice([]float32{-2, 1, -4, 3, 5, 6, 7, 8}, 1, 2, 4)
	if !y.Equal(want) {
		t.Errorf("3-D with position_ids: %v, want %v", y, want)
	}
}

// Every refusal is one line naming the operator, its version and the rule.
func TestRotaryEmbeddingRefusals(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 1, 2, 3, 4)
	c := tensor.MustNew(tensor.Float, 1, 3, 2)
	for _, tc := range []struct {
		rule       string
		x, c, s, p *tensor.Tensor
		o          RotaryEmbeddingOptions
	}{
		{"type", tensor.MustNew(tensor.Double, 1, 2, 3, 4), c, c, nil, RotaryEmbeddingOptions{}},
		{"type", x, tensor.MustNew(tensor.Float16, 1, 3, 2), c, nil, RotaryEmbeddingOptions{}},
		{"rank", tensor.MustNew(tensor.Float, 2, 3), c, c, nil, RotaryEmbeddingOptions{}},
		{"num_heads", tensor.MustNew(tensor.Float, 1, 3, 8), c, c, nil, RotaryEmbeddingOptions{}},
		{"num_heads", tensor.MustNew(tensor.Float, 1, 3, 8), c, c, nil, RotaryEmbeddingOptions{NumHeads: 3}},
		{"rotary_embedding_dim", x, c, c, nil, RotaryEmbeddingOptions{RotaryEmbeddingDim: 6}},
		{"rotary_embedding_dim", x, c, c, nil, RotaryEmbeddingOptions{RotaryEmbeddingDim: 3}},
		{"cache", x, tensor.MustNew(tensor.Float, 1, 3, 3), c, nil, RotaryEmbeddingOptions{}},
		{"cache", x, c, c, tensor.MustNew(tensor.Int64, 1, 3), RotaryEmbeddingOptions{}},
		{"position_ids", x, tensor.MustNew(tensor.Float, 4, 2), tensor.MustNew(tensor.Float, 4, 2), tensor.MustNew(tensor.Int32, 1, 3), RotaryEmbeddingOptions{}},
		{"position_ids", x, tensor.MustNew(tensor.Float, 4, 2), tensor.MustNew(tensor.Float, 4, 2), tensor.MustFromSlice([]int64{0, 1, 4}, 1, 3), RotaryEmbeddingOptions{}},
	} {
		_, err := RotaryEmbedding(tc.x, tc.c, tc.s, tc.p, tc.o)
		wantRule(t, err, tc.rule, "")
		if !strings.HasPrefix(err.Error(), "RotaryEmbedding-23") || strings.Contains(err.Error(), "\n") {
			t.Errorf("refusal %q is not one line naming RotaryEmbedding-23", err)
		}
	}
	_, err := runKernel(nil, "RotaryEmbedding", 23, 1, map[string]Attribute{"interleaved": {Type: AttrInt, Int: 2}}, x, c, c)
	wantRule(t, err, "interleaved", "")
}

// RotaryEmbedding over x [8, 12, 1024, 64] (bench/opcases.go's large
// case), split halves and interleaved:
//
//	go test ./ops -run '^$' -bench RotaryEmbedding -benchtime 20x
func BenchmarkRotaryEmbedding(b *testing.B) {
	x := seqTensor(8, 12, 1024, 64)
	cos, sin := seqTensor(8, 1024, 32), seqTensor(8, 1024, 32)
	for _, interleaved := range []int64{0, 1} {
		b.Run(fmt.Sprintf("interleaved=%d", interleaved), func(b *testing.B) {
			attrs := map[string]Attribute{"interleaved": {Type: AttrInt, Int: interleaved}}
			for b.Loop() {
				if _, err := runKernel(&Options{Threads: 1}, "RotaryEmbedding", 23, 1, attrs, x, cos, sin); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// With the whole head rotated, halves, no position_ids and the 4-D
// layout, runs of rows take mathf.RotateRows: every element is still the
// pair's rotation in float64 rounded once, for heads whose half is a
// multiple of 8 (the vector loop) or not.
func TestRotaryEmbeddingRowRuns(t *testing.T) {
	for _, head := range []int{16, 64, 6} {
		b, h, s := 2, 3, 5
		half := head / 2
		xs := make([]float32, b*h*s*head)
		for i := range xs {
			xs[i] = float32((i*7919)%2001-1000) / 333
		}
		cs, ss := make([]float32, b*s*half), make([]float32, b*s*half)
		for i := range cs {
			cs[i], ss[i] = float32((i*104729)%2001-1000)/1000, float32((i*31)%2001-1000)/1000
		}
		x := tensor.MustFromSlice(xs, b, h, s, head)
		y, err := RotaryEmbedding(x, tensor.MustFromSlice(cs, b, s, half), tensor.MustFromSlice(ss, b, s, half), nil, RotaryEmbeddingOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := tensor.Data[float32](y)
		for bi := range b {
			for hi := range h {
				for si := range s {
					off, c := ((bi*h+hi)*s+si)*head, (bi*s+si)*half
					for i := range half {
						cv, sv := float64(cs[c+i]), float64(ss[c+i])
						x1, x2 := float64(xs[off+i]), float64(xs[off+half+i])
						if w1, w2 := float32(cv*x1-sv*x2), float32(sv*x1+cv*x2); got[off+i] != w1 || got[off+half+i] != w2 {
							t.Fatalf("head %d, row (%d, %d, %d), pair %d: %v, %v; want %v, %v", head, bi, hi, si, i, got[off+i], got[off+half+i], w1, w2)
						}
					}
				}
			}
		}
	}
}
