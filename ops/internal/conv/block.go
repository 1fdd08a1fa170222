package conv

import (
	"errors"
	"runtime"
	"sync"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// The inverted residual block of MobileNetV2/V3 and EfficientNet, float32:
// a 1x1 expansion (C -> E channels) and its activation, a depthwise
// convolution over the E channels (3x3 or 5x5, stride 1 or 2) and its
// activation, and a 1x1 projection (E -> M) with its epilogue (a residual
// Add, an activation). Run one node after the other, the E x H x W tensors
// between them (1-5 MB on the 112x112 and 56x56 planes) go to memory and
// come back twice; run here, band of output rows by band, the expansion
// computes only the rows the band's depthwise reads (keeping the rows it
// shares with the next band, the kernel's halo, instead of computing them
// again), the depthwise writes a band of E x rows x OW, and the projection
// multiplies it into the band's columns of the output: both intermediate
// bands stay in L2.
//
// Each element is the same ordered sum as when the three convolutions run
// as Forward runs them: the 1x1s are the pointwise path's products over a
// range of positions (a column of C is its own sum over k, the same k
// blocks whatever the columns), with the same bias and clamp in the kernel
// and the same epilogue; the depthwise band is depthwiseForward over the
// band's rows, whose every output element takes its taps in kernel order,
// skipping only the plane's own padding (a band's first and last rows are
// real rows of the plane, and the plane's padding stays padding).
//
// Work is split over the cores by contiguous runs of output rows, one a
// worker (each with its own band buffers and its own first halo), or over
// images when there are as many as cores. Scratch: the two band buffers
// of every worker, charged before any work.

// BlockStage is one convolution of a block: its float32 weights and bias
// (nil: none) and its Config's epilogue (Epilogue32, Clamp32) and
// transposed weights (WeightsT); the run's context, cores and accounts are
// the block's.
type BlockStage struct {
	W, B []float32
	Cfg  Config
}

// BlockFits reports whether expand, dw and project are an inverted residual
// block that Block32 runs: expand and project 1x1 stride-1 unpadded
// convolutions of one group, dw depthwise over two spatial axes, on the
// same images, each chained to the next, and every output row of dw
// reaching at least one row of its image.
func BlockFits(expand, dw, project Shape) bool {
	if len(expand.Kernel) != 2 || len(dw.Kernel) != 2 || len(project.Kernel) != 2 {
		return false
	}
	if !pointwise(expand) || !pointwise(project) || expand.Group != 1 || project.Group != 1 || !depthwise(dw) {
		return false
	}
	if expand.N != dw.N || dw.N != project.N || expand.M != dw.C || dw.M != project.C {
		return false
	}
	if expand.Grid[0] != dw.Image[0] || expand.Grid[1] != dw.Image[1] || dw.Grid[0] != project.Image[0] || dw.Grid[1] != project.Image[1] {
		return false
	}
	reach := (dw.Kernel[0] - 1) * dw.Dilation[0]
	return dw.Pad[0] <= reach && (dw.Grid[0]-1)*dw.Stride[0]-dw.Pad[0] <= dw.Image[0]-1 && dw.Stride[0] >= 1
}

// blockBandBytes is the bytes a worker's two band buffers aim at: the
// expanded rows and the depthwise's output rows of a band (tests and
// benchmarks change it).
var blockBandBytes = 512 << 10

// blockPlan is how Block32 cuts a block's output rows.
type blockPlan struct {
	rows       int // output rows of a band
	erows      int // most expanded rows a band holds
	ebuf, dbuf int // elements of the two buffers
}

func planBlock(dw Shape) blockPlan {
	e, w, ow := dw.C, dw.Image[1], dw.Grid[1]
	sh, ext := dw.Stride[0], (dw.Kernel[0]-1)*dw.Dilation[0]+1
	rows := 1
	for rows < dw.Grid[0] {
		next := rows + 1
		er := min(dw.Image[0], (next-1)*sh+ext)
		if int64(e)*int64(er*w+next*ow)*4 > int64(blockBandBytes) {
			break
		}
		rows = next
	}
	er := min(dw.Image[0], (rows-1)*sh+ext)
	return blockPlan{rows: rows, erows: er, ebuf: e * er * w, dbuf: e * rows * ow}
}

// blockMinBytes is the size of the expanded tensor (one image) from which
// Block32 runs by bands; below it the tensors between the three
// convolutions stay in L2 anyway and the bands' smaller products cost more
// than they save (MobileNetV2's 28x28 and smaller planes, measured).
var blockMinBytes = 1 << 20

// Banded reports whether Block32 runs dw's block by bands; otherwise it
// runs the three convolutions one after the other, through scratch.
func Banded(dw Shape) bool {
	return int64(dw.C)*int64(prod(dw.Image))*4 >= int64(blockMinBytes)
}

// BlockScratchBytes is the bytes Block32 charges for dw's band buffers (or
// the tensors between the three convolutions) on threads cores, besides
// what the convolutions charge.
func BlockScratchBytes(dw Shape, threads int) int64 {
	if !Banded(dw) {
		return int64(dw.N) * int64(dw.C) * int64(prod(dw.Image)+prod(dw.Grid)) * 4
	}
	p := planBlock(dw)
	return int64(blockWorkers(dw, p, threads)) * int64(p.ebuf+p.dbuf) * 4
}

func blockWorkers(dw Shape, p blockPlan, threads int) int {
	bands := (dw.Grid[0] + p.rows - 1) / p.rows
	return max(1, min(max(threads, 1), dw.N*bands))
}

// Block32 computes y (N x M x OH x OW), the block of expand, dw and project
// (BlockFits) on x (N x C x H x W): the same bits as Forward run on each in
// turn with the stages' Configs.
func Block32(cfg Config, expand, dw, project Shape, x []float32, st [3]BlockStage, y []float32) error {
	if !BlockFits(expand, dw, project) {
		return errors.New("conv: not an inverted residual block")
	}
	if !Banded(dw) {
		return blockWhole(cfg, expand, dw, project, x, st, y)
	}
	return blockBands(cfg, expand, dw, project, x, st, y, false)
}

// frontMinBytes is the size of the expanded tensor (one image) from which
// Front32 runs by bands: measured (BenchmarkEffB0Fronts, one core, Relu6),
// 96 x 112 x 112 (4.8 MB) by bands took 0.95 ms against 1.6 ms as two
// convolutions, while 144 x 56 x 56 (1.8 MB) tied at stride 1 and was 10%
// slower at stride 2 with a 5x5 kernel: without the projection's products
// in the band, the smaller planes gain nothing from it.
var frontMinBytes = 4 << 20

// FrontFits reports whether expand and dw are the front of a block that
// Front32 runs: BlockFits but for the projection.
func FrontFits(expand, dw Shape) bool {
	if len(expand.Kernel) != 2 || len(dw.Kernel) != 2 || !pointwise(expand) || expand.Group != 1 || !depthwise(dw) {
		return false
	}
	if expand.N != dw.N || expand.M != dw.C || expand.Grid[0] != dw.Image[0] || expand.Grid[1] != dw.Image[1] {
		return false
	}
	reach := (dw.Kernel[0] - 1) * dw.Dilation[0]
	return dw.Pad[0] <= reach && (dw.Grid[0]-1)*dw.Stride[0]-dw.Pad[0] <= dw.Image[0]-1 && dw.Stride[0] >= 1
}

// frontBanded reports whether Front32 runs dw's front by bands;
// otherwise it runs the two convolutions, the expanded tensor in scratch.
func frontBanded(dw Shape) bool {
	return int64(dw.C)*int64(prod(dw.Image))*4 >= int64(max(frontMinBytes, blockMinBytes))
}

// FrontScratchBytes is the bytes Front32 charges for dw's band buffers
// (or the expanded tensor) on threads cores, besides what the
// convolutions charge.
func FrontScratchBytes(dw Shape, threads int) int64 {
	if !frontBanded(dw) {
		return int64(dw.N) * int64(dw.C) * int64(prod(dw.Image)) * 4
	}
	p := planBlock(dw)
	return int64(blockWorkers(dw, p, threads)) * int64(p.ebuf+p.dbuf) * 4
}

// Front32 computes d (N x E x OH x OW), the depthwise convolution dw of
// the expansion expand of x (FrontFits): on the large planes by bands as
// Block32 does, the bands of d written in place of the projection's
// products (a squeeze-and-excitation block needs all of d before its
// projection), else the two convolutions through scratch. The same bits
// as Forward run on each in turn with the stages' Configs.
func Front32(cfg Config, expand, dw Shape, x []float32, st [2]BlockStage, d []float32) error {
	if !FrontFits(expand, dw) {
		return errors.New("conv: not the front of an inverted residual block")
	}
	if !frontBanded(dw) {
		n1 := dw.N * dw.C * prod(dw.Image)
		if err := cfg.charge(int64(n1) * 4); err != nil {
			return err
		}
		buf := getBlockBuf(n1)
		defer putBlockBuf(buf)
		if err := Forward(stageConfig(cfg, st[0]), expand, x, st[0].W, st[0].B, *buf); err != nil {
			return err
		}
		return Forward(stageConfig(cfg, st[1]), dw, *buf, st[1].W, st[1].B, d)
	}
	project := Shape{N: dw.N, C: dw.M, M: dw.M, Image: dw.Grid, Grid: dw.Grid}
	return blockBands(cfg, expand, dw, project, x, [3]BlockStage{st[0], st[1], {}}, d, true)
}

// blockBands is Block32 by bands (a function of its own: the closures
// here put cfg and the plan on the heap, which blockWhole need not pay).
// With front, y is dw's output and the bands are copied into it.
func blockBands(cfg Config, expand, dw, project Shape, x []float32, st [3]BlockStage, y []float32, front bool) error {
	p := planBlock(dw)
	workers := blockWorkers(dw, p, cfg.threads())
	if err := cfg.charge(int64(workers) * int64(p.ebuf+p.dbuf) * 4); err != nil {
		return err
	}
	oh := dw.Grid[0]
	// Items: per image, runs of output rows, one a worker within an image
	// when there are fewer images than workers.
	runs := 1
	if dw.N < workers {
		runs = (workers + dw.N - 1) / dw.N
	}
	per := (oh + runs - 1) / runs
	runs = (oh + per - 1) / per
	work := dw.N * (expand.M*expand.C*prod(expand.Image) + dw.M*prod(dw.Grid)*prod(dw.Kernel))
	if !front {
		work += dw.N * project.M * project.C * prod(project.Grid)
	}
	// The depthwise bands charge their tables as they go, on every worker
	// (dwBandCache): their charges (the same for a band whoever runs it,
	// so the same sum at every run) go through a lock.
	if charge := cfg.Charge; charge != nil && workers > 1 {
		var mu sync.Mutex
		cfg.Charge = func(bytes int64) error {
			mu.Lock()
			defer mu.Unlock()
			return charge(bytes)
		}
	}
	return parallel.RangeW(cfg.Ctx, workers, dw.N*runs, work, func(wk, lo, hi int) error {
		buf := getBlockBuf(p.ebuf + p.dbuf)
		defer putBlockBuf(buf)
		bands := getBandCache()
		defer putBandCache(bands)
		ebuf, dbuf := (*buf)[:p.ebuf], (*buf)[p.ebuf:p.ebuf+p.dbuf]
		wc := cfg
		wc.Threads, wc.Scratch = 1, cfg.Scratch.Slot(wk)
		for it := lo; it < hi; it++ {
			n, r := it/runs, it%runs
			o0, o1 := r*per, min(oh, (r+1)*per)
			if err := blockRows(wc, p, expand, dw, project, x, st, y, n, o0, o1, ebuf, dbuf, bands, front); err != nil {
				return err
			}
		}
		return nil
	})
}

// blockRows computes output rows [o0, o1) of image n band by band (with
// front, of dw's output, into y).
func blockRows(wc Config, p blockPlan, expand, dw, project Shape, x []float32, st [3]BlockStage, y []float32, n, o0, o1 int, ebuf, dbuf []float32, bands *dwBandCache, front bool) error {
	e, c, m := dw.C, expand.C, project.M
	h, w := dw.Image[0], dw.Image[1]
	ow := dw.Grid[1]
	sh, ph, ext := dw.Stride[0], dw.Pad[0], (dw.Kernel[0]-1)*dw.Dilation[0]+1
	pin, pout := h*w, dw.Grid[0]*ow
	xn := x[n*c*pin : (n+1)*c*pin]
	yn := y[n*m*pout : (n+1)*m*pout]
	h0, h1, stride := 0, 0, 0 // the image rows ebuf holds, and its channel stride
	for b0 := o0; b0 < o1; b0 += p.rows {
		if err := wc.err(); err != nil {
			return err
		}
		b1 := min(o1, b0+p.rows)
		e0, e1 := max(0, b0*sh-ph), min(h, (b1-1)*sh-ph+ext)
		// Keep the rows the last band expanded that this one reads.
		keep := 0
		if h0 <= e0 && e0 < h1 {
			keep = min(h1, e1) - e0
		}
		ns := (e1 - e0) * w
		if keep > 0 {
			moveRows(ebuf, e, stride, ns, (e0-h0)*w, keep*w)
		}
		h0, h1, stride = e0, e1, ns
		if err := blockPointwise(wc, st[0], e, c, (e1-e0-keep)*w, xn[(e0+keep)*w:], pin, ebuf[keep*w:], ns); err != nil {
			return err
		}
		// The band's depthwise: the plane's own pads at its ends only.
		dc := stageConfig(wc, st[1])
		dc.WeightsT = nil
		cols := (b1 - b0) * ow
		if err := bands.depthwise(dc, dw, e1-e0, b1-b0, e0-(b0*sh-ph), ebuf[:e*ns], st[1].W, st[1].B, dbuf[:e*cols]); err != nil {
			return err
		}
		if front {
			for k := range e {
				copy(yn[k*pout+b0*ow:k*pout+b0*ow+cols], dbuf[k*cols:(k+1)*cols])
			}
			continue
		}
		if err := blockPointwise(wc, st[2], m, e, cols, dbuf, cols, yn[b0*ow:], pout); err != nil {
			return err
		}
	}
	return nil
}

// moveRows moves, for each of ch channels, the span [from, from+n) of the
// channel's rows at stride os to the start of its rows at stride ns, the
// channels in the order that never overwrites one not yet moved.
func moveRows(buf []float32, ch, os, ns, from, n int) {
	if ns <= os {
		for k := range ch {
			copy(buf[k*ns:k*ns+n], buf[k*os+from:k*os+from+n])
		}
		return
	}
	for k := ch - 1; k >= 0; k-- {
		copy(buf[k*ns:k*ns+n], buf[k*os+from:k*os+from+n])
	}
}

// blockPointwise is the pointwise path's product for cols positions: rows
// m of the stage's weights over k channels of b (row stride ldb) into c
// (row stride ldc), with its bias, clamp and epilogue as Forward applies
// them.
func blockPointwise(wc Config, st BlockStage, m, k, cols int, b []float32, ldb int, c []float32, ldc int) error {
	if cols <= 0 {
		return nil
	}
	sc := stageConfig(wc, st)
	fin, after, rest := inProduct(sc, st.B, 0, m)
	s := Shape{Group: 1}
	if pa := transposedWeights[float32](sc, s, m, cols, k); pa != nil {
		if err := gemm.Float32PackedAT(sc.gemm(1), m, cols, k, pa, b, ldb, c, ldc, fin); err != nil {
			return err
		}
	} else if err := gemmF(sc.gemm(1), m, cols, k, st.W, k, b, ldb, c, ldc, fin); err != nil {
		return err
	}
	return finishRows(after, 1, c, rest, 0, m, ldc, 0, cols)
}

// blockWhole runs the block as the three convolutions, one after the
// other, the tensors between them in scratch.
func blockWhole(cfg Config, expand, dw, project Shape, x []float32, st [3]BlockStage, y []float32) error {
	n1, n2 := dw.N*dw.C*prod(dw.Image), dw.N*dw.C*prod(dw.Grid)
	if err := cfg.charge(int64(n1+n2) * 4); err != nil {
		return err
	}
	buf := getBlockBuf(n1 + n2)
	defer putBlockBuf(buf)
	t1, t2 := (*buf)[:n1], (*buf)[n1:n1+n2]
	if err := Forward(stageConfig(cfg, st[0]), expand, x, st[0].W, st[0].B, t1); err != nil {
		return err
	}
	if err := Forward(stageConfig(cfg, st[1]), dw, t1, st[1].W, st[1].B, t2); err != nil {
		return err
	}
	return Forward(stageConfig(cfg, st[2]), project, t2, st[2].W, st[2].B, y)
}

// stageConfig is cfg with the epilogue and transposed weights of st.
func stageConfig(cfg Config, st BlockStage) Config {
	cfg.Epilogue32, cfg.Clamp32, cfg.WeightsT = st.Cfg.Epilogue32, st.Cfg.Clamp32, st.Cfg.WeightsT
	return cfg
}

// blockBufs keeps Block32's buffers between calls and runs, apart from
// the convolutions' scratch (GetScratch): a network's blocks ask for
// buffers of many sizes, and a pool of mixed sizes handed a small one to
// a large request (which then allocated) as often as not. Each is at
// least blockBufMin elements, which holds every band plan of
// blockBandBytes and the tensors between the three convolutions of a
// block under blockMinBytes; a larger request gets its own size. It keeps
// at most one a core (GOMAXPROCS), none over blockBufMax elements (a batch
// of images through blockWhole), and keeps them through garbage
// collections: in a sync.Pool, dropped at a collection, a 2 MB buffer made
// again every few hundred runs was most of a warm run's bytes.
var blockBufs struct {
	sync.Mutex
	free []*[]float32
}

const blockBufMin, blockBufMax = 2 << 18, 8 << 18

func getBlockBuf(n int) *[]float32 {
	blockBufs.Lock()
	var p *[]float32
	if k := len(blockBufs.free); k > 0 {
		p = blockBufs.free[k-1]
		blockBufs.free = blockBufs.free[:k-1]
	}
	blockBufs.Unlock()
	if p != nil && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]float32, n, max(n, blockBufMin))
	return &b
}

