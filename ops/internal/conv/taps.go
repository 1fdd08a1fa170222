package conv

import (
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
)

// The in-place windows: a float32 convolution of two spatial axes with a
// stride of 1 (ResNet's and M-LSD's dense 3x3s) as the implicit GEMM's
// product without writing its windows. The image is copied once per
// image into a zero-padded one, Hp x Wp a channel (Hp = OH + (KH-1)*DH,
// Wp = OW + (KW-1)*DW); output position (oh, ow) is then computed as
// column j = oh*Wp + ow of a "wide" grid of Wp columns a row, where tap
// (c, r, q) of column j is element c*Hp*Wp + r*DH*Wp + q*DW + j of the
// padded image: each row of B (a channel and tap) is the padded image
// from its own offset on, and the micro-kernel (kernelTaps32, gemm's
// kernel32AVX512 with a pointer per row of B) reads it there. The columns
// ow >= OW of the wide grid are computed and dropped: the products go to
// a wide tile, and its OW columns a row are copied to the output.
//
// The sums are those of the implicit path (implicit.go) bit for bit: the
// same kernel instructions, the same blocks of k (gemm.KBlock32), the
// same zeros for the taps in the padding, C accumulated between blocks
// the same way, the bias and the clamp in the last block's kernel.
//
// The work is split per image over (group, band of output rows, block of
// output channels) items; the scratch is the padded image (charged once)
// and per worker the wide tile and a block's row offsets.

// tapsPath turns the in-place windows on. It is off: on one core of the
// Xeon of BENCHMARKS.md the kernel reading the padded image in place ran
// 25-35% slower than the same kernel on packed panels (an aligned
// variant, one shifted copy of the image per kernel column, and 2 MB
// pages did not change that), more than the window fill it saves
// (BenchmarkDense3x3: 64x56 2.1-2.5 ms against 2.3-2.9, 128x28 1.8-2.3
// against 2.2-3.3, 256x14 2.0-2.6 against 2.6-3.4, M-LSD's 64x80 3.9-4.8
// against 5.5-7.3). Kept, with its test, for the next attempt
// (TestTapsAreTheImplicitPath turns it on).
var tapsPath = false

// tapsBand is about the wide columns of one item.
const tapsBand = 512

// taps reports a convolution the in-place windows run: the implicit
// path's, two spatial axes, stride 1, more than one tap, on AVX-512.
func taps(s Shape) bool {
	if !tapsPath || !haveTapsKernel() || len(s.Kernel) != 2 || s.Stride[0] != 1 || s.Stride[1] != 1 ||
		prod(s.Kernel) <= 1 || prod(s.Grid) == 0 {
		return false
	}
	// The dropped columns at most a quarter of the wide grid's.
	wp := s.Grid[1] + (s.Kernel[1]-1)*s.Dilation[1]
	return 4*(wp-s.Grid[1]) <= wp
}

// tapsGeometry is the plan of an in-place windows convolution.
type tapsGeometry struct {
	g           dwGeometry
	hp, wp      int // the padded image's plane
	wide        int // the wide grid's columns: (OH-1)*Wp + OW
	band, bands int // wide columns an item (a multiple of 32 but the last), items along them
	mb, mblocks int // output channels an item, items along them
	kcb         int // the block of k
}

func planTaps(s Shape, threads int) tapsGeometry {
	var t tapsGeometry
	t.g = depthwiseGeometry(s)
	g := &t.g
	t.hp, t.wp = g.oh+(g.kh-1)*g.dh, g.ow+(g.kw-1)*g.dw
	t.wide = (g.oh-1)*t.wp + g.ow
	mg := s.M / s.Group
	t.band = balancedTile(t.wide, tapsBand, 32, s.Group, threads)
	t.bands = (t.wide + t.band - 1) / t.band
	t.mblocks, t.mb = 1, mg
	if items := s.Group * t.bands; items < 2*threads && mg > 12 {
		// Few items on one image (a 7x7 plane): blocks of output channels
		// (multiples of the kernel's 12 rows) so that every core works.
		t.mblocks = min((mg+11)/12, (2*threads+items-1)/items)
		t.mb = ((mg+t.mblocks-1)/t.mblocks + 11) / 12 * 12
		t.mblocks = (mg + t.mb - 1) / t.mb
	}
	t.kcb = gemm.KBlock32(s.C / s.Group * g.kh * g.kw)
	return t
}

// worker is the scratch elements of one worker: the wide tile and the
// offsets (int64, two float32 each).
func (t tapsGeometry) worker() int { return t.mb*t.band + 2*t.kcb }

// tapsScratchBytes is what the in-place windows charge on threads cores.
func tapsScratchBytes(s Shape, threads int) int64 {
	t := planTaps(s, threads)
	return int64(s.C)*int64(t.hp*t.wp)*4 + int64(max(threads, 1))*int64(t.worker())*4
}

