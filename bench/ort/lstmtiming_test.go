//go:build ort

package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestLSTMTiming times one LSTM layer, hidden 128, input 64, 100 steps
// (the size ops/internal/rnn's BenchmarkLSTM runs), in onnxshape and in
// onnxruntime side by side: batch 1 and 8, forward and bidirectional, 1
// and 2 threads, W, R and B initializers (as in a model, so both engines
// may prepare them at load), the two in turns over LSTM_ROUNDS rounds (3
// by default) of at least 20 runs each; it reports the fastest round's
// wall and CPU time per run and checks Y against onnxruntime's. It runs
// only with LSTM_BENCH=1:
//
//	cd bench/ort && LSTM_BENCH=1 go test -tags ort -run LSTMTiming -v .
func TestLSTMTiming(t *testing.T) {
	if os.Getenv("LSTM_BENCH") == "" {
		t.Skip("set LSTM_BENCH=1")
	}
	rounds := 3
	if s := os.Getenv("LSTM_ROUNDS"); s != "" {
		rounds = int(s[0] - '0')
	}
	const seq, input, hidden, runs = 100, 64, 128, 20
	for _, dir := range []string{"forward", "bidirectional"} {
		for _, batch := range []int{1, 8} {
			dirs := 1
			if dir == "bidirectional" {
				dirs = 2
			}
			r := rand.New(rand.NewPCG(uint64(batch), uint64(dirs)))
			scale := 2 / math.Sqrt(hidden)
			b := builder.New(14)
			x := b.Input("X", tensor.Float, seq, batch, input)
			w := b.Constant("W", smallFloats(r, tensor.Float, scale, dirs, 4*hidden, input))
			rr := b.Constant("R", smallFloats(r, tensor.Float, scale, dirs, 4*hidden, hidden))
			bb := b.Constant("B", smallFloats(r, tensor.Float, 0.5, dirs, 8*hidden))
			outs := b.OpN("LSTM", 3, x, w, rr, bb, builder.String("direction", dir), builder.Int("hidden_size", hidden))
			b.Output("Y", outs[0])
			model, err := b.Encode()
			if err != nil {
				t.Fatal(err)
			}
			xt := smallFloats(r, tensor.Float, 1, seq, batch, input)
			for _, threads := range []int{1, 2} {
				name := fmt.Sprintf("LSTM h%d i%d s%d b%d %s threads=%d", hidden, input, seq, batch, dir, threads)
				ours, err := graph.LoadBytes(model, "")
				if err != nil {
					t.Fatal(err)
				}
				o := &graph.RunOptions{Threads: threads, Pool: graph.NewPool()}
				feeds := map[string]tensor.Value{"X": xt}
				runOurs := func() (*tensor.Tensor, error) {
					out, err := ours.Run(context.Background(), feeds, o)
					if err != nil {
						return nil, err
					}
					return out.Map()["Y"].(*tensor.Tensor), nil
				}
				s, in, out, err := newORTLSTM(model, xt, []int{seq, dirs, batch, hidden}, threads)
				if err != nil {
					t.Fatal(err)
				}
				bestOurs, bestORT := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
				cpuOurs, cpuORT := math.Inf(1), math.Inf(1)
				var y *tensor.Tensor
				for range rounds {
					start, cpu := time.Now(), cpuSeconds()
					for range runs {
						if y != nil {
							if err := o.Pool.Release(y); err != nil {
								t.Fatal(err)
							}
						}
						if y, err = runOurs(); err != nil {
							t.Fatal(err)
						}
					}
					bestOurs, cpuOurs = min(bestOurs, time.Since(start)), min(cpuOurs, cpuSeconds()-cpu)
					start, cpu = time.Now(), cpuSeconds()
					for range runs {
						if err := s.Run(); err != nil {
							t.Fatal(err)
						}
					}
					bestORT, cpuORT = min(bestORT, time.Since(start)), min(cpuORT, cpuSeconds()-cpu)
				}
				got, _ := tensor.Data[float32](y)
				worst := maxAbsDiff(got, out.GetData())
				s.Destroy()
				in.Destroy()
				out.Destroy()
				t.Logf("%s: onnxshape %.0f µs/run, onnxruntime %.0f µs/run (%.2fx); CPU %.0f / %.0f µs/run (%.2fx); fastest of %d rounds of %d runs; largest difference of Y %.2g; load %s",
					name, us(bestOurs)/runs, us(bestORT)/runs, float64(bestOurs)/float64(bestORT),
					cpuOurs*1e6/runs, cpuORT*1e6/runs, cpuOurs/cpuORT, rounds, runs, worst, loadAverage())
				if worst > 1e-4 {
					t.Errorf("%s: Y differs from onnxruntime's by %g", name, worst)
				}
			}
		}
	}
}

// newORTLSTM is an onnxruntime session of the one-LSTM model over X (its
// input, copied) and Y of shape y.
func newORTLSTM(model []byte, x *tensor.Tensor, y []int, threads int) (*ort.AdvancedSession, *ort.Tensor[float32], *ort.Tensor[float32], error) {
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, nil, nil, err
	}
	defer so.Destroy()
	so.SetIntraOpNumThreads(threads)
	so.SetInterOpNumThreads(1)
	so.SetGraphOptimizationLevel(ort.GraphOptimizationLevelEnableAll)
	xv, _ := tensor.Data[float32](x)
	in, err := ort.NewTensor(ortShape(x.Shape()), append([]float32(nil), xv...))
	if err != nil {
		return nil, nil, nil, err
	}
	out, err := ort.NewEmptyTensor[float32](ortShape(y))
	if err != nil {
		in.Destroy()
		return nil, nil, nil, err
	}
	s, err := ort.NewAdvancedSessionWithONNXData(model, []string{"X"}, []string{"Y"}, []ort.Value{in}, []ort.Value{out}, so)
	if err != nil {
		in.Destroy()
		out.Destroy()
		return nil, nil, nil, err
	}
	return s, in, out, nil
}
