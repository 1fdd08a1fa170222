package conv

// The depthwise convolution's whole-row path (float32, where the CPU has
// dwRows32's AVX-512 kernel): every output row, edges and the plane's
// first and last rows included, in one kernel call for four full rows or
// one for a single row, from a plan made once per convolution.
//
// The sums are dwRow's, element for element: the interior columns
// [lo, hi) take the bias and one fused multiply-add per tap in kernel
// order (rowTaps32's operations), the edge columns the bias and, per tap
// inside the image in the same order, a multiply and an add (dwEdge's
// Go, which the default amd64 build does not fuse); the taps in the
// padding are skipped, not added as zeros (the multiply-adds are masked),
// so a -0 sum or an infinite weight gives the bits it gave before.

// dwMasked turns the whole-row path on (tests turn it off to compare).
var dwMasked = true

// dwRowPlan is the whole-row kernel's plan for one convolution: per tap
// (kernel order) the offset of output column 0's input element from the
// output row's first input row, and per block of 16 output columns a mask
// entry and the masks of each tap (see dwRows32).
type dwRowPlan struct {
	offs         []int
	nb           int
	blocks       []uint64 // bits 0-31: elements loaded; 32-47: interior lanes; 48-63: stored lanes; bit 31: the block has edge lanes
	tmasks       []uint64 // [b*taps+t]: bits 0-31: elements tap t loads; 32-47: its edge lanes
	full0, full1 int      // the output rows whose every kernel row is inside the image
}

// planRows makes g's whole-row plan, charging it first; nil (and the
// older paths) when the kernel does not apply: not float32, no AVX-512,
// a stride above 2.
func planRows[T Float](g *dwGeometry, cfg Config) (*dwRowPlan, error) {
	var zero T
	if !dwMasked || sizeOf(zero) != 4 || !haveRowsKernel() || g.sw > 2 {
		return nil, nil
	}
	taps := g.kh * g.kw
	nb := (g.ow + 15) / 16
	if err := cfg.charge(int64(taps+nb+nb*taps) * 8); err != nil {
		return nil, err
	}
	p := &dwRowPlan{offs: make([]int, taps), nb: nb, blocks: make([]uint64, nb), tmasks: make([]uint64, nb*taps)}
	for r := range g.kh {
		for q := range g.kw {
			p.offs[r*g.kw+q] = r*g.dh*g.iw + q*g.dw - g.pw
		}
	}
	for b := range nb {
		j0 := 16 * b
		c := min(16, g.ow-j0)
		var store, inner uint64
		for j := range c {
			store |= 1 << j
			if j0+j >= g.lo && j0+j < g.hi {
				inner |= 1 << j
			}
		}
		e := inner<<32 | store<<48
		if inner == store {
			e |= (1<<((c-1)*g.sw+1) - 1) // the elements of the c outputs
		} else {
			e |= 1 << 31
		}
		p.blocks[b] = e
		for t := range taps {
			coff := (t%g.kw)*g.dw - g.pw
			var load, edge uint64
			for j := range c {
				if col := (j0+j)*g.sw + coff; col >= 0 && col < g.iw {
					load |= 1 << (j * g.sw)
					if inner&(1<<j) == 0 {
						edge |= 1 << j
					}
				}
			}
			p.tmasks[b*taps+t] = load | edge<<32
		}
	}
	p.full0 = (g.ph + g.sh - 1) / g.sh
	if last := g.ih - 1 - (g.kh-1)*g.dh + g.ph; last >= 0 {
		p.full1 = min(g.oh, last/g.sh+1)
	}
	return p, nil
}

// dwRowsBand sums output rows [o0, o1) of one plane xp into yp: four full
// rows a call, the last of them overlapping rows already done when fewer
// than four are left (the same sums again, before the band's epilogue),
// each other row alone over the kernel rows inside the image.
func dwRowsBand(g *dwGeometry, p *dwRowPlan, yp, xp, wc []float32, bias float32, o0, o1 int) {
	taps := g.kh * g.kw
	for o := o0; o < o1; {
		if o >= p.full0 && o < p.full1 {
			e := min(o1, p.full1)
			switch {
			case e-o >= 4:
			case e-4 >= max(o0, p.full0):
				o = e - 4
			default:
				dwRows32(yp[o*g.ow:(o+1)*g.ow], 1, g, p, xp, (o*g.sh-g.ph)*g.iw, 0, taps, wc, bias)
				o++
				continue
			}
			dwRows32(yp[o*g.ow:(o+4)*g.ow], 4, g, p, xp, (o*g.sh-g.ph)*g.iw, 0, taps, wc, bias)
			o += 4
			continue
		}
		// The kernel rows [r0, r1) fall inside the image.
		i0 := o*g.sh - g.ph
		r0, r1 := 0, 0
		if i0 < 0 {
			r0 = (-i0 + g.dh - 1) / g.dh
		}
		if last := g.ih - 1 - i0; last >= 0 {
			r1 = min(g.kh, last/g.dh+1)
		}
		y := yp[o*g.ow : (o+1)*g.ow]
		if r1 <= r0 {
			for j := range y {
				y[j] = bias
			}
		} else {
			dwRows32(y, 1, g, p, xp, i0*g.iw, r0*g.kw, r1*g.kw, wc, bias)
		}
		o++
	}
}
