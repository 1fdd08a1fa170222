package conv

import (
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
)

// The implicit GEMM (float32, one or two spatial axes, neither depthwise
// nor a plain 1x1): the product W (M/group x K) times the windows (K x
// positions, K = C/group times the taps) without an im2col matrix. The
// GEMM engine (gemm.Float32Implicit) asks for the windows a block at a
// time (about kc rows by 512 positions, the block it would have packed
// from a stored matrix), and fillWindows writes them from the NCHW image
// straight into the micro-kernel's panels: with a stride of 1 along the
// row and panels of 32 columns (AVX-512), per panel and tap a few masked
// vector loads per channel (fillWindowsVec); otherwise per kernel row
// (channel, tap) and per run of positions on one output row inside one
// panel, one copy of the image row (stride 1) or a strided gather; zeros
// where the window falls in the padding. The image is read once per tap and nothing grows
// with it: the scratch is the engine's panel block per worker
// (gemm.ImplicitScratch32), charged before any work.
//
// The work is split over images, groups and tiles of at most
// implicitTile positions (balancedTile: equal tiles, and on one image as
// many as give each core the same share); the sums are the engine's (same
// kernels, same blocking of K), so the bound of Forward holds.

// implicitTile is the positions of one item of work (a multiple of every
// kernel's panel width).
var implicitTile = 512

// implicit reports a convolution the implicit GEMM runs: float32, one or
// two spatial axes, not depthwise, not a plain 1x1.
func implicit[T Float](s Shape) bool {
	var z T
	return sizeOf(z) == 4 && len(s.Kernel) >= 1 && len(s.Kernel) <= 2 && !depthwise(s) && !pointwise(s)
}

// implicitScratchBytes is the scratch the implicit path charges on
// threads cores.
func implicitScratchBytes(s Shape, threads int) int64 {
	k := s.C / max(s.Group, 1) * prod(s.Kernel)
	t := min(prod(s.Grid), implicitTile)
	if weightsSplit(s.N*max(s.Group, 1), s.M/max(s.Group, 1), prod(s.Grid), max(threads, 1)) {
		// A product a core, each with its own panels.
		return int64(threads) * gemm.ImplicitScratch32(t, k, 1)
	}
	return gemm.ImplicitScratch32(t, k, max(threads, 1))
}

func implicitForward[T Float](cfg Config, s Shape, x, w, b, y []T) error {
	x32 := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
	w32 := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(w))), len(w))
	y32 := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(y))), len(y))
	var b32 []float32
	if b != nil {
		b32 = unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
	}
	g := depthwiseGeometry(s)
	cg, mg := s.C/s.Group, s.M/s.Group
	k := cg * g.kh * g.kw
	pin, pout := g.ih*g.iw, g.oh*g.ow
	t := balancedTile(pout, implicitTile, gemm.NR32(), s.N*s.Group, cfg.threads())
	tiles := (pout + t - 1) / t
	mb, mblocks := mg, 1
	if weightsSplit(s.N*s.Group, mg, pout, cfg.threads()) {
		t = min(pout, implicitTile)
		tiles = (pout + t - 1) / t
		mb, mblocks = rowBlocks(mg, cfg.threads())
	}
	return split[float32](cfg, s.N*s.Group*tiles*mblocks, s.N*s.M*pout*max(1, k/8), 0, 4, func(item int, _ []float32, wc Config) error {
		m0 := item % mblocks * mb
		m1 := min(mg, m0+mb)
		tile := item / mblocks % tiles
		ng := item / mblocks / tiles
		n, gr := ng/s.Group, ng%s.Group
		p0 := tile * t
		p1 := min(pout, p0+t)
		xg := x32[(n*s.C+gr*cg)*pin : (n*s.C+(gr+1)*cg)*pin]
		fill := func(dst []float32, nr, pc, kc, j0, nc int) {
			fillWindows(dst, nr, pc, kc, p0+j0, nc, xg, g)
		}
		yg := y32[(n*s.M+gr*mg+m0)*pout:]
		fin, after, _ := inProduct(wc, b32, gr*mg+m0, m1-m0)
		if err := gemm.Float32ImplicitPacked(wc.gemm(wc.Threads), m1-m0, p1-p0, k, from(w32, (gr*mg+m0)*k), k, packedWeights[float32](cfg, s, k), gr*mg+m0, fill, yg[p0:], pout, fin); err != nil {
			return err
		}
		epilogueRows(after, yg, m1-m0, pout, p0, p1)
		return nil
	})
}

// run is a stretch of output positions on one output row and inside one
// panel: row oh, columns [ow, ow+n), at offset off of the panel block.
type run struct{ oh, ow, n, off int }

