package conv

// The depthwise convolution's small stride-1 planes as one row. When the
// strides are 1 and the output is as wide as the input (a "same" padding:
// 7x7, 14x14, 5x5 and 10x10 planes with 3x3 or 5x5 kernels), output
// element p = o*ow + j reads, for tap (r, q), input element p + (r*dh -
// ph)*iw + q*dw - pw: the whole plane is one row of oh*ow outputs, summed
// 16 at a time with no row left a vector of its own. dwFlat32 runs four
// such blocks at once (four independent chains), each block's lanes with
// their own masks per tap from a plan made once per convolution: the
// lanes in the interior columns [lo, hi) take a fused multiply-add, the
// edge columns a multiply and an add, for each tap inside the image in
// kernel order; the taps in the padding (rows above or below as well as
// columns) are skipped. These are dwRow's sums, element for element.
//
// A stride-2 plane (14x14 to 7x7) is one row too, over the image's four
// phase planes: the even and odd rows times the even and odd columns,
// each ow wide, copied once per plane (dwSplitPhases). Input element
// (2o + dr, 2j + dc) is element o*ow + j of phase (dr mod 2, dc mod 2),
// moved by (dr div 2) rows and (dc div 2) columns, so each tap is again
// one offset from the output's flat index. Without it a 7-wide row of a
// 14x14 stride-2 plane took a 16-lane vector of its own, the first and
// the last four rows overlapping, with two loads and a permute per tap
// and row to gather the even columns.

// dwFlatPlan is the masks of a small plane (see dwFlat32): per group of
// four blocks, the four blocks' stored lanes, then per tap the four
// blocks' entries (bits 0-15: lanes loaded; 16-31: interior lanes that
// take the tap; 32-47: edge lanes that take it).
type dwFlatPlan struct {
	offs   []int
	xoff   int // the offset of the plane's row 0 (or the phases') from the first tap's
	groups int
	masks  []uint64
	phases int // the elements of one phase plane (stride 2), 0 for stride 1
}

// dwFlatMaxWidth and dwFlatMaxOutputs bound the planes that go through
// dwFlat32: its masks per block and tap cost more than the four-row
// kernel's lanes left empty from rows of 14 up (MobileNetV2's 14x14 and
// 28x28 planes measured 15-25% slower this way, its 7x7 planes 1.9x
// faster, PP-OCRv4's 5x5 and 10x10 planes 1.3x and 1.1x).
//
// dwPhaseMaxWidth bounds the stride-2 planes that go through it: at 20x20
// to 10x10 (PP-OCRv4) the copy into phases made it 6% slower than the
// whole-row kernel; 14x14 to 7x7 (MobileNetV2) took 0.6 of the time, 10x10
// to 5x5 with a 5x5 kernel 0.85.
const (
	dwFlatMaxWidth   = 12
	dwFlatMaxOutputs = 1024
	dwPhaseMaxWidth  = 8
)

// planFlat makes g's plane-as-a-row plan, charging it first; nil when it
// does not apply: not float32, no AVX-512, strides other than 1 (an
// output as wide as the input) or 2 on both axes (an input at most twice
// as wide as the output, at most dwPhaseMaxWidth), rows wider than
// dwFlatMaxWidth, a plane of more than dwFlatMaxOutputs outputs, or rows
// split into bands. A stride-2 plan's phase planes are the caller's
// scratch (4*phases elements per worker).
func planFlat[T Float](g *dwGeometry, cfg Config, bands int) (*dwFlatPlan, error) {
	var zero T
	same := g.sh == 1 && g.sw == 1 && g.iw == g.ow
	halved := g.sh == 2 && g.sw == 2 && g.iw <= 2*g.ow && g.ow <= dwPhaseMaxWidth
	if !dwMasked || sizeOf(zero) != 4 || !haveRowsKernel() || !(same || halved) ||
		g.oh*g.ow > dwFlatMaxOutputs || g.ow > dwFlatMaxWidth || bands != 1 {
		return nil, nil
	}
	taps := g.kh * g.kw
	groups := (g.oh*g.ow + 63) / 64
	if err := cfg.charge(int64(taps+groups*(4+4*taps)) * 8); err != nil {
		return nil, err
	}
	p := &dwFlatPlan{offs: make([]int, taps), groups: groups, masks: make([]uint64, groups*(4+4*taps))}
	if same {
		p.xoff = -g.ph * g.iw
		for r := range g.kh {
			for q := range g.kw {
				p.offs[r*g.kw+q] = r*g.dh*g.iw + q*g.dw - g.pw
			}
		}
	} else {
		hh, w := (g.ih+1)/2, g.ow
		p.phases = hh * w
		for r := range g.kh {
			for q := range g.kw {
				dr, dc := r*g.dh-g.ph, q*g.dw-g.pw
				a, b := dr&1, dc&1 // dr mod 2, dc mod 2, for negative ones too
				p.offs[r*g.kw+q] = (2*a+b)*p.phases + (dr-a)/2*w + (dc-b)/2
			}
		}
	}
	n := g.oh * g.ow
	for gr := range groups {
		m := p.masks[gr*(4+4*taps) : (gr+1)*(4+4*taps)]
		for i := range 4 {
			for l := range 16 {
				if e := 64*gr + 16*i + l; e < n {
					m[i] |= 1 << l
				}
			}
		}
		for t := range taps {
			r, q := t/g.kw, t%g.kw
			for i := range 4 {
				var load, inner, edge uint64
				for l := range 16 {
					e := 64*gr + 16*i + l
					if e >= n {
						break
					}
					o, j := e/g.ow, e%g.ow
					ir, ic := o*g.sh-g.ph+r*g.dh, j*g.sw+q*g.dw-g.pw
					if ir < 0 || ir >= g.ih || ic < 0 || ic >= g.iw {
						continue
					}
					load |= 1 << l
					if j >= g.lo && j < g.hi {
						inner |= 1 << l
					} else {
						edge |= 1 << l
					}
				}
				m[4+4*t+i] = load | inner<<16 | edge<<32
			}
		}
	}
	return p, nil
}
