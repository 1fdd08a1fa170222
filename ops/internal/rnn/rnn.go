// Package rnn is the recurrent-cell engine: one layer of an LSTM, a GRU or
// a simple RNN run over a whole batch of sequences, forward, reverse or
// both directions, in float32 or float64.
//
// The operators LSTM, GRU and RNN of package ops run on it (they parse the
// node and convert float16 and bfloat16 to float32 around it). The work is
// laid out as onnxruntime's CPU cells do: every time step's input
// projection X*W^T, for both directions, is one matrix product before the
// first step, with the biases added as it stores (float32, gemm.Finish) or
// as the product's C (beta 1); on one core, a block of steps at a time
// just before those steps, into a ring that stays in the cache; each step is
// then one small product H*R^T (two for a GRU whose reset gate applies
// before its recurrent product, or after it) added in place into that
// step's rows of the projections, and one pass per batch row that adds
// the peepholes, clips, applies the activations and updates the state,
// with the row in the cache. (A reverse direction with sequence_lens,
// whose entries read different times at one step, takes the products
// into a buffer of their own and adds the projections and biases in its
// pass.) All
// products go through the matrix-product engine (ops/internal/gemm).
// Float32 gates use the float32 Sigmoid, Tanh and Exp of ops/internal/mathf,
// and an LSTM's state and output the vector loops of cell_amd64.s;
// float64 gates use package math.
//
// It never writes into an input, never allocates except the scratch that
// ScratchElements counts (the caller checks and charges it first; the
// products charge their own through gemm.Config.Charge), and looks at
// gemm.Config.Ctx before every time step. With several threads the
// directions and chunks of the batch run their steps on cores of their
// own (ops/internal/parallel), never synchronising between steps.
package rnn

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// Cell is the kind of recurrent cell.
type Cell int

// The cells, each with the gates of its ONNX operator in the ONNX order:
// LSTM i, o, f, c; GRU z, r, h; RNN i.
const (
	LSTM Cell = iota
	GRU
	RNN
)

// Gates returns the number of gates: the rows of W and R are Gates()*hidden.
func (c Cell) Gates() int { return [...]int{4, 3, 1}[c] }

// Activations returns the number of activation functions per direction:
// f, g, h for an LSTM, f, g for a GRU, f for an RNN.
func (c Cell) Activations() int { return [...]int{3, 2, 1}[c] }

// Func is an activation function the recurrent operators allow.
type Func int

// The activation functions of the ONNX recurrent operators.
const (
	Relu Func = iota
	Tanh
	Sigmoid
	Affine
	LeakyRelu
	ThresholdedRelu
	ScaledTanh
	HardSigmoid
	Elu
	Softsign
	Softplus
)

var funcNames = [...]string{"Relu", "Tanh", "Sigmoid", "Affine", "LeakyRelu", "ThresholdedRelu",
	"ScaledTanh", "HardSigmoid", "Elu", "Softsign", "Softplus"}

func (f Func) String() string {
	if f >= 0 && int(f) < len(funcNames) {
		return funcNames[f]
	}
	return fmt.Sprintf("Func(%d)", int(f))
}

// ParseFunc returns the activation function of an ONNX name, compared
// without regard to case as onnxruntime does.
func ParseFunc(name string) (Func, bool) {
	for i, n := range funcNames {
		if strings.EqualFold(n, name) {
			return Func(i), true
		}
	}
	return 0, false
}

// Params returns how many of activation_alpha's and activation_beta's
// values f consumes, and the defaults it takes when the lists run out:
// those of the ONNX operators of the same name (Affine and ScaledTanh, which
// have none, take onnxruntime's: 1 and 0, 1 and 1).
func (f Func) Params() (alphas, betas int, alpha, beta float32) {
	switch f {
	case Affine:
		return 1, 1, 1, 0
	case LeakyRelu:
		return 1, 0, 0.01, 0
	case ThresholdedRelu, Elu:
		return 1, 0, 1, 0
	case ScaledTanh:
		return 1, 1, 1, 1
	case HardSigmoid:
		return 1, 1, 0.2, 0.5
	}
	return 0, 0, 0, 0
}

// Activation is one activation function with its parameters.
type Activation struct {
	Func        Func
	Alpha, Beta float32
}

// Spec is one run of a recurrent layer. Shapes (ONNX names):
//
//	X  [Seq, Batch, Input] (layout 0) or [Batch, Seq, Input] (layout 1)
//	W  [Dirs, Gates*Hidden, Input]     R [Dirs, Gates*Hidden, Hidden]
//	B  [Dirs, 2*Gates*Hidden]          (W's biases, then R's; nil: 0)
//	H0, C0 [Dirs, Batch, Hidden] or [Batch, Dirs, Hidden] (nil: 0)
//	P  [Dirs, 3*Hidden]                (LSTM peepholes i, o, f; nil: 0)
//	Y  [Seq, Dirs, Batch, Hidden] or [Batch, Seq, Dirs, Hidden]
//	YH, YC as H0
type Spec struct {
	Cell                      Cell
	Seq, Batch, Input, Hidden int
	Dirs                      int  // 1 or 2; with 2 the second runs in reverse
	Reverse                   bool // with Dirs 1: the one direction runs in reverse
	Layout                    int  // 0 or 1
	// Clip, when positive, clamps every gate's input to its activation
	// to [-Clip, Clip] (the cell state of an LSTM is not clipped).
	Clip float64
	// Acts lists Cell.Activations() functions per direction, direction
	// after direction.
	Acts              []Activation
	LinearBeforeReset bool // GRU: the reset gate applies after R's product
	InputForget       bool // LSTM: the forget gate is 1 - the input gate
}