// fillWindows writes rows [pc, pc+kc) of the windows (row c*kh*kw + r*kw
// + q: channel c of xg, tap (r, q)) for positions [q0, q0+nc) into panels
// of nr columns (gemm.Filler32's layout), zeros where a tap falls in the
// padding and in the last panel's columns past nc.
func fillWindows(dst []float32, nr, pc, kc, q0, nc int, xg []float32, g dwGeometry) {
	if nr == 32 && (vecWindows && g.sw == 1 || vecWindows2 && g.sw == 2) {
		fillWindowsVec(dst, pc, kc, q0, nc, xg, g)
		return
	}
	// The runs: positions split at output rows and at panels.
	runs := make([]run, 0, nc/nr+nc/max(g.ow, 1)+2)
	for j := 0; j < nc; {
		pos := q0 + j
		oh, ow := pos/g.ow, pos%g.ow
		n := min(g.ow-ow, nc-j, nr-j%nr)
		runs = append(runs, run{oh: oh, ow: ow, n: n, off: (j/nr)*kc*nr + j%nr})
		j += n
	}
	taps := g.kh * g.kw
	pin := g.ih * g.iw
	c, tap := pc/taps, pc%taps
	r, q := tap/g.kw, tap%g.kw
	for p := range kc {
		plane := xg[c*pin : (c+1)*pin]
		dr, dq := r*g.dh-g.ph, q*g.dw-g.pw
		for _, u := range runs {
			d := dst[u.off+p*nr : u.off+p*nr+u.n]
			ih := u.oh*g.sh + dr
			if ih < 0 || ih >= g.ih {
				clear(d)
				continue
			}
			row := plane[ih*g.iw : (ih+1)*g.iw]
			base := u.ow*g.sw + dq
			var lo, hi int
			if g.sw == 1 {
				// No division: the run is [base, base+n) of the row.
				if base >= 0 && base+u.n <= g.iw {
					copy(d, row[base:base+u.n])
					continue
				}
				lo, hi = max(0, -base), min(u.n, g.iw-base)
			} else {
				lo, hi = validRange(base, g.sw, g.iw, u.n)
			}
			if lo >= hi {
				clear(d)
				continue
			}
			if lo > 0 {
				clear(d[:lo])
			}
			if g.sw == 1 {
				copy(d[lo:hi], row[base+lo:base+hi])
			} else {
				for o := lo; o < hi; o++ {
					d[o] = row[base+o*g.sw]
				}
			}
			if hi < u.n {
				clear(d[hi:])
			}
		}
		if q++; q == g.kw {
			q = 0
			if r++; r == g.kh {
				r = 0
				c++
			}
		}
	}
	if rem := nc % nr; rem != 0 {
		last := dst[(nc/nr)*kc*nr:]
		for p := range kc {
			clear(last[p*nr+rem : p*nr+nr])
		}
	}
}

// wseg is a segment of a panel row for windowRows32: the lanes of mask
// load from the image at byte offset off + 4*lane of the row's plane.
type wseg struct {
	off  int64
	mask uint32
	_    uint32
}

// fillWindowsVec is fillWindows for panels of 32 columns and a stride of
// 1 or 2 along the row, with the vector writer: per panel and kernel tap, the
// lanes that read the image form at most one segment per output row the
// panel crosses (the same for every channel: only the plane moves), and
// windowRows32 writes the tap's rows of the block, one per channel, each
// a few masked loads and two stores. Lanes in the padding and past nc
// stay zero.
func fillWindowsVec(dst []float32, pc, kc, q0, nc int, xg []float32, g dwGeometry) {
	const nr = 32
	var segs [nr]wseg
	taps := g.kh * g.kw
	pin := g.ih * g.iw
	// Each tap's rows in the block, found once for all panels (for up to
	// len(tapBuf) taps; the others per panel): its first row p0, the
	// number of rows, the channel of the first.
	type tapRows struct{ p0, rows, c0 int }
	var tapBuf [64]tapRows
	rowsOf := func(t int) tapRows {
		p0 := (t - pc%taps + taps) % taps // the block's first row of tap t
		if p0 >= kc {
			return tapRows{p0: p0}
		}
		return tapRows{p0: p0, rows: (kc - p0 + taps - 1) / taps, c0: (pc + p0) / taps}
	}
	for t := range min(taps, len(tapBuf)) {
		tapBuf[t] = rowsOf(t)
	}
	// A panel's positions split at output rows: lanes [j, j+l) on output
	// row oh from column ow.
	type span struct{ j, oh, ow, l int }
	var spans [nr]span
	for q := 0; q*nr < nc; q++ {
		j0 := q * nr
		w := min(nr, nc-j0)
		ns := 0
		for j := 0; j < w; {
			pos := q0 + j0 + j
			oh, ow := pos/g.ow, pos%g.ow
			l := min(g.ow-ow, w-j)
			spans[ns] = span{j, oh, ow, l}
			ns++
			j += l
		}
		for t := range taps {
			var tr tapRows
			if t < len(tapBuf) {
				tr = tapBuf[t]
			} else {
				tr = rowsOf(t)
			}
			if tr.rows == 0 {
				continue
			}
			dr, dq := t/g.kw*g.dh-g.ph, t%g.kw*g.dw-g.pw
			n := 0
			for _, u := range spans[:ns] {
				if ih := u.oh*g.sh + dr; ih >= 0 && ih < g.ih {
					// Lane j+o reads the row at base + o*sw, for o in [lo, hi):
					// those inside the row.
					base := u.ow*g.sw + dq
					lo, hi := 0, 0
					if g.sw == 1 {
						lo, hi = max(0, -base), min(u.l, g.iw-base)
					} else if g.iw > base {
						lo, hi = max(0, (1-base)/2), min(u.l, (g.iw-base+1)/2)
					}
					if lo < hi {
						lane := u.j + lo
						segs[n] = wseg{off: int64(ih*g.iw+base-u.j*g.sw) * 4, mask: uint32((uint64(1)<<(hi-lo) - 1) << lane)}
						n++
					}
				}
			}
			d := dst[q*kc*nr+tr.p0*nr : q*kc*nr+(tr.p0+(tr.rows-1)*taps)*nr+nr]
			src := xg[tr.c0*pin : (tr.c0+tr.rows)*pin]
			windowRows32(d, taps*nr, unsafe.Pointer(&src[0]), pin, tr.rows, segs[:n], g.sw)
		}
	}
}
