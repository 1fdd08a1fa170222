package attention

import (
	"fmt"
	"testing"
)

// Attention over a 2,048-token sequence, batch 1, 8 heads of 64
// (float32), at 1 and 2 threads, causal and not:
//
//	go test ./ops/internal/attention -run '^$' -bench Run2048 -benchtime 3x
func BenchmarkRun2048(b *testing.B) {
	const heads, seq, d = 8, 2048, 64
	fill := func(n, salt int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32((i*(7919+salt*13))%101)/50 - 1
		}
		return v
	}
	q, k, v := fill(heads*seq*d, 0), fill(heads*seq*d, 1), fill(heads*seq*d, 2)
	for _, causal := range []bool{false, true} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("causal=%v/threads=%d", causal, threads), func(b *testing.B) {
				p := Problem[float32]{Batch: 1, QHeads: heads, KVHeads: heads, QSeq: seq, KVSeq: seq, HeadK: d, HeadV: d,
					Q: q, K: k, V: v, Y: make([]float32, heads*seq*d),
					QL: BHSD(heads, seq, d), KL: BHSD(heads, seq, d), VL: BHSD(heads, seq, d), YL: BHSD(heads, seq, d),
					Scale: 0.125, Causal: causal, CausalOffset: []int{0}}
				for b.Loop() {
					if err := Run(Config{Threads: threads}, &p); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
