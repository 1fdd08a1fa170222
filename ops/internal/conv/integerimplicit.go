package conv

import (
	"encoding/binary"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
)

// The int8 implicit GEMM (ConvInteger, QLinearConv, the fused QDQ
// convolution): the weights packed once per group (PackIntegerWeights: at
// load for a model's constant weights, else at the run, charged), and the
// image's windows written straight into the 8-bit product's panels
// (gemm.IntegerImplicit, gemm.Filler8) from a padded, stride-phase-split
// copy of the image made once per product (windows8.go: every window row
// over one output row is then a contiguous run; the image's zero point is
// the pad) when that copy holds at most maxPadded8 bytes; a larger image's
// windows are written by fillWindows8 from the image as it lies, a few
// padded channels at a time. A 1x1's image is B as it lies
// (gemm.IntegerPackedA). The scratch, the padded copy and the product's
// panel block per worker (IntegerImplicitScratchBytes), is charged before
// any work. One or two
// spatial axes, or a 1x1; other shapes run Integer's im2col tiles. Exact,
// as Integer.

// IntegerWeights is an 8-bit convolution's weights (M x C/Group x
// Kernel) packed for gemm.IntegerImplicit, one matrix per group.
type IntegerWeights struct {
	m, k, group int
	signed      bool
	packs       []*gemm.PackedA8
}

// PackIntegerWeights packs w (m rows of k bytes, signed or not as wSigned
// says) per group of m/group rows, charging cfg.Charge before allocating.
func PackIntegerWeights(cfg gemm.Config, m, k, group int, w []byte, wSigned bool) (*IntegerWeights, error) {
	p := &IntegerWeights{m: m, k: k, group: group, signed: wSigned}
	if group <= 0 || m%group != 0 || len(w) < m*k {
		return nil, gemm.ErrShape
	}
	mg := m / group
	for g := range group {
		pa, err := gemm.PackA8(cfg, mg, k, w[g*mg*k:(g+1)*mg*k], wSigned, k)
		if err != nil {
			return nil, err
		}
		p.packs = append(p.packs, pa)
	}
	return p, nil
}

// Bytes is the memory the packed weights hold.
func (p *IntegerWeights) Bytes() int64 {
	var n int64
	for _, pa := range p.packs {
		n += pa.Bytes()
	}
	return n
}

// Fits reports whether p holds the weights of s, of the signedness given.
func (p *IntegerWeights) Fits(s Shape, wSigned bool) bool {
	return p != nil && p.m == s.M && p.group == s.Group && p.signed == wSigned &&
		p.k == s.C/max(s.Group, 1)*prod(s.Kernel)
}

// IntegerImplicitOK reports a convolution IntegerPacked runs: one or two
// spatial axes, or a 1x1.
func IntegerImplicitOK(s Shape) bool {
	return pointwise(s) || (len(s.Kernel) >= 1 && len(s.Kernel) <= 2)
}

// integerTile is the positions of one item of work.
var integerTile = 512

// IntegerImplicitScratchBytes is the scratch IntegerPacked charges for s
// on threads cores; with packed false it adds the weights packed at the
// run.
func IntegerImplicitScratchBytes(s Shape, threads int, packed bool) int64 {
	k := s.C / max(s.Group, 1) * prod(s.Kernel)
	t := min(prod(s.Grid), integerTile)
	b := gemm.ImplicitScratch8(t, k, max(threads, 1))
	if pb := paddedBytes8(s); pb <= maxPadded8 {
		b += pb
	}
	if !packed {
		mg := s.M / max(s.Group, 1)
		b += int64(s.Group) * (int64((k+3)/4*4)*int64((mg+11)/12*12) + 4*int64(mg))
	}
	return b
}