func tapsForward[T Float](cfg Config, s Shape, x, w, b, y []T) error {
	x32 := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
	w32 := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(w))), len(w))
	y32 := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(y))), len(y))
	var b32 []float32
	if b != nil {
		b32 = unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
	}
	t := planTaps(s, cfg.threads())
	g := &t.g
	plane := t.hp * t.wp
	if err := cfg.charge(int64(s.C) * int64(plane) * 4); err != nil {
		return err
	}
	pb := GetScratch[float32](s.C * plane)
	defer PutScratch(pb)
	xp := *pb
	cg, mg := s.C/s.Group, s.M/s.Group
	k := cg * g.kh * g.kw
	pin, pout := g.ih*g.iw, g.oh*g.ow
	items := s.Group * t.bands * t.mblocks
	work := s.M * pout * max(1, k/8)
	// The split charges the workers' scratch at every image; the first
	// image's charge stands for all (the same workers reuse it).
	for n := range s.N {
		if err := cfg.err(); err != nil {
			return err
		}
		xn := x32[n*s.C*pin : (n+1)*s.C*pin]
		err := split[float32](cfg, s.C, s.C*plane, 0, 4, func(c int, _ []float32, _ Config) error {
			padPlane(xp[c*plane:(c+1)*plane], xn[c*pin:(c+1)*pin], g, t.hp, t.wp)
			return nil
		})
		if err != nil {
			return err
		}
		wcfg := cfg
		if n > 0 {
			wcfg.Charge = nil
		}
		err = split[float32](wcfg, items, work, t.worker(), 4, func(item int, buf []float32, wc Config) error {
			mblk := item % t.mblocks
			band := item / t.mblocks % t.bands
			gr := item / t.mblocks / t.bands
			m0 := mblk * t.mb
			m1 := min(mg, m0+t.mb)
			j0 := band * t.band
			j1 := min(t.wide, j0+t.band)
			// The offsets first: buf's start is aligned for an int64.
			offs := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(buf))), t.kcb)
			cw := buf[2*t.kcb : 2*t.kcb+t.mb*t.band]
			fin, after, _ := inProduct(wc, b32, gr*mg, mg)
			tapsProduct(&t, m1-m0, k, w32[(gr*mg+m0)*k:], xp[gr*cg*plane+j0:], offs, cw, j1-j0, fin, m0)
			// The output rows' columns among the band's wide ones.
			yg := y32[(n*s.M+gr*mg+m0)*pout:]
			oh0, oh1 := j0/t.wp, min(g.oh, (j1-1)/t.wp+1)
			for i := range m1 - m0 {
				for oh := oh0; oh < oh1; oh++ {
					lo, hi := max(j0, oh*t.wp), min(j1, oh*t.wp+g.ow)
					if lo < hi {
						copy(yg[i*pout+oh*g.ow+lo-oh*t.wp:i*pout+oh*g.ow+hi-oh*t.wp], cw[i*t.band+lo-j0:])
					}
				}
			}
			p0 := oh0*g.ow + min(g.ow, j0-oh0*t.wp)
			p1 := (oh1-1)*g.ow + min(g.ow, j1-(oh1-1)*t.wp)
			epilogueRows(after, yg, m1-m0, pout, p0, max(p0, p1))
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// tapsProduct computes the wide tile cw (m rows of ncw columns, row
// stride t.band) = a (m x k, row stride k) times the windows of img (the
// padded image from the band's first row on), as Float32Implicit's loops
// do: blocks of k, then blocks of 120 rows, panels of 32 columns, tiles
// of 12 rows; the finish (fin's bias from row m0 on, and its clamp) in the
// last block of k.
func tapsProduct(t *tapsGeometry, m, k int, a, img []float32, offs []int64, cw []float32, ncw int, fin gemm.Finish, m0 int) {
	g := &t.g
	taps := g.kh * g.kw
	plane := t.hp * t.wp
	const mr, nr, mcBlock = 12, 32, 120
	for pc := 0; pc < k; pc += t.kcb {
		kc := min(t.kcb, k-pc)
		c, tap := pc/taps, pc%taps
		for p := range kc {
			r, q := tap/g.kw, tap%g.kw
			offs[p] = int64(c*plane+r*g.dh*t.wp+q*g.dw) * 4
			if tap++; tap == taps {
				tap, c = 0, c+1
			}
		}
		var beta float32
		if pc > 0 {
			beta = 1
		}
		last := pc+kc == k
		var clamp *[2]float32
		if last {
			clamp = fin.Clamp
		}
		for ic := 0; ic < m; ic += mcBlock {
			mc := min(mcBlock, m-ic)
			for jr := 0; jr < ncw; jr += nr {
				cols := min(nr, ncw-jr)
				for ir := 0; ir < mc; ir += mr {
					rows := min(mr, mc-ir)
					var bias *float32
					if last && fin.Bias != nil {
						bias = &fin.Bias[m0+ic+ir : m0+ic+ir+rows][0]
					}
					kernelTaps32(rows, kc, &a[(ic+ir)*k+pc], k, &img[jr], &offs[0], &cw[(ic+ir)*t.band+jr], t.band, 1<<cols-1, beta, bias, clamp)
				}
			}
		}
	}
}

// padPlane copies the plane x (g.ih x g.iw) into xp, an hp x wp plane,
// at row g.ph and column g.pw, zeros around.
func padPlane(xp, x []float32, g *dwGeometry, hp, wp int) {
	for r := range hp {
		row := xp[r*wp : (r+1)*wp]
		ih := r - g.ph
		if ih < 0 || ih >= g.ih {
			clear(row)
			continue
		}
		lo := min(g.pw, wp)
		n := max(0, min(g.iw, wp-lo))
		clear(row[:lo])
		copy(row[lo:lo+n], x[ih*g.iw:ih*g.iw+n])
		clear(row[lo+n:])
	}
}
