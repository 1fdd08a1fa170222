package conv

import "github.com/onnxshape/onnxshape/ops/internal/gemm"

// The 8-bit windows of IntegerPacked, from a padded copy of the image made
// once per product: each channel with its pad all round and split by
// stride phase (phase (a, b) holds the padded rows a, a+sh, ... and columns
// b, b+sw, ...), so that for any stride and dilation the window row of
// tap (r, q) over one output row is one contiguous run of that copy, at
// the offset of the row's (channel, tap) plus oh*wph + ow. The panels are
// then written by four-row interleaves of those runs: per 32-column panel
// and quad of rows one AVX-512 pass of masked loads (a panel crossing
// output rows is several segments), else interleave4 per run. The copy is
// charged with the product's scratch (IntegerImplicitScratchBytes).

// padded8 is the geometry of the padded, phase-split copy.
type padded8 struct {
	hph, wph int // one phase's rows and columns
	plane    int // bytes of one channel (sh*sw phases)
}

func paddedGeometry8(g dwGeometry) padded8 {
	hp := (g.oh-1)*g.sh + (g.kh-1)*g.dh + 1
	wp := (g.ow-1)*g.sw + (g.kw-1)*g.dw + 1
	p := padded8{hph: (hp + g.sh - 1) / g.sh, wph: (wp + g.sw - 1) / g.sw}
	p.plane = g.sh * g.sw * p.hph * p.wph
	return p
}

// maxPadded8 is the most bytes of padded image (and offsets) IntegerPacked
// copies at once: beyond, it would add a large image's size to the run's
// peak, and fillWindows8 writes the windows from the image as it lies.
var maxPadded8 int64 = 4 << 20

// paddedBytes8 is the bytes of the padded copy of s's image and of its
// window rows' offsets.
func paddedBytes8(s Shape) int64 {
	if pointwise(s) {
		return 0
	}
	p := paddedGeometry8(depthwiseGeometry(s))
	k := s.C / max(s.Group, 1) * prod(s.Kernel)
	return int64(s.N)*int64(s.C)*int64(p.plane) + 4*int64((k+3)/4*4)
}

// pad8 writes channel x (ih x iw) padded and phase-split into dst: the
// phases some tap reads (a 1x1 of stride 2 reads one of four).
func (p padded8) pad8(dst, x []byte, g dwGeometry, pad byte) {
	for a := range g.sh {
		if !phaseRead(a, g.kh, g.dh, g.sh) {
			continue
		}
		for b := range g.sw {
			if !phaseRead(b, g.kw, g.dw, g.sw) {
				continue
			}
			ph := dst[(a*g.sw+b)*p.hph*p.wph:]
			// The columns j of the phase inside the image: j*sw+b-pw in [0, iw).
			jlo, jhi := validRange(b-g.pw, g.sw, g.iw, p.wph)
			for i := range p.hph {
				row := ph[i*p.wph : (i+1)*p.wph]
				ih := i*g.sh + a - g.ph
				if ih < 0 || ih >= g.ih || jlo >= jhi {
					fillBytes(row, pad)
					continue
				}
				src := x[ih*g.iw : (ih+1)*g.iw]
				fillBytes(row[:jlo], pad)
				if g.sw == 1 {
					copy(row[jlo:jhi], src[jlo+b-g.pw:])
				} else {
					for j := jlo; j < jhi; j++ {
						row[j] = src[j*g.sw+b-g.pw]
					}
				}
				fillBytes(row[jhi:], pad)
			}
		}
	}
}

// phaseRead reports whether some tap r < k reads phase a: (r*d) % s == a.
func phaseRead(a, k, d, s int) bool {
	for r := range k {
		if r*d%s == a {
			return true
		}
	}
	return false
}

func fillBytes(b []byte, v byte) {
	for i := range b {
		b[i] = v
	}
}

// offsets8 writes, for each window row (channel c, tap (r, q)) of one
// group, its offset in the group's padded channels, the rows rounded up
// to quads with copies of the last (a row past k: any bytes do).
func (p padded8) offsets8(offs []int32, cg int, g dwGeometry) {
	// One channel's taps, then the channels: the same plus c*plane.
	taps := offs[:0]
	for r := range g.kh {
		for q := range g.kw {
			rd, qd := r*g.dh, q*g.dw
			taps = append(taps, int32(((rd%g.sh)*g.sw+qd%g.sw)*p.hph*p.wph+rd/g.sh*p.wph+qd/g.sw))
		}
	}
	nt := len(taps)
	k := cg * nt
	for i := nt; i < k; i++ {
		offs[i] = offs[i-nt] + int32(p.plane)
	}
	for i := k; i < len(offs); i++ {
		offs[i] = offs[k-1]
	}
}

// fillPadded8 writes rows [pc, pc+kc) of the windows for positions
// [q0, q0+nc) in gemm.Filler8's layout from img, one group's padded
// channels, offs its window rows' offsets (offsets8).
func fillPadded8(dst []byte, pc, kc, q0, nc int, img []byte, offs []int32, g dwGeometry, p padded8) {
	nr := gemm.NR8()
	k4 := (kc + 3) / 4
	offs = offs[pc : pc+4*k4]
	if vecWindows8 && nr == 32 {
		var segBuf [8]wseg
		for j := 0; j < nc; j += nr {
			segs := segBuf[:0]
			for l := 0; l < min(nr, nc-j); {
				pos := q0 + j + l
				oh, ow := pos/g.ow, pos%g.ow
				n := min(g.ow-ow, nc-j-l, nr-l)
				segs = append(segs, wseg{off: int64(oh*p.wph + ow - l), mask: uint32(1<<n-1) << l})
				l += n
			}
			windowQuads8(dst[j*k4*4:(j+nr)*k4*4], img, offs, segs)
		}
		return
	}
	for j := 0; j < nc; {
		pos := q0 + j
		oh, ow := pos/g.ow, pos%g.ow
		n := min(g.ow-ow, nc-j, nr-j%nr)
		at := oh*p.wph + ow
		off := (j/nr)*k4*nr*4 + (j%nr)*4
		for q := range k4 {
			o := offs[4*q : 4*q+4]
			d := dst[off+q*nr*4 : off+q*nr*4+n*4]
			interleave4(d, img[int(o[0])+at:int(o[0])+at+n], img[int(o[1])+at:int(o[1])+at+n],
				img[int(o[2])+at:int(o[2])+at+n], img[int(o[3])+at:int(o[3])+at+n])
		}
		j += n
	}
}