// IntegerPacked is Integer with the weights packed (pw, made by
// PackIntegerWeights for s; nil: packed here from w, charged) and the
// windows written straight into the product's panels. s must satisfy
// IntegerImplicitOK.
func IntegerPacked(cfg Config, s Shape, x []byte, xSigned bool, xZero byte, w []byte, wSigned bool, pw *IntegerWeights, wZero []int32, y []int32) error {
	cg, mg := s.C/s.Group, s.M/s.Group
	k := cg * prod(s.Kernel)
	pin, pout := prod(s.Image), prod(s.Grid)
	if len(y) == 0 {
		return nil
	}
	if k == 0 {
		clear(y)
		return nil
	}
	if !pw.Fits(s, wSigned) {
		var err error
		if pw, err = PackIntegerWeights(cfg.gemm(1), s.M, k, s.Group, w, wSigned); err != nil {
			return err
		}
	}
	xz, rowZero := integerZeros(xZero, xSigned, wZero, mg)
	pw1 := pointwise(s)
	var g dwGeometry
	var pg padded8
	var img []byte
	var offs []int32
	if !pw1 {
		g = depthwiseGeometry(s)
	}
	whole := !pw1 && paddedBytes8(s) <= maxPadded8
	if whole {
		// The padded copy of every image, once, and the window rows' offsets.
		pg = paddedGeometry8(g)
		if err := cfg.charge(paddedBytes8(s)); err != nil {
			return err
		}
		buf := GetScratch[byte](s.N * s.C * pg.plane)
		defer PutScratch(buf)
		img = *buf
		for ch := range s.N * s.C {
			if err := cfg.err(); err != nil {
				return err
			}
			pg.pad8(img[ch*pg.plane:(ch+1)*pg.plane], x[ch*pin:(ch+1)*pin], g, xZero)
		}
		offs = make([]int32, (k+3)/4*4)
		pg.offsets8(offs, cg, g)
	}
	t := min(pout, integerTile)
	tiles := (pout + t - 1) / t
	return split[byte](cfg, s.N*s.Group*tiles, s.N*s.M*pout*max(1, k/8), 0, 1, func(item int, _ []byte, wc Config) error {
		tile := item % tiles
		ng := item / tiles
		n, gr := ng/s.Group, ng%s.Group
		p0 := tile * t
		p1 := min(pout, p0+t)
		xg := x[(n*s.C+gr*cg)*pin : (n*s.C+(gr+1)*cg)*pin]
		yg := y[(n*s.M+gr*mg)*pout:]
		if pw1 {
			// The image is B as it lies: packed as Integer packs it.
			return gemm.IntegerPackedA(wc.gemm(wc.Threads), mg, p1-p0, k, pw.packs[gr], rowZero(gr), xg[p0:], xSigned, pin, []int32{xz}, yg[p0:], pout)
		}
		fill := func(dst []byte, pc, kc, j0, nc int) {
			fillWindows8(dst, pc, kc, p0+j0, nc, xg, g, xZero)
		}
		if whole {
			ig := img[(n*s.C+gr*cg)*pg.plane : (n*s.C+(gr+1)*cg)*pg.plane]
			fill = func(dst []byte, pc, kc, j0, nc int) {
				fillPadded8(dst, pc, kc, p0+j0, nc, ig, offs, g, pg)
			}
		}
		return gemm.IntegerImplicit(wc.gemm(wc.Threads), mg, p1-p0, k, pw.packs[gr], rowZero(gr), fill, xSigned, []int32{xz}, yg[p0:], pout)
	})
}

// fillWindows8 writes rows [pc, pc+kc) of the windows (row c*kh*kw + r*kw
// + q: channel c of xg, tap (r, q)) for positions [q0, q0+nc) in
// gemm.Filler8's layout, pad where a tap falls in the padding.
func fillWindows8(dst []byte, pc, kc, q0, nc int, xg []byte, g dwGeometry, pad byte) {
	nr := gemm.NR8()
	k4 := (kc + 3) / 4
	var runBuf [48]run
	runs := runBuf[:0]
	for j := 0; j < nc; {
		pos := q0 + j
		oh, ow := pos/g.ow, pos%g.ow
		n := min(g.ow-ow, nc-j, nr-j%nr)
		runs = append(runs, run{oh: oh, ow: ow, n: n, off: (j/nr)*k4*nr*4 + (j%nr)*4})
		j += n
	}
	if g.sw == 1 && fillWindows8Padded(dst, pc, kc, q0, nc, xg, g, pad, runs) {
		return
	}
	taps := g.kh * g.kw
	pin := g.ih * g.iw
	type tapRow struct {
		plane  []byte
		dr, dq int
	}
	var padRow [64]byte
	var tmps [4][64]byte
	for i := range padRow {
		padRow[i] = pad
	}
	for q := range k4 {
		var rows [4]tapRow
		for t := range 4 {
			p := pc + min(4*q+t, kc-1) // a row past kc: any bytes do
			c, tap := p/taps, p%taps
			r, cq := tap/g.kw, tap%g.kw
			rows[t] = tapRow{plane: xg[c*pin : (c+1)*pin], dr: r*g.dh - g.ph, dq: cq*g.dw - g.pw}
		}
		for _, u := range runs {
			d := dst[u.off+q*nr*4 : u.off+q*nr*4+u.n*4]
			var src [4][]byte
			for t := range 4 {
				ih := u.oh*g.sh + rows[t].dr
				if ih < 0 || ih >= g.ih {
					src[t] = padRow[:u.n]
					continue
				}
				row := rows[t].plane[ih*g.iw : (ih+1)*g.iw]
				base := u.ow*g.sw + rows[t].dq
				if g.sw == 1 && base >= 0 && base+u.n <= g.iw {
					src[t] = row[base : base+u.n]
					continue
				}
				// A run that crosses the padding or strides: through a
				// copy, pad outside the image.
				tmp := tmps[t][:u.n]
				var lo, hi int
				if g.sw == 1 {
					lo, hi = max(0, -base), min(u.n, g.iw-base)
				} else {
					lo, hi = validRange(base, g.sw, g.iw, u.n)
				}
				if lo >= hi {
					src[t] = padRow[:u.n]
					continue
				}
				copy(tmp[:lo], padRow[:lo])
				if g.sw == 1 {
					copy(tmp[lo:hi], row[base+lo:base+hi])
				} else {
					for o := lo; o < hi; o++ {
						tmp[o] = row[base+o*g.sw]
					}
				}
				copy(tmp[hi:], padRow[hi:u.n])
				src[t] = tmp
			}
			interleave4(d, src[0], src[1], src[2], src[3])
		}
	}
}

