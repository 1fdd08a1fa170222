//go:build ort

package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestAttention2048Timing measures Attention-23 over a 2,048-token
// sequence (batch 1, 8 heads of 64, float32, causal and not) in onnxshape
// and onnxruntime at 1 and 2 threads, in five rounds of turns (so that the
// ratio meets the shared machine's drift on both sides), and checks that
// the outputs agree; it logs onnxshape's heap bytes per run beside. It
// runs only with ATTENTION_BENCH=1 (it takes a minute):
//
//	cd bench/ort && ATTENTION_BENCH=1 go test -tags ort -run Attention2048Timing -timeout 30m -v .
func TestAttention2048Timing(t *testing.T) {
	if os.Getenv("ATTENTION_BENCH") == "" {
		t.Skip("set ATTENTION_BENCH=1")
	}
	const seq, heads, head = 2048, 8, 64
	for _, causal := range []int{0, 1} {
		b := builder.New(23)
		q := b.Input("Q", tensor.Float, 1, heads, seq, head)
		k := b.Input("K", tensor.Float, 1, heads, seq, head)
		v := b.Input("V", tensor.Float, 1, heads, seq, head)
		b.Output("Y", b.Op("Attention", q, k, v, builder.Int("is_causal", causal)))
		model, err := b.Encode()
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "attention_2048")
		if err := os.MkdirAll(filepath.Join(dir, "test_data_set_0"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "model.onnx"), model, 0o644); err != nil {
			t.Fatal(err)
		}
		for i, name := range []string{"Q", "K", "V"} {
			x := make([]float32, heads*seq*head)
			for j := range x {
				x[j] = float32((j*(7919+i*13))%101)/50 - 1
			}
			data, err := onnx.EncodeValue(tensor.MustFromSlice(x, 1, heads, seq, head), name)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "test_data_set_0", "input_"+string(rune('0'+i))+".pb"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		c, err := bench.ReadCase(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{1, 2} {
			r := measureCase(c, threads, 5, bench.MeasureOptions{Runs: 5})
			if r.ours.Err != nil || r.ortErr != nil {
				t.Fatalf("onnxshape: %v, onnxruntime: %v", r.ours.Err, r.ortErr)
			}
			check := differential(c, r.ours, r.ortOutputs, nil)
			t.Logf("causal=%d threads=%d: onnxshape median %.1f ms (min %.1f), onnxruntime median %.1f ms (min %.1f), ratio %.2f (min %.2f); onnxshape heap %.1f MB per run; outputs: %s",
				causal, threads, ms(r.ours.Stats.Median), ms(r.ours.Stats.Min), ms(r.ort.Median), ms(r.ort.Min),
				float64(r.ours.Stats.Median)/float64(r.ort.Median), float64(r.ours.Stats.Min)/float64(r.ort.Min),
				r.ours.Stats.BytesPerRun/1e6, check)
			for _, o := range r.ortOutputs {
				destroyValue(o)
			}
		}
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