// putBlockBuf gives back a buffer of getBlockBuf.
func putBlockBuf(p *[]float32) {
	blockBufs.Lock()
	if len(blockBufs.free) < runtime.GOMAXPROCS(0) && cap(*p) <= blockBufMax {
		blockBufs.free = append(blockBufs.free, p)
	}
	blockBufs.Unlock()
}

// dwBandCache is a worker's depthwise plans for the bands of blocks, by
// band shape, kept from band to band and, through dwBandPlans, from run to
// run: planned for every band (depthwiseForward), their tables were most
// of a banded block's allocations (about ten a band). A band charges its
// plan's tables as depthwiseForward would have, whether it made them or
// found them: a run's charges do not depend on which worker ran what
// before.
type dwBandCache struct {
	plans map[dwBandKey]*dwBandPlan
	tiles []float32 // the channel blocks' tiles (dwChanItems), the largest yet
}

// dwBandKey is all a band's depthwise plan depends on: the convolution of
// one image on one core, and the switches tests turn.
type dwBandKey struct {
	c, ih, iw, oh, ow, kh, kw, sh, sw, dh, dw, ph, pw int
	chanOn, masked, rowsK, chanK                      bool
}

// dwBandPlan is one band shape's plan, its shape, the charges made in
// making it, and the worker's tap tables and phase planes.
type dwBandPlan struct {
	p       dwPlan[float32]
	s       Shape
	charges []int64
}