// paddedBytes is the bytes of padded image fillWindows8Padded copies at
// a time (on its stack: nothing that grows with the input).
const paddedBytes = 4096

// fillWindows8Padded is fillWindows8 (runs: its runs of positions) for a
// stride of 1 along the row. The block's channels, over the rows its
// positions reach and padded all round, are copied a few at a time (as
// many as fit in paddedBytes) with the pad around them, and every window
// row of the quads whose channels are in the copy is then a slice of it,
// interleaved as it lies: no run goes through a row of pads, which on a
// small image is most runs and on a large one the runs at each row's
// ends. It reports false, having written nothing, when the channels one
// quad reads do not fit.
func fillWindows8Padded(dst []byte, pc, kc, q0, nc int, xg []byte, g dwGeometry, pad byte, runs []run) bool {
	taps := g.kh * g.kw
	// The padded copy of a channel: input rows [rlo, rhi), columns [-pw, chi).
	rlo := q0/g.ow*g.sh - g.ph
	rhi := (q0+nc-1)/g.ow*g.sh + (g.kh-1)*g.dh - g.ph + 1
	chi := g.ow - 1 + (g.kw-1)*g.dw - g.pw + 1
	h, w := rhi-rlo, chi+g.pw
	if h <= 0 || w <= 0 {
		return false
	}
	per := paddedBytes / (h * w) // channels in one copy
	if per < (4+taps-1)/taps+1 { // a quad's rows span at most this many
		return false
	}
	var buf [paddedBytes]byte
	pin := g.ih * g.iw
	a, b := min(g.pw, w), min(g.pw+g.iw, w) // the image's columns in a padded row
	nr := gemm.NR8()
	k4 := (kc + 3) / 4
	c1 := (pc+kc-1)/taps + 1
	for q := 0; q < k4; {
		cs := (pc + 4*q) / taps
		ce := min(c1, cs+per)
		for c := cs; c < ce; c++ {
			for i := range h {
				row := buf[((c-cs)*h+i)*w : ((c-cs)*h+i+1)*w]
				ih := rlo + i
				if ih < 0 || ih >= g.ih || a >= b {
					for o := range row {
						row[o] = pad
					}
					continue
				}
				for o := range a {
					row[o] = pad
				}
				copy(row[a:b], xg[c*pin+ih*g.iw:c*pin+ih*g.iw+b-a])
				for o := b; o < w; o++ {
					row[o] = pad
				}
			}
		}
		// The quads whose rows are all in channels [cs, ce).
		for ; q < k4 && (pc+min(4*q+3, kc-1))/taps < ce; q++ {
			var offs [4]int
			for t := range 4 {
				p := pc + min(4*q+t, kc-1) // a row past kc: any bytes do
				c, tap := p/taps, p%taps
				offs[t] = ((c-cs)*h+tap/g.kw*g.dh-g.ph-rlo)*w + tap%g.kw*g.dw
			}
			for _, u := range runs {
				d := dst[u.off+q*nr*4 : u.off+q*nr*4+u.n*4]
				at := u.oh*g.sh*w + u.ow
				interleave4(d, buf[offs[0]+at:offs[0]+at+u.n], buf[offs[1]+at:offs[1]+at+u.n],
					buf[offs[2]+at:offs[2]+at+u.n], buf[offs[3]+at:offs[3]+at+u.n])
			}
		}
	}
	return true
}

// interleave4Go writes d[4o+t] = s_t[o] for o in [0, len(s0)).
func interleave4Go(d, s0, s1, s2, s3 []byte) {
	n := len(s0)
	s1, s2, s3, d = s1[:n], s2[:n], s3[:n], d[:4*n]
	for o := range n {
		binary.LittleEndian.PutUint32(d[o*4:], uint32(s0[o])|uint32(s1[o])<<8|uint32(s2[o])<<16|uint32(s3[o])<<24)
	}
}
