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
// taps in the padding. The epilogue (Config.Epilogue32/64) runs on each row
// as soon as it is done, while it is in the cache.
//
// The work is split over planes (image x channel), and over bands of
// output rows when there are fewer planes than twice the cores; the
// context is checked before each band. Scratch: the tap table of one
// worker (three words per tap), charged before any work.

// depthwise reports a convolution with one input and one output channel
// per group, over one or two spatial axes.
func depthwise(s Shape) bool {
	return s.Group == s.C && s.Group == s.M && len(s.Kernel) <= 2 && len(s.Kernel) >= 1
}

// dwGeometry is a depthwise convolution seen as 2-D (a 1-D one has one
// row).
type dwGeometry struct {
	ih, iw, oh, ow, kh, kw, sh, sw, dh, dw, ph, pw int
}

func depthwiseGeometry(s Shape) dwGeometry {
	if len(s.Kernel) == 1 {
		return dwGeometry{1, s.Image[0], 1, s.Grid[0], 1, s.Kernel[0], 1, s.Stride[0], 1, s.Dilation[0], 0, s.Pad[0]}
	}
	return dwGeometry{s.Image[0], s.Image[1], s.Grid[0], s.Grid[1], s.Kernel[0], s.Kernel[1],
		s.Stride[0], s.Stride[1], s.Dilation[0], s.Dilation[1], s.Pad[0], s.Pad[1]}
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
	g := depthwiseGeometry(s)
	pin, pout := g.ih*g.iw, g.oh*g.ow
	planes := s.N * s.C
	threads := cfg.threads()
	taps := g.kh * g.kw
	bands := 1
	if planes < 2*threads {
		bands = min(g.oh, (2*threads+planes-1)/planes)
	}
	per := (g.oh + bands - 1) / bands
	bands = (g.oh + per - 1) / per
	items := planes * bands
	workers := min(threads, items)
	var zero T
	if err := cfg.charge(int64(workers) * int64(taps) * int64(8+8+int(sizeOf(zero))+8)); err != nil {
		return err
	}
	return parallel.Range(cfg.Ctx, threads, items, planes*pout*taps, func(lo, hi int) error {
		sc := dwScratch[T]{offs: make([]int, taps), ws: make([]T, taps), ptrs: make([]unsafe.Pointer, taps), rows: make([]int, g.kh)}
		for it := lo; it < hi; it++ {
			if err := cfg.err(); err != nil {
				return err
			}
			plane, band := it/bands, it%bands
			c := plane % s.C
			xp := x[plane*pin : (plane+1)*pin]
			yp := y[plane*pout : (plane+1)*pout]
			wc := w[c*taps : (c+1)*taps]
			var bv T
			if b != nil {
				bv = b[c]
			}
			for o := band * per; o < min(g.oh, (band+1)*per); o++ {
				yrow := yp[o*g.ow : (o+1)*g.ow]
				dwRow(g, yrow, xp, wc, bv, o, &sc)
				epilogue(cfg, yrow)
			}
		}
		return nil
	})
}

// dwRow sums output row o of one plane xp into y (see the file's
// comment).
func dwRow[T Float](g dwGeometry, y, xp, wc []T, bias T, o int, sc *dwScratch[T]) {
	rows := sc.rows[:0]
	for r := range g.kh {
		if i := o*g.sh - g.ph + r*g.dh; i >= 0 && i < g.ih {
			rows = append(rows, r)
		}
	}
	// The interior: the columns [lo, hi) that every tap of a row reaches.
	lo, hi := 0, g.ow
	for q := range g.kw {
		l, h := validRange(q*g.dw-g.pw, g.sw, g.iw, g.ow)
		lo, hi = max(lo, l), min(hi, h)
	}
	if lo >= hi {
		lo, hi = g.ow, g.ow
	}
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
	edge := func(j int) {
		acc := bias
		for _, r := range rows {
			i := o*g.sh - g.ph + r*g.dh
			for q := range g.kw {
				if c := j*g.sw + q*g.dw - g.pw; c >= 0 && c < g.iw {
					acc += wc[r*g.kw+q] * xp[i*g.iw+c]
				}
			}
		}
		y[j] = acc
	}
	for j := 0; j < lo; j++ {
		edge(j)
	}
	for j := hi; j < g.ow; j++ {
		edge(j)
	}
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
