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
// the pad). A 1x1's image is B as it lies (gemm.IntegerPackedA). The
// scratch, the padded copy and the product's panel block per worker
// (IntegerImplicitScratchBytes), is charged before any work. One or two
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
	b := gemm.ImplicitScratch8(t, k, max(threads, 1)) + paddedBytes8(s)
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
		// The padded copy of every image, once, and the window rows' offsets.
		g = depthwiseGeometry(s)
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
		ig := img[(n*s.C+gr*cg)*pg.plane : (n*s.C+(gr+1)*cg)*pg.plane]
		fill := func(dst []byte, pc, kc, j0, nc int) {
			fillPadded8(dst, pc, kc, p0+j0, nc, ig, offs, g, pg)
		}
		return gemm.IntegerImplicit(wc.gemm(wc.Threads), mg, p1-p0, k, pw.packs[gr], rowZero(gr), fill, xSigned, []int32{xz}, yg[p0:], pout)
	})
}

// interleave4Go writes d[4o+t] = s_t[o] for o in [0, len(s0)).
func interleave4Go(d, s0, s1, s2, s3 []byte) {
	n := len(s0)
	s1, s2, s3, d = s1[:n], s2[:n], s3[:n], d[:4*n]
	for o := range n {
		binary.LittleEndian.PutUint32(d[o*4:], uint32(s0[o])|uint32(s1[o])<<8|uint32(s2[o])<<16|uint32(s3[o])<<24)
	}
}
