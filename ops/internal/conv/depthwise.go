package conv

import (
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// The depthwise convolution (group == C == M, one or two spatial axes): a
// direct kernel, each output plane its input plane under one small kernel.
//
// An output row is summed in one pass: every output element starts at its
// bias and takes one multiply-add per tap of the kernel rows that fall
// inside the image, in kernel order (row by row, tap by tap), so that each
// element is loaded and stored once. The columns every tap of a row reaches
// (the interior) run in rowTaps32's vector kernel for float32 (AVX-512, or
// AVX2 with FMA: the same bits; strides 1 and 2, any kernel size and
// dilation: a tap is a pointer into an input row), in Go otherwise; the few edge columns run in Go, skipping the
// taps in the padding. The interior is the same for every row, found once.
// The epilogue (Config.Epilogue32/64) runs on a worker's finished outputs
// while they are in the cache: once they hold epilogueSpan elements (the
// bands and planes of a worker follow one another in the output), so that
// a fused activation works on spans long enough for its vector loop
// rather than one call per 7x7 plane.
//
// For float32 where the CPU has AVX-512 the same sums run in whole-row
// kernels instead, edges and the plane's first and last rows included,
// from masks planned once per convolution: four full rows a call
// (dwrows.go), or a small stride-1 plane as one row (dwflat.go); with 16
// channels or more and planes up to 28x28, 16 channels at a time, a
// channel to a lane (dwchan.go).
//
// The work is split over planes (image x channel), and over bands of
// output rows when there are fewer planes than twice the cores; the
// context is checked before each band. Scratch: the tap table of one
// worker (three words per tap) and the full rows' taps (dwGeometry, a few
// words per tap), charged before any work.

// depthwise reports a convolution with one input and one output channel
// per group, over one or two spatial axes.
func depthwise(s Shape) bool {
	return s.Group == s.C && s.Group == s.M && len(s.Kernel) <= 2 && len(s.Kernel) >= 1
}

// dwGeometry is a depthwise convolution seen as 2-D (a 1-D one has one
// row).
// lo and hi are the interior: the output columns [lo, hi) that every tap
// of a row reaches (lo == hi == ow when none does). full0 and full1 are
// the full rows: the output rows [full0, full1) whose every kernel row
// falls inside the image; for them offs are the interior's taps, in
// kernel order, as offsets from the row's first input row
// ((o*sh-ph)*iw), and edges the taps of each edge column, in the same
// order, skipping the padding: the same sums as dwRow's, without finding
// the taps again on every row (a 7x7 or 14x14 plane spends more time
// there than in the sums).
type dwGeometry struct {
	ih, iw, oh, ow, kh, kw, sh, sw, dh, dw, ph, pw int
	lo, hi                                         int
	full0, full1                                   int
	offs                                           []int
	edges                                          []dwEdgeTaps
}

// dwEdgeTaps are the taps of edge column j of a full row: input offsets
// from the row's first input row and indices into the channel's weights.
type dwEdgeTaps struct {
	j        int
	off, wix []int
}

func depthwiseGeometry(s Shape) dwGeometry {
	var g dwGeometry
	if len(s.Kernel) == 1 {
		g = dwGeometry{ih: 1, iw: s.Image[0], oh: 1, ow: s.Grid[0], kh: 1, kw: s.Kernel[0], sh: 1, sw: s.Stride[0], dh: 1, dw: s.Dilation[0], ph: 0, pw: s.Pad[0]}
	} else {
		g = dwGeometry{ih: s.Image[0], iw: s.Image[1], oh: s.Grid[0], ow: s.Grid[1], kh: s.Kernel[0], kw: s.Kernel[1],
			sh: s.Stride[0], sw: s.Stride[1], dh: s.Dilation[0], dw: s.Dilation[1], ph: s.Pad[0], pw: s.Pad[1]}
	}
	g.lo, g.hi = 0, g.ow
	for q := range g.kw {
		l, h := validRange(q*g.dw-g.pw, g.sw, g.iw, g.ow)
		g.lo, g.hi = max(g.lo, l), min(g.hi, h)
	}
	if g.lo >= g.hi {
		g.lo, g.hi = g.ow, g.ow
	}
	return g
}

// planFull finds g's full rows and their taps (see dwGeometry), charging
// the tables before making them. It leaves no full rows (every row
// through dwRow) when there is no interior or more edge columns than the
// kernel is wide (pads wider than the kernel).
func (g *dwGeometry) planFull(cfg Config) error {
	full0 := (g.ph + g.sh - 1) / g.sh
	full1 := 0
	if last := g.ih - 1 - (g.kh-1)*g.dh + g.ph; last >= 0 {
		full1 = min(g.oh, last/g.sh+1)
	}
	nedges := g.lo + g.ow - g.hi
	if full1 <= full0 || g.lo >= g.hi || nedges > g.kw {
		return nil
	}
	taps := g.kh * g.kw
	if err := cfg.charge(int64(taps+nedges*(2+2*taps)) * 8); err != nil {
		return err
	}
	g.full0, g.full1 = full0, full1
	g.offs = make([]int, 0, taps)
	for r := range g.kh {
		for q := range g.kw {
			g.offs = append(g.offs, r*g.dh*g.iw+g.lo*g.sw+q*g.dw-g.pw)
		}
	}
	g.edges = make([]dwEdgeTaps, 0, nedges)
	edge := func(j int) {
		e := dwEdgeTaps{j: j, off: make([]int, 0, taps), wix: make([]int, 0, taps)}
		for r := range g.kh {
			for q := range g.kw {
				if c := j*g.sw + q*g.dw - g.pw; c >= 0 && c < g.iw {
					e.off = append(e.off, r*g.dh*g.iw+c)
					e.wix = append(e.wix, r*g.kw+q)
				}
			}
		}
		g.edges = append(g.edges, e)
	}
	for j := range g.lo {
		edge(j)
	}
	for j := g.hi; j < g.ow; j++ {
		edge(j)
	}
	return nil
}

// dwFour turns dwFull4 on (tests turn it off to compare).
var dwFour = true

// dwFull4 is dwFullRow for the four full rows from o of plane yp, their
// interiors in one call of the four-row vector kernel (float32 where the
// CPU has it; false otherwise, and the caller goes a row at a time).
func dwFull4[T Float](g *dwGeometry, yp, xp, wc []T, bias T, o int, sc *dwScratch[T]) bool {
	if !dwFour || sizeOf(bias) != 4 || g.hi <= g.lo {
		return false
	}
	base := (o*g.sh - g.ph) * g.iw
	for t, off := range g.offs {
		sc.ptrs[t] = unsafe.Pointer(&xp[base+off])
	}
	// T is float32: the same memory.
	y32 := unsafe.Slice((*float32)(unsafe.Pointer(&yp[o*g.ow+g.lo])), 3*g.ow+g.hi-g.lo)
	w32 := unsafe.Slice((*float32)(unsafe.Pointer(&wc[0])), len(g.offs))
	if !rows4Taps32(y32, g.ow, g.hi-g.lo, sc.ptrs[:len(g.offs)], w32, g.sw, *(*float32)(unsafe.Pointer(&bias)), g.sh*g.iw) {
		return false
	}
	// The edges of the four rows together: four independent sums, each
	// in dwFullRow's order.
	rs := g.sh * g.iw
	y := yp[o*g.ow : (o+4)*g.ow]
	for _, e := range g.edges {
		a0, a1, a2, a3 := bias, bias, bias, bias
		wix := e.wix[:len(e.off)]
		for t, off := range e.off {
			wv := wc[wix[t]]
			x4 := xp[base+off : base+off+3*rs+1]
			a0 += wv * x4[0]
			a1 += wv * x4[rs]
			a2 += wv * x4[2*rs]
			a3 += wv * x4[3*rs]
		}
		y[e.j], y[g.ow+e.j], y[2*g.ow+e.j], y[3*g.ow+e.j] = a0, a1, a2, a3
	}
	return true
}

// dwFullRow is dwRow for a full row o (every kernel row inside the
// image): the same sums in the same order.
func dwFullRow[T Float](g *dwGeometry, y, xp, wc []T, bias T, o int, sc *dwScratch[T]) {
	base := (o*g.sh - g.ph) * g.iw
	if g.hi > g.lo {
		offs := sc.offs[:len(g.offs)]
		for t, off := range g.offs {
			offs[t] = base + off
		}
		interior(y[g.lo:g.hi], xp, offs, wc[:len(offs)], sc.ptrs, g.sw, bias)
	}
	for _, e := range g.edges {
		acc := bias
		wix := e.wix[:len(e.off)]
		for t, off := range e.off {
			acc += wc[wix[t]] * xp[base+off]
		}
		y[e.j] = acc
	}
}

// dwScratch is one worker's tap table: per tap of the row being summed,
// its offset in the input plane (at the interior's first column), its
// weight and, for the vector kernel, its address.
type dwScratch[T Float] struct {
	offs []int
	ws   []T
	ptrs []unsafe.Pointer
	rows []int // the kernel rows inside the image, by their input row
}

func depthwiseForward[T Float](cfg Config, s Shape, x, w, b, y []T) error {
	p := &dwPlan[T]{}
	if err := p.plan(cfg, s); err != nil {
		return err
	}
	if p.cp != nil {
		defer dwChanPlans.Put(p.cp)
		// T is float32: the same memory.
		return depthwiseChan(cfg, s, &p.g, p.cp, as32(x), as32(w), as32(b), as32(y))
	}
	if err := p.chargeWorkers(cfg); err != nil {
		return err
	}
	return parallel.Range(cfg.Ctx, p.threads, p.items, p.work, func(lo, hi int) error {
		taps := p.g.kh * p.g.kw
		sc := dwScratch[T]{offs: make([]int, taps), ws: make([]T, taps), ptrs: make([]unsafe.Pointer, taps), rows: make([]int, p.g.kh)}
		return p.run(cfg, x, w, b, y, lo, hi, &sc, make([]float32, p.phases))
	})
}

// dwPlan is a depthwise convolution's plan: its geometry, the tables of
// the path it takes (cp, rp, fp, or the full rows' taps in g), and how its
// work is split over threads cores. A block's bands keep theirs, with a
// worker's scratch, from one band and run to the next (dwBandPlans).
type dwPlan[T Float] struct {
	g                      dwGeometry
	cp                     *dwChanPlan
	rp                     *dwRowPlan
	fp                     *dwFlatPlan
	c, threads, bands, per int
	items, workers, work   int
	phases                 int // the elements of a worker's phase planes (dwFlat32, stride 2)
	sc                     dwScratch[T]
	ph                     []float32
}

// plan makes p's tables for s on cfg's cores, charging them first.
func (p *dwPlan[T]) plan(cfg Config, s Shape) error {
	p.g, p.c = depthwiseGeometry(s), s.C
	g := &p.g
	cp, err := planChan[T](g, s, cfg)
	if err != nil || cp != nil {
		p.cp = cp
		return err
	}
	if p.rp, err = planRows[T](g, cfg); err != nil {
		return err
	}
	if p.rp == nil {
		if err := g.planFull(cfg); err != nil {
			return err
		}
	}
	planes := s.N * s.C
	p.threads = cfg.threads()
	bands := 1
	if planes < 2*p.threads {
		bands = min(g.oh, (2*p.threads+planes-1)/planes)
	}
	p.per = (g.oh + bands - 1) / bands
	p.bands = (g.oh + p.per - 1) / p.per
	p.items = planes * p.bands
	p.workers = min(p.threads, p.items)
	p.work = planes * g.oh * g.ow * g.kh * g.kw
	if p.fp, err = planFlat[T](g, cfg, p.bands); err != nil {
		return err
	}
	p.phases = 0
	if p.fp != nil {
		p.phases = 4 * p.fp.phases
	}
	return nil
}

// chargeWorkers charges the workers' scratch: their tap tables and phase
// planes.
func (p *dwPlan[T]) chargeWorkers(cfg Config) error {
	var zero T
	if err := cfg.charge(int64(p.workers) * int64(p.g.kh*p.g.kw) * int64(8+8+int(sizeOf(zero))+8)); err != nil {
		return err
	}
	return cfg.charge(int64(p.workers) * int64(p.phases) * 4)
}

// run computes p's items [lo, hi) (not through the channel blocks) with
// one worker's scratch.
func (p *dwPlan[T]) run(cfg Config, x, w, b, y []T, lo, hi int, sc *dwScratch[T], ph []float32) error {
	g, fp, rp, bands, per := &p.g, p.fp, p.rp, p.bands, p.per
	pin, pout := g.ih*g.iw, g.oh*g.ow
	taps := g.kh * g.kw
	// The items' outputs follow one another in y: the epilogue runs
	// on [done, end) once it holds epilogueSpan elements.
	done := lo/bands*pout + lo%bands*per*g.ow
	for it := lo; it < hi; it++ {
		if err := cfg.err(); err != nil {
			return err
		}
		plane, band := it/bands, it%bands
		c := plane % p.c
		xp := x[plane*pin : (plane+1)*pin]
		yp := y[plane*pout : (plane+1)*pout]
		wc := w[c*taps : (c+1)*taps]
		var bv T
		if b != nil {
			bv = b[c]
		}
		o0, o1 := band*per, min(g.oh, (band+1)*per)
		switch {
		case fp != nil && p.phases > 0:
			// T is float32: the same memory.
			dwSplitPhases(g, fp, ph, as32(xp))
			dwFlat32(g, fp, as32(yp), ph, as32(wc), *(*float32)(unsafe.Pointer(&bv)))
		case fp != nil:
			// T is float32: the same memory.
			dwFlat32(g, fp, as32(yp), as32(xp), as32(wc), *(*float32)(unsafe.Pointer(&bv)))
		case rp != nil:
			// T is float32: the same memory.
			dwRowsBand(g, rp, as32(yp), as32(xp), as32(wc), *(*float32)(unsafe.Pointer(&bv)), o0, o1)
		default:
			for o := o0; o < o1; {
				switch {
				case o >= g.full0 && o+4 <= min(o1, g.full1) && dwFull4(g, yp, xp, wc, bv, o, sc):
					o += 4
				case o >= g.full0 && o < g.full1:
					dwFullRow(g, yp[o*g.ow:(o+1)*g.ow], xp, wc, bv, o, sc)
					o++
				default:
					dwRow(g, yp[o*g.ow:(o+1)*g.ow], xp, wc, bv, o, sc)
					o++
				}
			}
		}
		if end := plane*pout + o1*g.ow; end-done >= epilogueSpan || it == hi-1 {
			epilogue(cfg, y[done:end])
			done = end
		}
	}
	return nil
}

// epilogueSpan is the fewest output elements the depthwise convolution
// hands to the epilogue at once (unless a worker's part is shorter): the
// planes or bands of several items, still in the cache, rather than one
// call per 7x7 plane, where a fused Clip's call cost as much as a third of
// the convolution.
const epilogueSpan = 2048

// as32 is s seen as float32 (T must be float32).
func as32[T Float](s []T) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// dwRow sums output row o of one plane xp into y (see the file's
// comment).
func dwRow[T Float](g *dwGeometry, y, xp, wc []T, bias T, o int, sc *dwScratch[T]) {
	rows := sc.rows[:0]
	for r := range g.kh {
		if i := o*g.sh - g.ph + r*g.dh; i >= 0 && i < g.ih {
			rows = append(rows, r)
		}
	}
	lo, hi := g.lo, g.hi
	n := 0
	for _, r := range rows {
		i := o*g.sh - g.ph + r*g.dh
		for q := range g.kw {
			sc.offs[n] = i*g.iw + lo*g.sw + q*g.dw - g.pw
			sc.ws[n] = wc[r*g.kw+q]
			n++
		}
	}
	if hi > lo {
		interior(y[lo:hi], xp, sc.offs[:n], sc.ws[:n], sc.ptrs, g.sw, bias)
	}
	// The edges, tap by tap in the same order, skipping the padding.
	for j := range lo {
		y[j] = dwEdge(g, xp, wc, bias, rows, o, j)
	}
	for j := hi; j < g.ow; j++ {
		y[j] = dwEdge(g, xp, wc, bias, rows, o, j)
	}
}

// dwEdge is output column j of row o, summed in Go over the kernel rows
// inside the image (rows) tap by tap, skipping the taps in the padding.
func dwEdge[T Float](g *dwGeometry, xp, wc []T, bias T, rows []int, o, j int) T {
	acc := bias
	for _, r := range rows {
		xr := xp[(o*g.sh-g.ph+r*g.dh)*g.iw : (o*g.sh-g.ph+r*g.dh+1)*g.iw]
		wr := wc[r*g.kw : (r+1)*g.kw]
		for q, wv := range wr {
			if c := j*g.sw + q*g.dw - g.pw; c >= 0 && c < g.iw {
				acc += wv * xr[c]
			}
		}
	}
	return acc
}

// interior sets y[j] to bias plus the sum over the taps t of ws[t] *
// xp[offs[t] + j*stride]: the vector kernel for float32 where there is
// one, Go otherwise.
func interior[T Float](y, xp []T, offs []int, ws []T, ptrs []unsafe.Pointer, stride int, bias T) {
	if len(offs) == 0 {
		for j := range y {
			y[j] = bias
		}
		return
	}
	if sizeOf(bias) == 4 {
		for t, off := range offs {
			ptrs[t] = unsafe.Pointer(&xp[off])
		}
		// T is float32: the same memory.
		y32 := unsafe.Slice((*float32)(unsafe.Pointer(&y[0])), len(y))
		w32 := unsafe.Slice((*float32)(unsafe.Pointer(&ws[0])), len(ws))
		if rowTaps32(y32, ptrs[:len(offs)], w32, stride, *(*float32)(unsafe.Pointer(&bias))) {
			return
		}
	}
	for j := range y {
		acc := bias
		p := j * stride
		for t, off := range offs {
			acc += ws[t] * xp[off+p]
		}
		y[j] = acc
	}
}

// epilogue applies the Config's epilogue for T, if any, to y.
func epilogue[T Float](cfg Config, y []T) {
	if len(y) == 0 {
		return
	}
	var zero T
	if sizeOf(zero) == 4 {
		if cfg.Epilogue32 != nil {
			cfg.Epilogue32(unsafe.Slice((*float32)(unsafe.Pointer(&y[0])), len(y)))
		}
		return
	}
	if cfg.Epilogue64 != nil {
		cfg.Epilogue64(unsafe.Slice((*float64)(unsafe.Pointer(&y[0])), len(y)))
	}
}
