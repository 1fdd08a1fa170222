package ops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/tensor"
)

// With K all zeros every score is equal, so each row of Y is the mean of
// the rows of V it may see: all of them, or under is_causal rows 0..i;
// a row whose keys are all masked out is 0.
func TestAttentionUniform(t *testing.T) {
	q := tensor.MustFromSlice([]float64{1, -2, 3, 4, -5, 6}, 1, 1, 3, 2)
	k := tensor.MustNew(tensor.Double, 1, 1, 3, 2)
	v := tensor.MustFromSlice([]float64{1, 2, 3, 4, 5, 6}, 1, 1, 3, 2)
	for _, tc := range []struct {
		o    AttentionOptions
		mask *tensor.Tensor
		want []float64
	}{
		{AttentionOptions{}, nil, []float64{3, 4, 3, 4, 3, 4}},
		{AttentionOptions{IsCausal: true}, nil, []float64{1, 2, 2, 3, 3, 4}},
		{AttentionOptions{}, tensor.MustFromSlice([]bool{false, false, false, true, true, false, false, false, true}, 3, 3), []float64{0, 0, 2, 3, 5, 6}},
		// A mask of two columns: the third key is masked out.
		{AttentionOptions{}, tensor.MustFromSlice([]float64{0, 0}, 1, 2), []float64{2, 3, 2, 3, 2, 3}},
	} {
		out, err := Attention(AttentionInputs{Q: q, K: k, V: v, AttnMask: tc.mask}, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := tensor.Data[float64](out.Y)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%+v mask %v: Y %v, want %v", tc.o, tc.mask, got, tc.want)
		}
	}
}

// 3-D inputs are the 4-D ones with the heads moved: the engine reads both
// in place and gives the same bits; grouped heads read their shared key
// and value head; present_key joins the past and K.
func TestAttentionLayouts(t *testing.T) {
	const batch, kvHeads, group, qSeq, kvSeq, head = 2, 2, 3, 5, 7, 4
	qHeads := kvHeads * group
	q4 := seqTensor(batch, qHeads, qSeq, head)
	k4 := seqTensor(batch, kvHeads, kvSeq, head)
	v4 := seqTensor(batch, kvHeads, kvSeq, head)
	to3 := func(x *tensor.Tensor) *tensor.Tensor {
		y, err := Transpose(x, TransposeOptions{Perm: []int{0, 2, 1, 3}})
		if err != nil {
			t.Fatal(err)
		}
		s := y.Shape()
		y, err = Reshape(y, ReshapeOptions{Shape: []int{s[0], s[1], s[2] * s[3]}})
		if err != nil {
			t.Fatal(err)
		}
		return y
	}
	out4, err := Attention(AttentionInputs{Q: q4, K: k4, V: v4}, AttentionOptions{IsCausal: true})
	if err != nil {
		t.Fatal(err)
	}
	out3, err := Attention(AttentionInputs{Q: to3(q4), K: to3(k4), V: to3(v4)}, AttentionOptions{IsCausal: true, QNumHeads: qHeads, KVNumHeads: kvHeads})
	if err != nil {
		t.Fatal(err)
	}
	if !to3(out4.Y).Equal(out3.Y) {
		t.Errorf("3-D and 4-D differ:\n%v\n%v", to3(out4.Y), out3.Y)
	}
	if !out3.PresentKey.Equal(k4) || !out4.PresentValue.Equal(v4) {
		t.Errorf("present without a past is K and V in 4-D")
	}
	// Each query head of a group equals the same head run alone against
	// its shared key and value head.
	for h := range qHeads {
		qh, _ := Slice(q4, SliceOptions{Starts: []int64{int64(h)}, Ends: []int64{int64(h) + 1}, Axes: []int64{1}})
		kh, _ := Slice(k4, SliceOptions{Starts: []int64{int64(h / group)}, Ends: []int64{int64(h/group) + 1}, Axes: []int64{1}})
		vh, _ := Slice(v4, SliceOptions{Starts: []int64{int64(h / group)}, Ends: []int64{int64(h/group) + 1}, Axes: []int64{1}})
		one, err := Attention(AttentionInputs{Q: qh, K: kh, V: vh}, AttentionOptions{IsCausal: true})
		if err != nil {
			t.Fatal(err)
		}
		yh, _ := Slice(out4.Y, SliceOptions{Starts: []int64{int64(h)}, Ends: []int64{int64(h) + 1}, Axes: []int64{1}})
		if !one.Y.Equal(yh) {
			t.Errorf("query head %d differs from its head alone", h)
		}
	}
}