// ScratchElements returns the elements of scratch a run of s allocates:
// the input projections of every step, and per direction one step's
// recurrent products, the state and the summed biases, then W and R
// transposed. A count past math.MaxInt (hostile sizes) gives math.MaxInt,
// which no budget allows.
func (s *Spec) ScratchElements() int {
	gh := mul(s.Cell.Gates(), s.Hidden)
	n := mul(mul(mul(s.Seq, s.Batch), s.Dirs), gh)
	perDir := add(add(mul(s.Batch, gh), mul(3*s.Batch, s.Hidden)), mul(2, gh))
	for _, k := range []int{mul(s.Dirs, perDir), mul(mul(s.Dirs, gh), add(s.Input, s.Hidden))} {
		n = add(n, k)
	}
	return n
}

// mul and add are a*b and a+b for non-negative counts, saturated at
// math.MaxInt.
func mul(a, b int) int {
	if a < 0 || b < 0 || (a != 0 && b > math.MaxInt/a) {
		return math.MaxInt
	}
	return a * b
}

func add(a, b int) int {
	if a < 0 || b < 0 || a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// Inputs are the tensors' elements, laid out as Spec says. SeqLens holds
// each batch entry's sequence length, in [0, Seq] (nil: Seq for all).
type Inputs[T float32 | float64] struct {
	X, W, R, B, H0, C0, P []T
	SeqLens               []int
	// WT and RT, when not nil, are W and R already transposed by
	// TransposeW and TransposeR (a model's constant weights, transposed
	// once at load): Run reads them instead of transposing W and R.
	WT, RT []T
	// RP, when not nil, is RT packed by PackR (a model's constant R,
	// packed once at load): the steps' products read its panels.
	RP *PackedR
}

// TransposeW returns W ([dirs, gates*hidden, input]) as the matrix the
// input projections read: W^T, [input, dirs*gates*hidden].
func TransposeW[T float32 | float64](w []T, dirs, gh, input int) []T {
	wt := make([]T, input*dirs*gh)
	transpose(wt, w, dirs*gh, input)
	return wt
}

// TransposeR returns R ([dirs, gates*hidden, hidden]) as the matrices the
// recurrent products read: each direction's R^T, [hidden, gates*hidden].
func TransposeR[T float32 | float64](r []T, dirs, gh, hidden int) []T {
	rt := make([]T, dirs*hidden*gh)
	for d := range dirs {
		transpose(rt[d*hidden*gh:][:hidden*gh], r[d*gh*hidden:][:gh*hidden], gh, hidden)
	}
	return rt
}

// Outputs are where a run writes; a nil slice is an output not wanted. Y
// is zero past each sequence's length; YH and YC hold the state after
// each sequence's last valid step (H0 and C0 for a length of 0).
type Outputs[T float32 | float64] struct {
	Y, YH, YC []T
}

// Run runs the layer s over in and writes out. The caller has checked the
// slices' lengths against s and the scratch (ScratchElements) against its
// budget.
//
// With more than one thread, the directions and the batch entries, which
// never read each other's state, run apart: each part runs all its steps
// on one core (its products on that core too), so that a step never waits
// for another core. One part alone (one direction of one batch entry)
// hands its products the threads instead.
func Run[T float32 | float64](cfg gemm.Config, s *Spec, in Inputs[T], out Outputs[T]) error {
	if len(s.Acts) != s.Dirs*s.Cell.Activations() {
		return fmt.Errorf("rnn: %d activations for %d directions of %d", len(s.Acts), s.Dirs, s.Cell.Activations())
	}
	clear(out.Y)
	H, B, G := s.Hidden, s.Batch, s.Cell.Gates()
	gh := G * H
	buf := getScratch[T](s.ScratchElements())
	defer putScratch(buf)
	scratch := *buf
	xw, scratch := scratch[:s.Seq*B*s.Dirs*gh], scratch[s.Seq*B*s.Dirs*gh:]
	// The runners live on the stack (a run at batch 1 and a small hidden
	// size is a few microseconds: every allocation shows); the parts
	// handed to other cores get a copy of their own below.
	var rs [2]runner[T]
	if s.Dirs > len(rs) {
		return fmt.Errorf("rnn: %d directions", s.Dirs)
	}
	runners := rs[:s.Dirs]
	// The directions' summed biases one after the other: the projections'
	// product adds them as one row.
	biases, scratch := scratch[:2*s.Dirs*gh], scratch[2*s.Dirs*gh:]
	for d := range runners {
		r := &runners[d]
		*r = runner[T]{s: s, d: d, reverse: d == 1 || s.Reverse, xw: xw,
			acts: s.Acts[d*s.Cell.Activations():][:s.Cell.Activations()]}
		r.hr, scratch = scratch[:B*gh], scratch[B*gh:]
		r.h, scratch = scratch[:B*H], scratch[B*H:]
		r.c, scratch = scratch[:B*H], scratch[B*H:]
		r.rh, scratch = scratch[:B*H], scratch[B*H:]
		r.bias, r.rbias = biases[d*gh:][:gh], biases[(s.Dirs+d)*gh:][:gh]
	}
	wt, rt := scratch[:s.Input*s.Dirs*gh], scratch[s.Input*s.Dirs*gh:]

	// W and R transposed, so that every product reads B row by row: W^T
	// as one [Input, Dirs*Gates*Hidden] matrix, each direction's R^T as
	// [Hidden, Gates*Hidden].
	if len(in.WT) == len(wt) {
		wt = in.WT
	} else {
		transpose(wt, in.W, s.Dirs*gh, s.Input)
	}
	if len(in.RT) == len(rt) {
		rt = in.RT
	} else {
		for d := 0; d < s.Dirs; d++ {
			transpose(rt[d*H*gh:][:H*gh], in.R[d*gh*H:][:gh*H], gh, H)
		}
	}
	for d := range runners {
		r := &runners[d]
		r.rt = rt[d*H*gh:][:H*gh]
		r.packed = in.RP
		r.init(in)
		// A step whose batch entries all read the same time (no
		// sequence_lens, or a forward direction) adds its recurrent
		// product into the rows of xw, which then hold the biases too.
		r.fused = in.SeqLens == nil || !r.reverse
	}
	// Every step's input projections: row (t, b) of X times W^T, plus the
	// biases of the fused directions: one product for both directions
	// (split across the cores), or, when each part's rows are one block
	// (a whole direction, or entries of layout 1), each part's own at its
	// start, so that the cores meet once, not after the projections too.
	// (A part's entries of layout 0 are rows Batch apart: a product per
	// entry packs W^T again for each, 50% more time than the one product.)
	beta := T(0)
	if runners[0].fused || runners[len(runners)-1].fused {
		beta = 1
	}
	// When every direction is fused, float32's product adds the biases
	// itself as it stores (gemm.Finish's ColBias): xw is written once, not
	// filled with the biases and then read back (the same sums, as long as
	// Input fits one block of the product's k).
	var z T
	_, is32 := any(z).(float32)
	allFused := is32 && runners[0].fused && runners[len(runners)-1].fused
	for d := range runners {
		runners[d].wt, runners[d].beta, runners[d].xIn = wt, beta, in.X
		if allFused {
			runners[d].colBias = runners[d].bias
		}
	}
	// The parts: per direction, chunks of the batch.
	chunks := 1
	if cfg.Threads > 1 {
		chunks = min(B, (cfg.Threads+s.Dirs-1)/s.Dirs)
	}
	parts := s.Dirs * chunks
	own := parts > 1 && (s.Layout == 1 || chunks == 1)
	// On one core, layout 0, every direction fused: the projections of a
	// block of steps at a time, just before those steps, into a ring of
	// xw's first rows that stays in the cache (the whole of xw, written
	// before the first step and read back at each, went to memory and
	// back: a quarter of a layer at batch 8, hidden 128).
	if ring := ringFloats / max(1, B*s.Dirs*gh); parts <= 1 && allFused && s.Layout == 0 && ring < s.Seq {
		for d := range runners {
			runners[d].ring = max(1, ring)
		}
	} else if !own && allFused {
		if err := gemmBias(cfg, s.Seq*B, s.Dirs*gh, s.Input, in.X, s.Input, wt, s.Dirs*gh, biases[:s.Dirs*gh], xw, s.Dirs*gh); err != nil {
			return err
		}
	} else if !own {
		for d := range runners {
			runners[d].fillBiases(0, B)
		}
		if err := gemmBeta(cfg, s.Seq*B, s.Dirs*gh, s.Input, in.X, s.Input, wt, s.Dirs*gh, beta, xw, s.Dirs*gh); err != nil {
			return err
		}
	}
	if parts <= 1 {
		for d := range runners {
			if err := runners[d].run(cfg, 0, B, in.SeqLens, out); err != nil {
				return err
			}
		}
		return nil
	}
	return runParts(cfg, append([]runner[T](nil), runners...), chunks, own, in, out)
}

// runParts runs the parts of Run on the cores: per direction of runners,
// chunks of the batch, each its projections first when own, then its
// steps. The cores take the parts one at a time from a counter
// (parallel.Shared), not as fixed halves: a core that wakes late, or that
// another process holds, leaves its part to the one that is running
// instead of making it wait (on a loaded machine the second core's part
// started up to 1.5 ms after it was queued). Each part charges its own
// slot of the scratch account, whichever core runs it: the charges do
// not depend on the schedule.
func runParts[T float32 | float64](cfg gemm.Config, runners []runner[T], chunks int, own bool, in Inputs[T], out Outputs[T]) error {
	B, x, lens := runners[0].s.Batch, in.X, in.SeqLens
	return parallel.Shared(cfg.Ctx, cfg.Threads, len(runners)*chunks, 1, parallel.Work, func(lo, hi int) error {
		for p := lo; p < hi; p++ {
			one := cfg // one core, and the part's own slot of the scratch account
			one.Threads, one.Scratch = 1, cfg.Scratch.Slot(p)
			c, r := p%chunks, &runners[p/chunks]
			b0, b1 := B*c/chunks, B*(c+1)/chunks
			if own {
				r.fillBiases(b0, b1)
				if err := r.project(one, x, b0, b1); err != nil {
					return err
				}
			}
			if err := r.run(one, b0, b1, lens, out); err != nil {
				return err
			}
		}
		return nil
	})
}

// fillBiases readies xw's rows of direction r.d, batch entries [b0, b1),
// for the projections' product: its biases when the direction is fused,
// zeros when another is (the product then adds, beta 1), untouched when
// none is (beta 0).
func (r *runner[T]) fillBiases(b0, b1 int) {
	if r.beta == 0 || r.colBias != nil || b0 == b1 {
		return
	}
	for t := range r.s.Seq {
		for b := b0; b < b1; b++ {
			if row := r.xrow(t, b); r.fused {
				copy(row, r.bias)
			} else {
				clear(row)
			}
		}
	}
}

// project adds X*W^T into xw's rows of direction r.d, batch entries [b0,
// b1), every time, in one product (layout 1, or every entry): the
// elements Run's one product for the whole of xw computes, each the same
// sum (a product's rows and columns never mix).
func (r *runner[T]) project(cfg gemm.Config, x []T, b0, b1 int) error {
	s := r.s
	if s.Seq == 0 || b0 == b1 {
		return nil
	}
	if s.Input == 0 { // X*W^T is 0: the biases or zeros already, or now
		for t := range s.Seq {
			for b := b0; b < b1; b++ {
				if r.colBias != nil {
					copy(r.xrow(t, b), r.colBias)
				} else if r.beta == 0 {
					clear(r.xrow(t, b))
				}
			}
		}
		return nil
	}
	gh := s.Cell.Gates() * s.Hidden
	ld := s.Dirs * gh
	wt := r.wt[r.d*gh:]
	m, x, c := s.Seq*s.Batch, x, r.xw[r.xoff(0, 0):]
	if s.Layout == 1 { // rows b*Seq + t: the entries' rows are one block
		m, x, c = (b1-b0)*s.Seq, x[b0*s.Seq*s.Input:], r.xw[r.xoff(0, b0):]
	}
	if r.colBias != nil {
		return gemmBias(cfg, m, gh, s.Input, x, s.Input, wt, ld, r.colBias, c, ld)
	}
	return gemmBeta(cfg, m, gh, s.Input, x, s.Input, wt, ld, r.beta, c, ld)
}

// ringFloats is the most elements of projections a run on one core holds
// at a time (Run's ring): 256 KB of float32, in the L2 cache beside the
// packed R. A variable: the tests turn the ring off to compare.
var ringFloats = 1 << 16

// projectSteps computes the projections of times [t0, t1) of direction
// r.d, every batch entry, plus its biases, into the ring (layout 0, every
// direction fused): the elements of Run's one product, the same sums.
func (r *runner[T]) projectSteps(cfg gemm.Config, t0, t1 int) error {
	s := r.s
	gh := s.Cell.Gates() * s.Hidden
	c := r.xw[r.xoff(t0, 0):]
	if s.Input == 0 {
		for t := t0; t < t1; t++ {
			for b := range s.Batch {
				copy(r.xrow(t, b), r.colBias)
			}
		}
		return nil
	}
	return gemmBias(cfg, (t1-t0)*s.Batch, gh, s.Input, r.xIn[t0*s.Batch*s.Input:], s.Input, r.wt[r.d*gh:], s.Dirs*gh, r.colBias, c, s.Dirs*gh)
}

// run runs every step of batch entries [b0, b1) of direction r.d and
// writes their final state.
func (r *runner[T]) run(cfg gemm.Config, b0, b1 int, lens []int, out Outputs[T]) error {
	if b0 == b1 {
		return nil // no entry: no state to write, however many steps (an empty batch of 10^9 steps)
	}
	for step := 0; step < r.s.Seq; step++ {
		if cfg.Ctx != nil {
			if err := cfg.Ctx.Err(); err != nil {
				return err
			}
		}
		if r.ring > 0 {
			t := step
			if r.reverse {
				t = r.s.Seq - 1 - step
			}
			if k := t / r.ring; step == 0 || (r.reverse && t%r.ring == r.ring-1) || (!r.reverse && t%r.ring == 0) {
				if err := r.projectSteps(cfg, k*r.ring, min((k+1)*r.ring, r.s.Seq)); err != nil {
					return err
				}
			}
		}
		f := r.step
		if r.fused {
			f = r.stepFused
		}
		if err := f(cfg, step, b0, b1, lens, out.Y); err != nil {
			return err
		}
	}
	r.finish(b0, b1, out)
	return nil
}

// scratchPools keep the runs' scratch (float32, float64) between runs: a
// layer run in a loop, step after step of a stream, then neither clears
// nor allocates megabytes each time. The caller has charged the run for
// it; every part is written before it is read (Run), so a recycled
// buffer's old contents never show.
var scratchPools [2]sync.Pool

func getScratch[T float32 | float64](n int) *[]T {
	var z T
	if v, ok := scratchPools[unsafe.Sizeof(z)/8].Get().(*[]T); ok && cap(*v) >= n {
		*v = (*v)[:n]
		return v
	}
	s := make([]T, n)
	return &s
}

func putScratch[T float32 | float64](v *[]T) {
	var z T
	scratchPools[unsafe.Sizeof(z)/8].Put(v)
}

// runner is one direction of a run.
type runner[T float32 | float64] struct {
	s                *Spec
	d                int
	reverse          bool
	fused            bool // stepFused: xw's rows hold the biases and take the products
	beta             T    // the projections' beta: 1 when a direction is fused
	ring             int  // steps of projections xw holds at a time (projectSteps), 0: all
	colBias          []T  // the projections' biases, added as they are stored (Run's allFused), or nil
	wt               []T  // W^T of every direction, [Input, Dirs*Gates*Hidden]
	xIn              []T  // X, for projectSteps
	xw, hr, h, c, rh []T
	bias, rbias      []T
	rt               []T      // R^T of the direction, [Hidden, Gates*Hidden]
	packed           *PackedR // R^T in panels (Inputs.RP), nil when not packed
	pi, po, pf       []T      // peepholes, nil when absent
	acts             []Activation
}

// state returns the offset of (direction, batch entry) in H0, C0, YH, YC.
func (r *runner[T]) state(b int) int {
	s := r.s
	if s.Layout == 1 {
		return (b*s.Dirs + r.d) * s.Hidden
	}
	return (r.d*s.Batch + b) * s.Hidden
}

// init loads the initial state and sums the biases of direction r.d.
func (r *runner[T]) init(in Inputs[T]) {
	s := r.s
	H, gh := s.Hidden, s.Cell.Gates()*s.Hidden
	for b := 0; b < s.Batch; b++ {
		dst := r.h[b*H:][:H]
		if in.H0 != nil {
			copy(dst, in.H0[r.state(b):][:H])
		} else {
			clear(dst)
		}
		dst = r.c[b*H:][:H]
		if in.C0 != nil {
			copy(dst, in.C0[r.state(b):][:H])
		} else {
			clear(dst)
		}
	}
	clear(r.bias)
	clear(r.rbias)
	if in.B != nil {
		wb := in.B[r.d*2*gh:][:gh]
		rb := in.B[r.d*2*gh+gh:][:gh]
		for j := range r.bias {
			r.bias[j] = wb[j] + rb[j]
		}
		if s.Cell == GRU && s.LinearBeforeReset {
			// h's recurrent bias goes inside the reset gate's product.
			copy(r.bias[2*H:], wb[2*H:])
			copy(r.rbias[2*H:], rb[2*H:])
		}
	}
	if in.P != nil {
		p := in.P[r.d*3*H:][:3*H]
		r.pi, r.po, r.pf = p[:H], p[H:2*H], p[2*H:]
	}
}

// xrow returns the input projection row of time t, batch entry b.
func (r *runner[T]) xrow(t, b int) []T {
	return r.xw[r.xoff(t, b):][:r.s.Cell.Gates()*r.s.Hidden]
}

// xoff returns the offset in xw of xrow(t, b).
func (r *runner[T]) xoff(t, b int) int {
	s := r.s
	row := t*s.Batch + b
	if r.ring > 0 {
		row = t%r.ring*s.Batch + b
	}
	if s.Layout == 1 {
		row = b*s.Seq + t
	}
	return (row*s.Dirs + r.d) * s.Cell.Gates() * s.Hidden
}

// yrow returns Y's row of time t, batch entry b, nil when Y is not wanted.
func (r *runner[T]) yrow(y []T, t, b int) []T {
	if y == nil {
		return nil
	}
	s := r.s
	i := ((t*s.Dirs+r.d)*s.Batch + b) * s.Hidden
	if s.Layout == 1 {
		i = ((b*s.Seq+t)*s.Dirs + r.d) * s.Hidden
	}
	return y[i:][:s.Hidden]
}

// timeOf returns the time of step for batch entry b, false once its
// sequence has ended: the reverse direction runs each sequence from its
// own last valid step back.
func (r *runner[T]) timeOf(step, b int, lens []int) (int, bool) {
	n := r.s.Seq
	if lens != nil {
		n = lens[b]
	}
	if step >= n {
		return 0, false
	}
	if r.reverse {
		return n - 1 - step, true
	}
	return step, true
}

// step runs one time step over batch entries [b0, b1).
func (r *runner[T]) step(cfg gemm.Config, step, b0, b1 int, lens []int, y []T) error {
	s := r.s
	H, gh := s.Hidden, s.Cell.Gates()*s.Hidden
	n := gh
	if s.Cell == GRU && !s.LinearBeforeReset {
		n = 2 * H // h's product waits for the reset gate
	}
	m := b1 - b0
	if err := r.mulR(cfg, m, 0, n, r.h[b0*H:], H, 0, r.hr[b0*gh:], gh); err != nil {
		return err
	}
	if s.Cell == GRU && !s.LinearBeforeReset {
		for b := b0; b < b1; b++ {
			if t, ok := r.timeOf(step, b, lens); ok {
				r.gruReset(r.xrow(t, b), r.hr[b*gh:][:gh], r.h[b*H:][:H], r.rh[b*H:][:H])
			}
		}
		// (r ⊙ H) * Rh^T into the h gate's columns.
		if err := r.mulR(cfg, m, 2*H, H, r.rh[b0*H:], H, 0, r.hr[b0*gh+2*H:], gh); err != nil {
			return err
		}
	}
	for b := b0; b < b1; b++ {
		t, ok := r.timeOf(step, b, lens)
		if !ok {
			continue
		}
		x, g := r.xrow(t, b), r.hr[b*gh:][:gh]
		h := r.h[b*H:][:H]
		switch s.Cell {
		case LSTM:
			r.lstm(x, g, h, r.c[b*H:][:H])
		case GRU:
			r.gru(x, g, h)
		case RNN:
			r.rnn(x, g, h)
		}
		if yr := r.yrow(y, t, b); yr != nil {
			copy(yr, h)
		}
	}
	return nil
}

// stepFused is step for a direction whose batch entries all read the same
// time t: the recurrent products go straight into xw's rows of t (which
// hold X*W^T plus the biases) and the gates read them there, x + b + g
// summed by the product's beta instead of a pass per row.
func (r *runner[T]) stepFused(cfg gemm.Config, step, b0, b1 int, lens []int, y []T) error {
	s := r.s
	H, gh := s.Hidden, s.Cell.Gates()*s.Hidden
	t := step
	if r.reverse {
		t = s.Seq - 1 - step
	}
	m := b1 - b0
	ldx := s.Dirs * gh // rows of xw one batch entry apart
	if s.Layout == 1 {
		ldx *= s.Seq
	}
	xs := r.xw[r.xoff(t, b0):]
	switch {
	case s.Cell == GRU && s.LinearBeforeReset:
		// z and r into xw; h's product apart, as the reset gate scales it.
		if err := r.mulR(cfg, m, 0, 2*H, r.h[b0*H:], H, 1, xs, ldx); err != nil {
			return err
		}
		if err := r.mulR(cfg, m, 2*H, H, r.h[b0*H:], H, 0, r.hr[b0*gh+2*H:], gh); err != nil {
			return err
		}
	case s.Cell == GRU:
		if err := r.mulR(cfg, m, 0, 2*H, r.h[b0*H:], H, 1, xs, ldx); err != nil {
			return err
		}
		for b := b0; b < b1; b++ {
			if _, ok := r.timeOf(step, b, lens); ok {
				r.gruReset(nil, r.xrow(t, b), r.h[b*H:][:H], r.rh[b*H:][:H])
			}
		}
		// (r ⊙ H) * Rh^T into the h gate's columns.
		if err := r.mulR(cfg, m, 2*H, H, r.rh[b0*H:], H, 1, xs[2*H:], ldx); err != nil {
			return err
		}
	default:
		if err := r.mulR(cfg, m, 0, gh, r.h[b0*H:], H, 1, xs, ldx); err != nil {
			return err
		}
	}
	for b := b0; b < b1; b++ {
		if _, ok := r.timeOf(step, b, lens); !ok {
			continue
		}
		g, h := r.xrow(t, b), r.h[b*H:][:H]
		switch s.Cell {
		case LSTM:
			r.lstm(nil, g, h, r.c[b*H:][:H])
		case GRU:
			r.gruFused(g, r.hr[b*gh:][:gh], h)
		case RNN:
			r.rnn(nil, g, h)
		}
		if yr := r.yrow(y, t, b); yr != nil {
			copy(yr, h)
		}
	}
	return nil
}

// lstm updates one batch entry's h and c from its gates' products x (X*W^T)
// and g (H*R^T), which it overwrites (x nil: g holds x + g + b already,
// stepFused):
//
//	i = f(x_i + g_i + b_i + P_i⊙c)    f = f(x_f + g_f + b_f + P_f⊙c)
//	c' = f⊙c + i⊙g(x_c + g_c + b_c)   o = f(x_o + g_o + b_o + P_o⊙c')
//	h' = o⊙h(c')
func (r *runner[T]) lstm(x, g, h, c []T) {
	H := len(h)
	gi, gO, gf, gc := g[:H], g[H:2*H], g[2*H:3*H], g[3*H:]
	if r.pi == nil && !r.s.InputForget {
		// No peepholes: the gates i, o and f (the first three quarters of
		// g) take one activation call, the sums one pass over all four,
		// the state and the output one pass each; the same operations on
		// each element, in the same order, as below.
		g := g[:4*H]
		if x != nil {
			x, bias := x[:4*H], r.bias[:4*H]
			for j := range g {
				g[j] += x[j] + bias[j]
			}
		}
		r.clip(g)
		apply(r.acts[0], g[:3*H])
		apply(r.acts[1], gc)
		lstmState(c, gc, gf, gi)
		apply(r.acts[2], gc)
		mulTo(h, gO, gc)
		return
	}
	bi, bo, bf, bc := r.bias[:H], r.bias[H:2*H], r.bias[2*H:3*H], r.bias[3*H:]
	if x != nil {
		xi, xf, xc := x[:H], x[2*H:3*H], x[3*H:]
		for j := range gi {
			gi[j] += xi[j] + bi[j]
			gf[j] += xf[j] + bf[j]
			gc[j] += xc[j] + bc[j]
		}
	}
	if r.pi != nil {
		for j := range gi {
			gi[j] += r.pi[j] * c[j]
			gf[j] += r.pf[j] * c[j]
		}
	}
	r.clip(gi)
	r.clip(gc)
	apply(r.acts[0], gi)
	if r.s.InputForget {
		for j := range gf {
			gf[j] = 1 - gi[j]
		}
	} else {
		r.clip(gf)
		apply(r.acts[0], gf)
	}
	apply(r.acts[1], gc)
	lstmState(c, gc, gf, gi) // gc now holds c too, read below
	if x != nil {
		xo := x[H : 2*H]
		for j := range gO {
			gO[j] += xo[j] + bo[j]
		}
	}
	if r.po != nil {
		for j := range gO {
			gO[j] += r.po[j] * c[j]
		}
	}
	r.clip(gO)
	apply(r.acts[0], gO)
	apply(r.acts[2], gc)
	mulTo(h, gO, gc)
}

// gruReset computes, for a GRU whose reset gate applies before R's product,
// the gates z and r into g and r⊙h into rh (x nil: g holds x + g + b).
func (r *runner[T]) gruReset(x, g, h, rh []T) {
	H := len(h)
	r.gruZR(x, g)
	gr := g[H : 2*H]
	for j := range rh {
		rh[j] = gr[j] * h[j]
	}
}

// gruZR finishes the gates z and r in g: f(x + g + b), clipped (x nil:
// g holds x + g + b).
func (r *runner[T]) gruZR(x, g []T) {
	zr := g[:2*r.s.Hidden]
	if x != nil {
		xzr := x[:len(zr)]
		for j := range zr {
			zr[j] += xzr[j] + r.bias[j]
		}
	}
	r.clip(zr)
	apply(r.acts[0], zr)
}

// gru updates one batch entry's h:
//
//	z = f(x_z + g_z + b_z)    r = f(x_r + g_r + b_r)
//	n = g(x_h + (r⊙h)*R_h^T + Rb_h + Wb_h)       linear_before_reset 0
//	n = g(x_h + r⊙(h*R_h^T + Rb_h) + Wb_h)       linear_before_reset 1
//	h' = (1-z)⊙n + z⊙h
func (r *runner[T]) gru(x, g, h []T) {
	H := len(h)
	gz, gr, gn := g[:H], g[H:2*H], g[2*H:]
	xn, bn := x[2*H:], r.bias[2*H:]
	if r.s.LinearBeforeReset {
		r.gruZR(x, g)
		rbn := r.rbias[2*H:]
		for j := range gn {
			gn[j] = xn[j] + gr[j]*(gn[j]+rbn[j]) + bn[j]
		}
	} else { // z and r are done (gruReset), gn holds (r⊙h)*R_h^T
		for j := range gn {
			gn[j] += xn[j] + bn[j]
		}
	}
	r.clip(gn)
	apply(r.acts[1], gn)
	for j := range h {
		h[j] = (1-gz[j])*gn[j] + gz[j]*h[j]
	}
}

// gruFused is gru for stepFused: g is the row of xw, whose z and r hold
// x + g + b and whose h holds x_h + Wb_h, plus (r⊙h)*R_h^T + Rb_h when the
// reset gate applies first; with linear_before_reset, hr's h columns hold
// h*R_h^T:
//
//	n = g(x_h + Wb_h + r⊙(h*R_h^T + Rb_h))
func (r *runner[T]) gruFused(g, hr, h []T) {
	H := len(h)
	gz, gr, gn := g[:H], g[H:2*H], g[2*H:3*H]
	if r.s.LinearBeforeReset {
		r.gruZR(nil, g)
		hn, rbn := hr[2*H:3*H], r.rbias[2*H:3*H]
		for j := range gn {
			gn[j] += gr[j] * (hn[j] + rbn[j])
		}
	}
	r.clip(gn)
	apply(r.acts[1], gn)
	for j := range h {
		h[j] = (1-gz[j])*gn[j] + gz[j]*h[j]
	}
}

// rnn updates one batch entry's h: h' = f(x + g + b) (x nil: g holds
// x + g + b).
func (r *runner[T]) rnn(x, g, h []T) {
	if x != nil {
		for j := range g {
			g[j] += x[j] + r.bias[j]
		}
	}
	r.clip(g)
	apply(r.acts[0], g)
	copy(h, g)
}

// clip clamps v to [-Clip, Clip] when the run clips.
func (r *runner[T]) clip(v []T) {
	if r.s.Clip <= 0 {
		return
	}
	hi := T(r.s.Clip)
	for j, x := range v {
		v[j] = min(max(x, -hi), hi) // NaN stays NaN
	}
}

// finish writes the final state of batch entries [b0, b1) of direction r.d.
func (r *runner[T]) finish(b0, b1 int, out Outputs[T]) {
	H := r.s.Hidden
	for b := b0; b < b1; b++ {
		if out.YH != nil {
			copy(out.YH[r.state(b):][:H], r.h[b*H:][:H])
		}
		if out.YC != nil {
			copy(out.YC[r.state(b):][:H], r.c[b*H:][:H])
		}
	}
}

// apply replaces every element of v by a(v).
func apply[T float32 | float64](a Activation, v []T) {
	alpha, beta := T(a.Alpha), T(a.Beta)
	switch a.Func {
	case Sigmoid:
		switch v := any(v).(type) {
		case []float32:
			mathf.Sigmoids(v)
		case []float64:
			for j, x := range v {
				if x >= 0 {
					v[j] = 1 / (1 + math.Exp(-x))
				} else {
					e := math.Exp(x)
					v[j] = e / (1 + e)
				}
			}
		}
	case Tanh:
		switch v := any(v).(type) {
		case []float32:
			mathf.Tanhs(v)
		case []float64:
			for j, x := range v {
				v[j] = math.Tanh(x)
			}
		}
	case ScaledTanh:
		for j, x := range v {
			v[j] = beta * x
		}
		apply(Activation{Func: Tanh}, v)
		for j, x := range v {
			v[j] = alpha * x
		}
	case Relu:
		for j, x := range v {
			if x < 0 {
				v[j] = 0
			}
		}
	case Affine:
		for j, x := range v {
			v[j] = alpha*x + beta
		}
	case LeakyRelu:
		for j, x := range v {
			if x < 0 {
				v[j] = alpha * x
			}
		}
	case ThresholdedRelu:
		for j, x := range v {
			if x < alpha {
				v[j] = 0
			}
		}
	case HardSigmoid:
		for j, x := range v {
			v[j] = min(max(alpha*x+beta, 0), 1)
		}
	case Elu:
		for j, x := range v {
			if x < 0 {
				v[j] = alpha * (exp(x) - 1)
			}
		}
	case Softsign:
		for j, x := range v {
			if x < 0 {
				v[j] = x / (1 - x)
			} else {
				v[j] = x / (1 + x)
			}
		}
	case Softplus:
		for j, x := range v {
			// log(1 + e^x) = max(x, 0) + log(1 + e^-|x|), which never overflows.
			v[j] = max(x, 0) + T(math.Log1p(float64(exp(-abs(x)))))
		}
	}
}

func abs[T float32 | float64](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

// exp is e^x in T: mathf.Exp for float32.
func exp[T float32 | float64](x T) T {
	if f, ok := any(x).(float32); ok {
		return T(mathf.Exp(f))
	}
	return T(math.Exp(float64(x)))
}

// gemmBeta is C = A*B + beta*C for row-major A (m×k), B (k×n) and C
// (m×n) in T.
func gemmBeta[T float32 | float64](cfg gemm.Config, m, n, k int, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	switch a := any(a).(type) {
	case []float32:
		return gemm.Float32(cfg, false, false, m, n, k, 1, a, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		return gemm.Float64(cfg, false, false, m, n, k, 1, a, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
	return nil
}

// gemmBias is C = A*B + bias, bias one value per column of C, for
// row-major float32 A (m×k), B (k×n) and C (m×n).
func gemmBias[T float32 | float64](cfg gemm.Config, m, n, k int, a []T, lda int, b []T, ldb int, bias, c []T, ldc int) error {
	a32, ok := any(a).([]float32)
	if !ok {
		return fmt.Errorf("rnn: biases in the product of %T", a)
	}
	return gemm.Float32Finish(cfg, m, n, k, a32, lda, any(b).([]float32), ldb, any(c).([]float32), ldc, gemm.Finish{ColBias: any(bias).([]float32)})
}

// transpose writes the rows×cols matrix src, transposed, into dst.
func transpose[T float32 | float64](dst, src []T, rows, cols int) {
	for i := 0; i < rows; i++ {
		for j, v := range src[i*cols:][:cols] {
			dst[j*rows+i] = v
		}
	}
}
