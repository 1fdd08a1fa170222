package attention

import (
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// The online softmax over key tiles (no scores asked for) gives what one
// tile over every key gives (scores asked for), within a few units of
// float64 rounding, on a causal, masked, padded problem of two key
// tiles; and charges no more than its tiles.
func TestTilesAgreeWithOneTile(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const batch, qh, kvh, qs, ks, dk, dv = 2, 4, 2, 70, 700, 8, 5
	fill := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.Float64()*2 - 1
		}
		return v
	}
	mask := fill(qs * ks)
	for i := range mask {
		if r.IntN(10) == 0 {
			mask[i] = math.Inf(-1)
		}
	}
	p := Problem[float64]{Batch: batch, QHeads: qh, KVHeads: kvh, QSeq: qs, KVSeq: ks, HeadK: dk, HeadV: dv,
		Q: fill(batch * qh * qs * dk), K: fill(batch * kvh * ks * dk), V: fill(batch * kvh * ks * dv),
		QL: BHSD(qh, qs, dk), KL: BHSD(kvh, ks, dk), VL: BHSD(kvh, ks, dv), YL: BHSD(qh, qs, dv),
		Scale: 0.3, Softcap: 2, Causal: true, CausalOffset: []int{600, -5}, ValidKeys: []int{650, 700},
		MaskAdd: mask, MaskStrides: [4]int{0, 0, ks, 1}, MaskCols: ks}
	var charged atomic.Int64 // the workers charge at once
	cfg := Config{Threads: 2, Charge: func(n int64) error { charged.Add(n); return nil }}
	tiled := p
	tiled.Y = make([]float64, batch*qh*qs*dv)
	if err := Run(cfg, &tiled); err != nil {
		t.Fatal(err)
	}
	// Two workers' tiles and packed keys and values, and the packing
	// scratch of the partial tiles' products (a tile of keys or values,
	// padded to sixteen columns).
	if max := 2*workerBytes(&tiled) + 2*int64(kTile*(dk+16))*8; charged.Load() > max {
		t.Errorf("charged %d bytes, more than two workers' scratch (%d)", charged.Load(), max)
	}
	one := p
	one.Y = make([]float64, batch*qh*qs*dv)
	one.Scores, one.ScoreStage = make([]float64, batch*qh*qs*ks), StageSoftmax
	if err := Run(Config{Threads: 1}, &one); err != nil {
		t.Fatal(err)
	}
	zeros := 0
	for i := range tiled.Y {
		if math.Abs(tiled.Y[i]-one.Y[i]) > 1e-13 {
			t.Fatalf("element %d: tiles %v, one tile %v", i, tiled.Y[i], one.Y[i])
		}
		if tiled.Y[i] == 0 {
			zeros++
		}
	}
	// Batch 1's offset -5 masks every key out of its first five rows.
	if zeros < qh*5*dv {
		t.Errorf("%d zeros, want at least the %d of the fully masked rows", zeros, qh*5*dv)
	}
}