func seqTensor(shape ...int) *tensor.Tensor {
	x := tensor.MustNew(tensor.Float, shape...)
	v, _ := tensor.Data[float32](x)
	for i := range v {
		v[i] = float32((i*7919)%23)/11 - 1
	}
	return x
}

// A 2,048-token attention (one head of 64) runs under a run budget of its
// inputs, output and a few tiles: a quarter of what its score matrix alone
// (16 MiB) would take. Asking for the scores (qk_matmul_output) is refused
// under the same budget.
func TestAttentionBoundedScratch(t *testing.T) {
	if testing.Short() {
		t.Skip("2,048 tokens")
	}
	const seq, head = 2048, 64
	q, k, v := seqTensor(1, 1, seq, head), seqTensor(1, 1, seq, head), seqTensor(1, 1, seq, head)
	budget := int64(4 << 20)
	var mu sync.Mutex // the workers charge at once
	var used int64
	// Two cores, whatever the machine's: every worker charges its tiles
	// and its own slot of the products' scratch.
	opt := &Options{Threads: 2, env: runenv.Env{Charge: func(n int64) error {
		mu.Lock()
		defer mu.Unlock()
		if used+n > budget {
			return fmt.Errorf("budget: %d + %d bytes above %d", used, n, budget)
		}
		used += n
		return nil
	}}}
	if _, err := runKernel(opt, "Attention", 23, 1, map[string]Attribute{"is_causal": {Type: AttrInt, Int: 1}}, q, k, v); err != nil {
		t.Fatal(err)
	}
	t.Logf("charged %d bytes", used)
	used = 0
	_, err := runKernel(opt, "Attention", 23, 4, nil, q, k, v)
	if !errors.Is(err, ErrLimit) {
		t.Errorf("scores under the budget: %v, want ErrLimit", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = runKernel(&Options{env: runenv.Env{Ctx: ctx}}, "Attention", 23, 1, nil, q, k, v)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// Every refusal is one line naming the operator, its version and the rule.
func TestAttentionRefusals(t *testing.T) {
	f := func(shape ...int) *tensor.Tensor { return tensor.MustNew(tensor.Float, shape...) }
	q, k := f(1, 2, 3, 4), f(1, 2, 5, 4)
	for _, tc := range []struct {
		rule string
		in   AttentionInputs
		o    AttentionOptions
	}{
		{"type", AttentionInputs{Q: tensor.MustNew(tensor.Int32, 1, 2, 3, 4), K: k, V: k}, AttentionOptions{}},
		{"type", AttentionInputs{Q: q, K: tensor.MustNew(tensor.Double, 1, 2, 5, 4), V: k}, AttentionOptions{}},
		{"rank", AttentionInputs{Q: q, K: f(1, 5, 8), V: f(1, 5, 8)}, AttentionOptions{}},
		{"heads", AttentionInputs{Q: f(1, 3, 8), K: f(1, 5, 8), V: f(1, 5, 8)}, AttentionOptions{}},
		{"heads", AttentionInputs{Q: f(1, 3, 8), K: f(1, 5, 8), V: f(1, 5, 8)}, AttentionOptions{QNumHeads: 3, KVNumHeads: 2}},
		{"heads", AttentionInputs{Q: f(1, 3, 3, 4), K: f(1, 2, 5, 4), V: f(1, 2, 5, 4)}, AttentionOptions{}},
		{"shape", AttentionInputs{Q: q, K: f(1, 2, 5, 3), V: k}, AttentionOptions{}},
		{"shape", AttentionInputs{Q: q, K: k, V: f(1, 2, 4, 4)}, AttentionOptions{}},
		{"past", AttentionInputs{Q: q, K: k, V: k, PastKey: f(1, 2, 1, 4)}, AttentionOptions{}},
		{"past", AttentionInputs{Q: q, K: k, V: k, PastKey: f(1, 2, 1, 4), PastValue: f(1, 2, 2, 4)}, AttentionOptions{}},
		{"mask", AttentionInputs{Q: q, K: k, V: k, AttnMask: f(3, 6)}, AttentionOptions{}},
		{"mask", AttentionInputs{Q: q, K: k, V: k, AttnMask: f(3, 3, 5)}, AttentionOptions{}},
		{"mask", AttentionInputs{Q: q, K: k, V: k, AttnMask: tensor.MustNew(tensor.Int64, 3, 5)}, AttentionOptions{}},
		{"nonpad_kv_seqlen", AttentionInputs{Q: q, K: k, V: k, NonpadKVSeqlen: tensor.MustFromSlice([]int64{6}, 1)}, AttentionOptions{}},
		{"nonpad_kv_seqlen", AttentionInputs{Q: q, K: k, V: k, NonpadKVSeqlen: tensor.MustFromSlice([]int32{5}, 1)}, AttentionOptions{}},
		{"qk_matmul_output_mode", AttentionInputs{Q: q, K: k, V: k}, AttentionOptions{QKMatMulOutputMode: 4}},
		{"softmax_precision", AttentionInputs{Q: q, K: k, V: k}, AttentionOptions{SoftmaxPrecision: 7}},
	} {
		_, err := Attention(tc.in, tc.o)
		wantRule(t, err, tc.rule, "")
		if !strings.HasPrefix(err.Error(), "Attention-24") || strings.Contains(err.Error(), "\n") {
			t.Errorf("refusal %q is not one line naming Attention-24", err)
		}
	}
	_, err := runKernel(nil, "Attention", 23, 1, nil, q, k, k, nil, nil, nil, tensor.MustFromSlice([]int64{5}, 1))
	wantRule(t, err, "nonpad_kv_seqlen", "")
}

// Under a small run cap, a 32K-token attention (8 heads of 64) is refused
// before any work, in milliseconds, when its output alone passes the cap,
// and when the output fits but the workers' scratch (tiles and one kv
// head's keys and values packed, some 16 MiB each) does not; what it
// charges never comes near the S*S score matrix (4 GiB a head).
func TestAttentionRefusedBeforeWork(t *testing.T) {
	if testing.Short() {
		t.Skip("32K tokens")
	}
	const seq, heads, head = 32768, 8, 64
	x := tensor.MustNew(tensor.Float, 1, heads, seq, head)
	out := int64(heads * seq * head * 4)
	for _, budget := range []int64{out / 2, out + 1<<20} {
		var mu sync.Mutex
		var used, refused int64
		opt := &Options{Threads: 2, env: runenv.Env{Charge: func(n int64) error {
			mu.Lock()
			defer mu.Unlock()
			if used+n > budget {
				refused = n
				return fmt.Errorf("budget: %d + %d bytes above %d", used, n, budget)
			}
			used += n
			return nil
		}}}
		start := time.Now()
		_, err := runKernel(opt, "Attention", 23, 1, map[string]Attribute{"is_causal": {Type: AttrInt, Int: 1}}, x, x, x)
		if !errors.Is(err, ErrLimit) {
			t.Fatalf("budget %d: %v, want ErrLimit", budget, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("budget %d: refused after %v, not before the work", budget, d)
		}
		if refused >= int64(seq)*seq*4 {
			t.Errorf("budget %d: asked for %d bytes, the score matrix's size", budget, refused)
		}
		t.Logf("budget %d: refused a charge of %d bytes after %d (%v)", budget, refused, used, time.Since(start))
	}
}

// Attention over a 2,048-token sequence, batch 1, 8 heads of 64 (float32):
//
//	go test ./ops -run '^$' -bench Attention2048 -benchtime 3x
func BenchmarkAttention2048(b *testing.B) {
	q, k, v := seqTensor(1, 8, 2048, 64), seqTensor(1, 8, 2048, 64), seqTensor(1, 8, 2048, 64)
	for _, causal := range []bool{false, true} {
		b.Run(fmt.Sprintf("causal=%v", causal), func(b *testing.B) {
			for b.Loop() {
				if _, err := Attention(AttentionInputs{Q: q, K: k, V: v}, AttentionOptions{IsCausal: causal}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
