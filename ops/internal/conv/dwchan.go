package conv

import (
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// The depthwise convolution's small planes, 16 channels at a time. On a
// 7x7 or 14x14 plane a kernel that runs along a plane's rows leaves most
// of a 16-lane vector empty or masked (dwflat.go, dwrows.go); here the
// lanes are 16 channels instead, as in onnxruntime's NCHWc layout: the
// block's input planes are transposed into a tile of positions, each
// position a vector of its 16 channels (dwChanIn16), the weights the same
// way (a vector per tap), every output position is the bias plus one
// vector operation per tap, and the output tile is transposed back into
// the 16 NCHW planes (dwChanOut16). A block of fewer channels (the last)
// has zeros in its other lanes, and only its planes are written.
//
// The sums are dwRow's, element for element: each output position takes,
// in kernel order, the taps that fall inside the image (the taps in the
// padding are skipped, not multiplied by zero), with a fused multiply-add
// in the interior columns [lo, hi) and a multiply and an add in the edge
// columns. Since a vector is one position, the tap set and the kind of sum
// are the same in all its lanes, so the plan (dwChanPlan, made once per
// convolution) is a list of runs of positions that share them: per output
// row, its interior columns; per edge column, the rows that have the same
// kernel rows inside the image (all the middle rows of a plane at once).
//
// The work is split over (image, channel block) items; each worker's
// scratch is the two tiles, the block's weights and bias, charged before
// any work. A fused clamp (Config.Clamp32) is applied to each position
// before it is stored; another epilogue runs on a worker's finished
// planes as in depthwise.go.

// dwChanPlan is the runs of a convolution's output positions (see the
// file's comment). A run is eight words: the byte offset of its first
// position in the output tile, the bytes between its positions there, its
// positions, the bytes between its positions in the input tile, its first
// tap in taps, its taps, 1 when they are fused multiply-adds, 0. A tap is
// two words: the byte offset in the input tile of the vector the run's
// first position reads, and of the tap's weight vector in the weights.
type dwChanPlan struct {
	runs  []int
	taps  []int
	nruns int
}

// dwChanPlans keeps plans between convolutions (depthwiseForward gives its
// plan back): a plan is a few KB, made at every run.
var dwChanPlans sync.Pool

// dwChan turns the channel-blocked path on (tests turn it off to compare).
var dwChan = true

// dwChanMaxOutputs and dwChanMaxInputs bound the planes that go through
// the channel blocks: outputs up to 28x28, inputs up to 32x32 (a 64 KB
// tile). The least time of a call on one core without an epilogue
// (BenchmarkSmallDepthwise, a loaded machine), against the row paths:
// 7x7x960 0.53, 14x14x384 0.70, 14x14x576 0.66, 14x14 to 7x7 stride 2
// 0.55, 20x20x384 0.54, 28x28x192 0.70, 28x28 to 14x14 stride 2 0.82;
// 40x40x192 1.15, 56x56 and 56x56 to 28x28 1.4-1.5, 41x41 to 20x20
// stride 2 (a 107 KB input tile) 1.0.
const (
	dwChanMaxOutputs = 784
	dwChanMaxInputs  = 1024
)

// planChan makes g's channel-blocked plan, charging it first; nil when it
// does not apply: not float32, no AVX-512, fewer than 16 channels, fewer
// channel blocks than threads, or planes larger than the bounds above.
func planChan[T Float](g *dwGeometry, s Shape, cfg Config) (*dwChanPlan, error) {
	var zero T
	if !dwChan || !dwMasked || sizeOf(zero) != 4 || !haveChanKernel() || s.C < 16 ||
		s.N*((s.C+15)/16) < cfg.threads() || g.oh*g.ow > dwChanMaxOutputs || g.ih*g.iw > dwChanMaxInputs {
		return nil, nil
	}
	nr, nt := g.chanRuns(nil)
	if err := cfg.charge(int64(8*nr+2*nt+2) * 8); err != nil {
		return nil, err
	}
	p, ok := dwChanPlans.Get().(*dwChanPlan)
	if !ok {
		p = &dwChanPlan{}
	}
	p.runs, p.taps = slices.Grow(p.runs[:0], 8*nr), slices.Grow(p.taps[:0], 2*nt+2)
	p.nruns, _ = g.chanRuns(p)
	p.taps = append(p.taps, 0, 0) // never read: taps[0] exists
	return p, nil
}

// chanRuns appends g's runs and taps to p (nil: only counts them) and
// returns how many of each.
func (g *dwGeometry) chanRuns(p *dwChanPlan) (runs, taps int) {
	const v = 64 // bytes a position
	// The kernel rows inside the image for output row o: [r0, r1), as the
	// input row o*sh - ph + r*dh grows with r.
	present := func(o int) (r0, r1 int) {
		r0, r1 = g.kh, 0
		for r := range g.kh {
			if i := o*g.sh - g.ph + r*g.dh; i >= 0 && i < g.ih {
				r0, r1 = min(r0, r), r+1
			}
		}
		return r0, max(r0, r1)
	}
	run := func(r0, r1, o, j, n, ystep, xstep int, fused bool) {
		t0 := taps
		for r := r0; r < r1; r++ {
			for q := range g.kw {
				c := j*g.sw + q*g.dw - g.pw
				if c < 0 || c >= g.iw {
					continue
				}
				if p != nil {
					p.taps = append(p.taps, ((o*g.sh-g.ph+r*g.dh)*g.iw+c)*v, (r*g.kw+q)*v)
				}
				taps++
			}
		}
		if p != nil {
			f := 0
			if fused {
				f = 1
			}
			p.runs = append(p.runs, (o*g.ow+j)*v, ystep, n, xstep, t0, taps-t0, f, 0)
		}
		runs++
	}
	for o0 := 0; o0 < g.oh; {
		r0, r1 := present(o0)
		o1 := o0 + 1
		for o1 < g.oh {
			if q0, q1 := present(o1); q0 != r0 || q1 != r1 {
				break
			}
			o1++
		}
		if g.lo < g.hi {
			for o := o0; o < o1; o++ {
				run(r0, r1, o, g.lo, g.hi-g.lo, v, g.sw*v, true)
			}
		}
		for j := range g.ow {
			if j < g.lo || j >= g.hi {
				run(r0, r1, o0, j, o1-o0, g.ow*v, g.sh*g.iw*v, false)
			}
		}
		o0 = o1
	}
	return runs, taps
}

// depthwiseChan runs the convolution through p (see the file's comment).
func depthwiseChan(cfg Config, s Shape, g *dwGeometry, p *dwChanPlan, x, w, b, y []float32) error {
	per, err := chargeChan(cfg, s, g)
	if err != nil {
		return err
	}
	items := s.N * ((s.C + 15) / 16)
	clo, chi, cfg := chanClamp(cfg)
	return parallel.Range(cfg.Ctx, cfg.threads(), items, items*16*g.oh*g.ow*g.kh*g.kw, func(lo, hi int) error {
		sp := GetScratch[float32](per)
		defer PutScratch(sp)
		return dwChanItems(cfg, s, g, p, x, w, b, y, lo, hi, *sp, clo, chi)
	})
}

// chargeChan charges the workers' scratch of depthwiseChan and returns
// its elements a worker: 16 lanes a position of each tile, a tap of the
// weights, the bias; 16 more to align the tiles on 64 bytes.
func chargeChan(cfg Config, s Shape, g *dwGeometry) (int, error) {
	workers := min(cfg.threads(), s.N*((s.C+15)/16))
	per := 16 * (g.ih*g.iw + g.oh*g.ow + g.kh*g.kw + 2)
	return per, cfg.charge(int64(workers) * int64(per) * 4)
}

// chanClamp is the bounds a fused Relu or Clip (Clamp32) applies to each
// position's sums before they are stored, and cfg without it as an
// epilogue (the infinities and cfg when there is none).
func chanClamp(cfg Config) (lo, hi float32, _ Config) {
	lo, hi = float32(math.Inf(-1)), float32(math.Inf(1))
	if cfg.Clamp32 != nil && cfg.Epilogue32 != nil {
		lo, hi = cfg.Clamp32[0], cfg.Clamp32[1]
		cfg.Epilogue32 = nil
	}
	return lo, hi, cfg
}

// dwChanItems runs items [lo, hi) of depthwiseChan (an image's block of
// 16 channels each) with buf, the worker's scratch (chargeChan's
// elements).
func dwChanItems(cfg Config, s Shape, g *dwGeometry, p *dwChanPlan, x, w, b, y []float32, lo, hi int, buf []float32, clo, chi float32) error {
	pin, pout, taps := g.ih*g.iw, g.oh*g.ow, g.kh*g.kw
	blocks := (s.C + 15) / 16
	a := int(uintptr(unsafe.Pointer(&buf[0]))%64) / 4
	if a != 0 {
		a = 16 - a
	}
	xt := buf[a : a+16*pin]
	yt := buf[a+16*pin : a+16*(pin+pout)]
	wt := buf[a+16*(pin+pout) : a+16*(pin+pout+taps)]
	bt := buf[a+16*(pin+pout+taps) : a+16*(pin+pout+taps+1)]
	item := func(it int) (base, nc int) {
		n, c0 := it/blocks, it%blocks*16
		return (n*s.C + c0), min(16, s.C-c0)
	}
	first, _ := item(lo)
	done := first * pout
	for it := lo; it < hi; it++ {
		if err := cfg.err(); err != nil {
			return err
		}
		plane, nc := item(it)
		c0 := plane % s.C
		dwChanIn16(&xt[0], &x[plane*pin], pin*4, nc, pin)
		dwChanIn16(&wt[0], &w[c0*taps], taps*4, nc, taps)
		clear(bt)
		if b != nil {
			copy(bt, b[c0:c0+nc])
		}
		dwChanRuns(&yt[0], &xt[0], &wt[0], &bt[0], &p.runs[0], p.nruns, &p.taps[0], clo, chi)
		dwChanOut16(&y[plane*pout], &yt[0], pout*4, nc, pout)
		if end := (plane + nc) * pout; end-done >= epilogueSpan || it == hi-1 {
			epilogue(cfg, y[done:end])
			done = end
		}
	}
	return nil
}
