package rnn

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
)

// lstmSpec is the layer of the recurrent and control-flow round's benchmark: hidden 128, input 64,
// 100 steps, batch 8.
func lstmSpec() *Spec {
	return &Spec{Cell: LSTM, Seq: 100, Batch: 8, Input: 64, Hidden: 128, Dirs: 1,
		Acts: []Activation{{Func: Sigmoid}, {Func: Tanh}, {Func: Tanh}}}
}

func filled(n int, s float64) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(math.Sin(float64(i)*s)) * 0.1
	}
	return v
}

// BenchmarkLSTM runs the whole layer: the products (ops/internal/gemm)
// and the gates; W and R transposed at every run, transposed once (as a
// model's constants are at load), and R also packed once in the GEMM's
// panels (PackR, as ops.PackConstants does); batch 8 and 1, one direction
// and both.
func BenchmarkLSTM(b *testing.B) {
	for _, c := range []struct {
		prep        string
		threads     int
		batch, dirs int
	}{{"transposed-each-run", 1, 8, 1}, {"transposed-at-load", 1, 8, 1}, {"transposed-at-load", 2, 8, 1},
		{"packed-at-load", 1, 8, 1}, {"packed-at-load", 2, 8, 1},
		{"transposed-at-load", 1, 1, 1}, {"packed-at-load", 1, 1, 1}, {"packed-at-load", 2, 1, 1}, {"packed-at-load", 1, 1, 2}, {"packed-at-load", 2, 1, 2},
		{"transposed-at-load", 1, 8, 2}, {"packed-at-load", 1, 8, 2}, {"transposed-at-load", 2, 8, 2}, {"packed-at-load", 2, 8, 2}} {
		s := lstmSpec()
		s.Batch, s.Dirs = c.batch, c.dirs
		s.Acts = slices.Repeat(s.Acts, c.dirs)
		in := Inputs[float32]{X: filled(100*c.batch*64, 1.1), W: filled(c.dirs*512*64, 0.7), R: filled(c.dirs*512*128, 0.3), B: filled(c.dirs*1024, 0.9)}
		out := Outputs[float32]{Y: make([]float32, 100*c.dirs*c.batch*128)}
		if c.prep != "transposed-each-run" {
			in.WT, in.RT = TransposeW(in.W, c.dirs, 512, 64), TransposeR(in.R, c.dirs, 512, 128)
		}
		if c.prep == "packed-at-load" {
			var err error
			if in.RP, err = PackR(gemm.Config{}, LSTM, in.RT, c.dirs, 512, 128); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(fmt.Sprintf("%s/b%d/dirs-%d/threads-%d", c.prep, c.batch, c.dirs, c.threads), func(b *testing.B) {
			cpu := cpuSeconds()
			for b.Loop() {
				if err := Run(gemm.Config{Ctx: context.Background(), Threads: c.threads}, s, in, out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)*1e3/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkLSTMGates runs only the gates of the layer's 800 cell updates
// (100 steps of 8 batch entries), what the engine adds to the products.
func BenchmarkLSTMGates(b *testing.B) {
	s := lstmSpec()
	H := s.Hidden
	r := &runner[float32]{s: s, acts: s.Acts, bias: filled(4*H, 0.2)}
	x, g := filled(4*H, 0.5), make([]float32, 4*H)
	h, c := make([]float32, H), filled(H, 0.4)
	cpu := cpuSeconds()
	for b.Loop() {
		for range 800 {
			copy(g, x)
			r.lstm(x, g, h, c)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu)*1e3/float64(b.N), "cpu-ms/op")
}

func TestScratchSaturates(t *testing.T) {
	s := &Spec{Cell: LSTM, Seq: math.MaxInt / 2, Batch: 3, Input: 1, Hidden: 1, Dirs: 2}
	if n := s.ScratchElements(); n != math.MaxInt {
		t.Errorf("ScratchElements = %d, want math.MaxInt", n)
	}
	if n := lstmSpec().ScratchElements(); n != 100*8*512+8*512+3*8*128+2*512+512*(64+128) {
		t.Errorf("ScratchElements = %d", n)
	}
}

func TestRunRefusesActivationCount(t *testing.T) {
	s := lstmSpec()
	s.Acts = s.Acts[:2]
	if err := Run(gemm.Config{}, s, Inputs[float32]{}, Outputs[float32]{}); err == nil {
		t.Error("2 activations for an LSTM: no error")
	}
}

func TestParseFunc(t *testing.T) {
	for i, name := range funcNames {
		if f, ok := ParseFunc(name); !ok || f != Func(i) || f.String() != name {
			t.Errorf("%s: %v %v", name, f, ok)
		}
	}
	if f, ok := ParseFunc("sigmoid"); !ok || f != Sigmoid {
		t.Error("names are read without regard to case")
	}
	if _, ok := ParseFunc("Swish"); ok {
		t.Error("Swish is not a recurrent activation")
	}
}

// TestThreadsAgree runs layers of every cell, both directions, ragged
// sequence lengths and both layouts on one core and on several (the
// directions and batch chunks then run apart; on two cores, and with
// layout 1 on three, each part computes its own projections): the same
// bits.
func TestThreadsAgree(t *testing.T) {
	for _, cell := range []Cell{LSTM, GRU, RNN} {
		for _, lbr := range []bool{false, true} {
			for _, layout := range []int{0, 1} {
				for _, seq := range []int{7, 2} {
					s := &Spec{Cell: cell, Seq: seq, Batch: 5, Input: 6, Hidden: 9, Dirs: 2, Layout: layout, LinearBeforeReset: lbr}
					for range s.Dirs {
						s.Acts = append(s.Acts, []Activation{{Func: Sigmoid}, {Func: Tanh}, {Func: Tanh}}[:cell.Activations()]...)
					}
					gh := cell.Gates() * s.Hidden
					in := Inputs[float32]{X: filled(seq*5*6, 1.1), W: filled(2*gh*6, 0.7), R: filled(2*gh*9, 0.3),
						B: filled(2*2*gh, 0.9), H0: filled(2*5*9, 0.4), C0: filled(2*5*9, 0.5), SeqLens: []int{seq, 1, 0, seq, 2}}
					var outs [3]Outputs[float32]
					for i, threads := range []int{1, 3, 2} {
						outs[i] = Outputs[float32]{Y: make([]float32, seq*2*5*9), YH: make([]float32, 2*5*9), YC: make([]float32, 2*5*9)}
						if err := Run(gemm.Config{Ctx: context.Background(), Threads: threads}, s, in, outs[i]); err != nil {
							t.Fatal(err)
						}
					}
					for k := 1; k < len(outs); k++ {
						for _, p := range [][2][]float32{{outs[0].Y, outs[k].Y}, {outs[0].YH, outs[k].YH}, {outs[0].YC, outs[k].YC}} {
							for j := range p[0] {
								if math.Float32bits(p[0][j]) != math.Float32bits(p[1][j]) {
									t.Fatalf("cell %d lbr %v layout %d seq %d: element %d: %v on one core, %v on more", cell, lbr, layout, seq, j, p[0][j], p[1][j])
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestFusedAgrees runs layers whose steps add their products into the
// input projections (no sequence_lens) against the same layers with
// sequence_lens all Seq (the reverse direction then runs per entry, the
// sums in a pass of their own): the same bits for an LSTM and an RNN, and
// for a GRU whose reset gate applies first; with linear_before_reset, where
// Wb_h is added before r⊙(h*R_h^T + Rb_h) instead of after, within a few
// units in the last place.
func TestFusedAgrees(t *testing.T) {
	for _, cell := range []Cell{LSTM, GRU, RNN} {
		for _, lbr := range []bool{false, true} {
			for _, layout := range []int{0, 1} {
				s := &Spec{Cell: cell, Seq: 6, Batch: 3, Input: 5, Hidden: 11, Dirs: 2, Layout: layout, LinearBeforeReset: lbr}
				for range s.Dirs {
					s.Acts = append(s.Acts, []Activation{{Func: Sigmoid}, {Func: Tanh}, {Func: Tanh}}[:cell.Activations()]...)
				}
				gh := cell.Gates() * s.Hidden
				in := Inputs[float32]{X: filled(6*3*5, 1.3), W: filled(2*gh*5, 0.7), R: filled(2*gh*11, 0.3),
					B: filled(2*2*gh, 0.9), H0: filled(2*3*11, 0.4), C0: filled(2*3*11, 0.5), P: filled(2*3*11, 0.8)}
				if cell != LSTM {
					in.C0, in.P = nil, nil
				}
				var outs [2]Outputs[float32]
				for i, lens := range [][]int{nil, {6, 6, 6}} {
					in.SeqLens = lens
					outs[i] = Outputs[float32]{Y: make([]float32, 6*2*3*11), YH: make([]float32, 2*3*11)}
					if err := Run(gemm.Config{Ctx: context.Background(), Threads: 1}, s, in, outs[i]); err != nil {
						t.Fatal(err)
					}
				}
				for j := range outs[0].Y {
					a, b := outs[0].Y[j], outs[1].Y[j]
					if cell == GRU && lbr {
						if math.Abs(float64(a-b)) > 1e-6*(1+math.Abs(float64(a))) {
							t.Fatalf("GRU lbr layout %d: Y[%d] %v fused, %v not", layout, j, a, b)
						}
					} else if math.Float32bits(a) != math.Float32bits(b) {
						t.Fatalf("cell %d lbr %v layout %d: Y[%d] %v fused, %v not", cell, lbr, layout, j, a, b)
					}
				}
			}
		}
	}
}

// TestPartsOfEmptySizes runs layers without steps or without inputs on
// one core and on two (each part then computes its own projections): no
// panic, and the same outputs.
func TestPartsOfEmptySizes(t *testing.T) {
	for _, c := range []struct{ seq, input int }{{0, 3}, {4, 0}} {
		for _, lens := range [][]int{nil, {c.seq, 0, c.seq}} {
			s := &Spec{Cell: LSTM, Seq: c.seq, Batch: 3, Input: c.input, Hidden: 5, Dirs: 2,
				Acts: slices.Repeat([]Activation{{Func: Sigmoid}, {Func: Tanh}, {Func: Tanh}}, 2)}
			in := Inputs[float32]{X: filled(c.seq*3*c.input, 1.1), W: filled(2*20*c.input, 0.7), R: filled(2*20*5, 0.3),
				B: filled(2*40, 0.9), H0: filled(2*3*5, 0.4), SeqLens: lens}
			var outs [2]Outputs[float32]
			for i, threads := range []int{1, 2} {
				outs[i] = Outputs[float32]{Y: make([]float32, c.seq*2*3*5), YH: make([]float32, 2*3*5), YC: make([]float32, 2*3*5)}
				if err := Run(gemm.Config{Ctx: context.Background(), Threads: threads}, s, in, outs[i]); err != nil {
					t.Fatal(err)
				}
			}
			for k, p := range [][2][]float32{{outs[0].Y, outs[1].Y}, {outs[0].YH, outs[1].YH}, {outs[0].YC, outs[1].YC}} {
				for j := range p[0] {
					if math.Float32bits(p[0][j]) != math.Float32bits(p[1][j]) {
						t.Fatalf("seq %d input %d lens %v: output %d element %d: %v on one core, %v on two", c.seq, c.input, lens, k, j, p[0][j], p[1][j])
					}
				}
			}
		}
	}
}

// TestRingAgrees runs layers long enough that one core computes their
// projections a block of steps at a time into a ring (Run's ring; every
// direction fused, layout 0) against the same layers on two and three
// cores and on one with the ring off (one product for every step first):
// the same bits, for each cell, one direction and both.
func TestRingAgrees(t *testing.T) {
	ring := ringFloats
	defer func() { ringFloats = ring }()
	for _, cell := range []Cell{LSTM, GRU, RNN} {
		for _, dirs := range []int{1, 2} {
			for _, lbr := range []bool{false, true} {
				const seq, batch, input, hidden = 25, 24, 70, 130
				s := &Spec{Cell: cell, Seq: seq, Batch: batch, Input: input, Hidden: hidden, Dirs: dirs, LinearBeforeReset: lbr}
				for range dirs {
					s.Acts = append(s.Acts, []Activation{{Func: Sigmoid}, {Func: Tanh}, {Func: Tanh}}[:cell.Activations()]...)
				}
				gh := cell.Gates() * hidden
				if steps := ring / (batch * dirs * gh); steps < 1 || steps >= seq {
					t.Fatalf("cell %d dirs %d: a ring of %d steps does not test blocks", cell, dirs, steps)
				}
				in := Inputs[float32]{X: filled(seq*batch*input, 1.1), W: filled(dirs*gh*input, 0.7), R: filled(dirs*gh*hidden, 0.3),
					B: filled(dirs*2*gh, 0.9), H0: filled(dirs*batch*hidden, 0.4)}
				var outs [4]Outputs[float32]
				for i, threads := range []int{1, 2, 3, 1} {
					ringFloats = ring
					if i == 3 {
						ringFloats = math.MaxInt / 2
					}
					outs[i] = Outputs[float32]{Y: make([]float32, seq*dirs*batch*hidden), YH: make([]float32, dirs*batch*hidden)}
					if err := Run(gemm.Config{Ctx: context.Background(), Threads: threads}, s, in, outs[i]); err != nil {
						t.Fatal(err)
					}
				}
				for k := range 3 {
					for j := range outs[3].Y {
						if math.Float32bits(outs[k].Y[j]) != math.Float32bits(outs[3].Y[j]) {
							t.Fatalf("cell %d dirs %d lbr %v run %d: Y[%d] %v, %v without the ring", cell, dirs, lbr, k, j, outs[k].Y[j], outs[3].Y[j])
						}
					}
				}
			}
		}
	}
}
