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

// Workers taken back from the pool, after problems of other sizes or of
// the same sizes with other keys and values, give the bits of new
// workers.
func TestPooledWorkersGiveNewWorkersBits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	fill := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(r.Float64()*2 - 1)
		}
		return v
	}
	type run struct{ qs, ks, dk, dv int }
	runs := []run{{8, 8, 8, 8}, {70, 300, 16, 8}, {8, 8, 8, 8}, {8, 8, 8, 8}, {3, 600, 8, 5}, {70, 300, 16, 8}, {1, 1, 4, 4}, {8, 8, 8, 8}}
	defer func() { reuseWorkers = true }()
	for i, u := range runs {
		p := Problem[float32]{Batch: 1, QHeads: 2, KVHeads: 2, QSeq: u.qs, KVSeq: u.ks, HeadK: u.dk, HeadV: u.dv,
			Q: fill(2 * u.qs * u.dk), K: fill(2 * u.ks * u.dk), V: fill(2 * u.ks * u.dv),
			QL: BHSD(2, u.qs, u.dk), KL: BHSD(2, u.ks, u.dk), VL: BHSD(2, u.ks, u.dv), YL: BHSD(2, u.qs, u.dv), Scale: 0.25}
		for _, threads := range []int{1, 2} {
			got, want := p, p
			got.Y, want.Y = make([]float32, 2*u.qs*u.dv), make([]float32, 2*u.qs*u.dv)
			reuseWorkers = true
			if err := Run(Config{Threads: threads}, &got); err != nil {
				t.Fatal(err)
			}
			reuseWorkers = false
			if err := Run(Config{Threads: threads}, &want); err != nil {
				t.Fatal(err)
			}
			for j := range want.Y {
				if math.Float32bits(got.Y[j]) != math.Float32bits(want.Y[j]) {
					t.Fatalf("run %d %+v, %d threads: element %d is %v pooled, %v new", i, u, threads, j, got.Y[j], want.Y[j])
				}
			}
		}
	}
}