// dwBandPlans keeps the workers' dwBandCaches between runs, at most one
// a core, through garbage collections as blockBufs does; a cache of more
// than dwBandCacheMax shapes starts again.
var dwBandPlans struct {
	sync.Mutex
	free []*dwBandCache
}

const dwBandCacheMax = 64

func getBandCache() *dwBandCache {
	dwBandPlans.Lock()
	defer dwBandPlans.Unlock()
	if k := len(dwBandPlans.free); k > 0 {
		c := dwBandPlans.free[k-1]
		dwBandPlans.free = dwBandPlans.free[:k-1]
		return c
	}
	return &dwBandCache{plans: map[dwBandKey]*dwBandPlan{}}
}

func putBandCache(c *dwBandCache) {
	dwBandPlans.Lock()
	defer dwBandPlans.Unlock()
	if len(dwBandPlans.free) < runtime.GOMAXPROCS(0) {
		dwBandPlans.free = append(dwBandPlans.free, c)
	}
}

// depthwise is depthwiseForward (on one core, cfg.Threads == 1) for the
// band of ih input rows and oh output rows of dw's plane, the plane's top
// pad ph rows (dw's bottom pad when the band is the last), through the
// band shape's plan.
func (c *dwBandCache) depthwise(cfg Config, dw Shape, ih, oh, ph int, x, w, b, y []float32) error {
	k := dwBandKey{c: dw.C, ih: ih, iw: dw.Image[1], oh: oh, ow: dw.Grid[1], kh: dw.Kernel[0], kw: dw.Kernel[1],
		sh: dw.Stride[0], sw: dw.Stride[1], dh: dw.Dilation[0], dw: dw.Dilation[1], ph: ph, pw: dw.Pad[1],
		chanOn: dwChan, masked: dwMasked, rowsK: haveRowsKernel(), chanK: haveChanKernel()}
	bp := c.plans[k]
	if bp == nil {
		var err error
		if bp, err = newBandPlan(cfg, dw, ih, oh, ph); err != nil {
			return err
		}
		if len(c.plans) >= dwBandCacheMax {
			clear(c.plans)
		}
		c.plans[k] = bp
	} else {
		for _, n := range bp.charges {
			if err := cfg.charge(n); err != nil {
				return err
			}
		}
	}
	p := &bp.p
	if p.cp != nil {
		per, err := chargeChan(cfg, bp.s, &p.g)
		if err != nil {
			return err
		}
		if cap(c.tiles) < per {
			c.tiles = make([]float32, per)
		}
		clo, chi, cc := chanClamp(cfg)
		return dwChanItems(cc, bp.s, &p.g, p.cp, x, w, b, y, 0, (bp.s.C+15)/16, c.tiles[:per], clo, chi)
	}
	if err := p.chargeWorkers(cfg); err != nil {
		return err
	}
	return p.run(cfg, x, w, b, y, 0, p.items, &p.sc, p.ph)
}

// newBandPlan plans the band (see depthwise), charging and recording the
// charges.
func newBandPlan(cfg Config, dw Shape, ih, oh, ph int) (*dwBandPlan, error) {
	s := dw
	s.N = 1
	s.Image = []int{ih, dw.Image[1]}
	s.Grid = []int{oh, dw.Grid[1]}
	s.Pad = []int{ph, dw.Pad[1]}
	bp := &dwBandPlan{s: s}
	rec := cfg
	rec.Charge = func(n int64) error {
		bp.charges = append(bp.charges, n)
		return cfg.charge(n)
	}
	if err := bp.p.plan(rec, s); err != nil {
		return nil, err
	}
	taps := s.Kernel[0] * s.Kernel[1]
	bp.p.sc = dwScratch[float32]{offs: make([]int, taps), ws: make([]float32, taps), ptrs: make([]unsafe.Pointer, taps), rows: make([]int, s.Kernel[0])}
	bp.p.ph = make([]float32, bp.p.phases)
	return bp, nil
}
