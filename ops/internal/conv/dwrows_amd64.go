//go:build amd64 && !purego

package conv

// dwRows32AVX512 sums rows (1 or 4) output rows of a depthwise
// convolution, nb blocks of 16 columns each: row r's output j, at y +
// r*ystep bytes + 4j, is bias plus, over the taps t in [0, taps) in order,
// ws[t] times the float32 at x + 4*(xoff + offs[t]) + r*xstep bytes +
// 4*j*stride. Per block b, blocks[b] (dwRowPlan) says which lanes are
// interior and stored; in an interior lane every tap is a fused
// multiply-add; a block with edge lanes (bit 31) reads the tap's masks at
// tmasks + b*tstride bytes + 8t: the elements it loads and the edge lanes
// it reaches, which take a multiply and an add; lanes a tap does not
// reach are left as they are. Only the masked elements are loaded (the
// others may lie outside the tensor), only the stored lanes written.
// stride is 1 or 2.
//
//go:noescape
func dwRows32AVX512(y *float32, rows int, ystep int, nb int, x *float32, xoff int, xstep int, offs *int, ws *float32, taps int, blocks *uint64, tmasks *uint64, tstride int, stride int, bias float32)

// haveRowsKernel reports whether dwRows32 runs here: the AVX-512 row
// kernel is the one in use.
func haveRowsKernel() bool { return rowKernel == "avx512" }

// dwRows32 runs dwRows32AVX512 on rows (1 or 4) output rows from y[0]
// over the taps [t0, t1) of plan p, the rows' first input row at element
// xoff of the plane xp (negative for a row in the padding).
func dwRows32(y []float32, rows int, g *dwGeometry, p *dwRowPlan, xp []float32, xoff, t0, t1 int, wc []float32, bias float32) {
	taps := g.kh * g.kw
	dwRows32AVX512(&y[0], rows, g.ow*4, p.nb, &xp[0], xoff, g.sh*g.iw*4, &p.offs[t0], &wc[t0], t1-t0,
		&p.blocks[0], &p.tmasks[t0], taps*8, g.sw, bias)
}

// dwFlat32AVX512 sums a plane as one row (dwflat.go) in groups of four
// blocks of 16 outputs: output e of block i of group g, at y + 4(64g + 16i
// + l), is bias plus, over the taps t in order, ws[t] times the float32 at
// x + 4*(xoff + offs[t] + 64g + 16i + l) for the lanes l that masks give
// the tap (dwFlatPlan's layout): a fused multiply-add in an interior
// lane, a multiply and an add in an edge lane. Only the masked elements
// are loaded, only the stored lanes written.
//
//go:noescape
func dwFlat32AVX512(y *float32, groups int, x *float32, xoff int, offs *int, ws *float32, taps int, masks *uint64, bias float32)

// dwFlat32 runs dwFlat32AVX512 on plane xp into yp (g's planes, p's plan;
// for stride 2, xp is the plane's phases).
func dwFlat32(g *dwGeometry, p *dwFlatPlan, yp, xp, wc []float32, bias float32) {
	dwFlat32AVX512(&yp[0], p.groups, &xp[0], p.xoff, &p.offs[0], &wc[0], len(p.offs), &p.masks[0], bias)
}

// dwSplitPhasesAVX512 copies rows rows of iw (at most 32) float32s from
// x into phase planes at ph (phases elements each, rows w wide): row i's
// even elements to ph + 4*(2*(i%2)*phases + (i/2)*w), its odd ones
// phases further; load has the low iw bits set, store the low w (at most
// 16): w lanes are written per phase row, those past the row's elements
// as zeros.
//
//go:noescape
func dwSplitPhasesAVX512(ph *float32, x *float32, rows int, iw int, w int, phases int, load uint64, store uint64)

// dwSplitPhases copies plane xp (g's input) into its four phase planes in
// ph (p.phases elements each, rows ow wide): phase 2a+b holds the
// elements (2u+a, 2v+b) at u*ow + v. planFlat keeps the input rows at
// most 2*dwPhaseMaxWidth wide: one row is one vector.
func dwSplitPhases(g *dwGeometry, p *dwFlatPlan, ph, xp []float32) {
	dwSplitPhasesAVX512(&ph[0], &xp[0], g.ih, g.iw, g.ow, p.phases, 1<<g.iw-1, 1<<g.ow-1)
}
