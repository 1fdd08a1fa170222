// Package conv is the convolution engine: it lowers a convolution over N-d
// images (NCHW layout, row-major) to matrix products of the GEMM engine
// (ops/internal/gemm), and scatters the products of a transposed
// convolution back onto an image.
//
//   - Forward: a 1x1, stride-1, unpadded convolution is a product per
//     image, group and tile of positions on the image as it lies (no
//     copy; the tile's output, some 512 KiB, still in the cache for the
//     bias and the epilogue); a depthwise
//     convolution (group == C == M) of one or two spatial axes runs a
//     direct kernel (depthwise.go: one pass per output row, AVX-512 or
//     AVX2 for float32 strides 1 and 2), where a product of one row would
//     waste the GEMM; a float32 convolution of one or two spatial axes is an
//     implicit GEMM (implicit.go: the windows written straight into the
//     product's panels, a cache-sized block at a time); every other case
//     gathers the image's windows (im2col) a tile of output positions at
//     a time, so the scratch stays a few hundred KiB whatever the image
//     size, and multiplies the weights by each tile.
//   - Transpose: the transposed weights times a tile of the input, then
//     the columns scatter-added onto the output image (col2im).
//   - Col2Im: that scatter alone.
//   - Integer: Forward for 8-bit images and weights with zero points,
//     accumulating in int32 (gemm.Integer), padding with the image's zero
//     point so that a padded tap contributes nothing; IntegerPacked is the
//     same with the weights packed once (PackIntegerWeights) and the
//     windows written straight into the 8-bit product's panels
//     (integerimplicit.go: one or two spatial axes, or a 1x1).
//   - Deform: Forward with the windows sampled bilinearly at learned
//     offsets, scaled by a mask (two spatial axes).
//
// Conv, ConvTranspose, ConvInteger, QLinearConv, DeformConv and Col2Im (in
// package ops) use it; the operators check attributes and shapes, convert
// float16 and bfloat16 to float32, and requantize. The work is split over
// images, groups and tiles with ops/internal/parallel, and the context is
// checked between tiles.
//
// It never writes into its inputs, never allocates scratch that grows with
// the input without first charging Config.Charge with all of it (before
// any work starts), and never checks attributes: a Shape must describe
// slices that hold it (the operators guarantee that).
package conv

import (
	"context"
	"fmt"
	"sync"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// Config is what a convolution runs under: the run's context (nil for
// none), the cores it may use (0 or less: one) and the run's byte budget
// (nil: none), which is charged for every scratch buffer before any work,
// and the account through which its products charge their packing scratch
// once for the whole convolution (nil: at each product; gemm.Scratch).
type Config struct {
	Ctx     context.Context
	Threads int
	Charge  func(bytes int64) error
	Scratch *gemm.Scratch
	// Epilogue32 and Epilogue64, when set, are applied in place by Forward
	// to the finished output elements (sums and bias complete) of a
	// float32 or float64 convolution, a block at a time while the block
	// is in the cache (a fused activation: the operator's own kernel, so
	// that the bits are those of the unfused pair).
	Epilogue32 func([]float32)
	Epilogue64 func([]float64)
	// Clamp32, when not nil, says that Epilogue32 limits each element to
	// [Clamp32[0], Clamp32[1]] as package clamp does (a fused Relu or
	// Clip): the products may then apply it in their kernels, with the
	// bias, before they store a tile (the same bits).
	Clamp32 *[2]float32
	// WeightsT, when not nil, is the float32 weights of a one-group
	// convolution packed with the output channels on the vector lanes
	// (PackWeightsT, once at load): a 1x1 product over few positions (a
	// 7x7 plane) then runs with C's rows on the lanes
	// (gemm.Float32PackedAT, the same bits). The implicit path does not
	// use it: filling the windows whole for the transposed tiles measured
	// 0.91-1.12x on ResNet-50's 3x3 512->512 over 7x7.
	WeightsT *gemm.PackedAT32
	// WeightsA, when not nil, is the float32 weights (M x K) packed in the
	// GEMM kernel's panels (PackWeightsA, once at load): the implicit path
	// reads them as one stream instead of M rows K apart
	// (gemm.Float32ImplicitPacked, the same bits).
	WeightsA *gemm.PackedA32
}

func (c Config) err() error {
	if c.Ctx == nil {
		return nil
	}
	select {
	case <-c.Ctx.Done():
		return c.Ctx.Err()
	default:
		return nil
	}
}

func (c Config) charge(bytes int64) error {
	if c.Charge == nil || bytes <= 0 {
		return nil
	}
	return c.Charge(bytes)
}

func (c Config) gemm(threads int) gemm.Config {
	return gemm.Config{Ctx: c.Ctx, Threads: threads, Charge: c.Charge, Scratch: c.Scratch}
}

func (c Config) threads() int { return max(c.Threads, 1) }

// Shape is one convolution. Image is the spatial shape of the image side
// (Forward's input, Transpose's output), Grid that of the window positions
// (Forward's output, Transpose's input); window position o along axis a
// covers image coordinates o*Stride[a] - Pad[a] + t*Dilation[a], t in
// [0, Kernel[a]). C are the image's channels and M the other side's,
// both divided into Group groups.
type Shape struct {
	N, C, M, Group                             int
	Image, Grid, Kernel, Stride, Dilation, Pad []int
}

// Float is what the float paths compute in.
type Float interface{ float32 | float64 }

// Number is what Col2Im adds.
type Number interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64
}

func prod(v []int) int {
	p := 1
	for _, x := range v {
		p *= x
	}
	return p
}

// tileBytes and minTile size the im2col tiles (tests shrink them to cross
// tile boundaries on small images).
var tileBytes, minTile = 512 << 10, 64

// TileColumns is the number of window positions of one im2col tile for k
// rows of size bytes each: about 512 KiB, at least 64 columns, at most
// positions.
func TileColumns(k, size, positions int) int {
	t := tileBytes / max(1, k*size)
	t = max(t, minTile)
	return max(1, min(t, positions))
}

// gemmF is gemm.Float32 or Float64 by T, with alpha 1, beta 0 and neither
// operand transposed; a float32 product applies fin (inProduct's) before
// it stores each tile.
func gemmF[T Float](cfg gemm.Config, m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int, fin gemm.Finish) error {
	switch a := any(a).(type) {
	case []float32:
		if fin.Bias != nil || fin.Clamp != nil {
			return gemm.Float32Finish(cfg, m, n, k, a, lda, any(b).([]float32), ldb, any(c).([]float32), ldc, fin)
		}
		return gemm.Float32(cfg, false, false, m, n, k, 1, a, lda, any(b).([]float32), ldb, 0, any(c).([]float32), ldc)
	case []float64:
		return gemm.Float64(cfg, false, false, m, n, k, 1, a, lda, any(b).([]float64), ldb, 0, any(c).([]float64), ldc)
	}
	panic("unreachable")
}

// inProduct splits the finish of the output rows [m0, m0+mg) of a
// float32 product: the bias b (nil: none), and the epilogue when it is a
// clamp (Clamp32), go into the product's kernels (fin), which apply them
// to each tile before storing it, while it is in registers; after is cfg
// without the epilogue the product applies, and rest the bias left to add
// afterwards (nil). A float64 product keeps both: fin is empty, after is
// cfg and rest is b.
func inProduct[T Float](cfg Config, b []T, m0, mg int) (fin gemm.Finish, after Config, rest []T) {
	b32, ok := any(b).([]float32)
	if !ok {
		return gemm.Finish{}, cfg, b
	}
	if b32 != nil {
		fin.Bias = b32[m0 : m0+mg]
	}
	if cfg.Clamp32 != nil && cfg.Epilogue32 != nil {
		fin.Clamp = cfg.Clamp32
		cfg.Epilogue32 = nil
	}
	return fin, cfg, nil
}

// split runs items through the worker pool: over the cores when there are
// at least as many items as cores (each product then on one core), one
// after the other otherwise (each product on every core). scratch is the
// elements of scratch one worker needs, charged for every worker before
// any work. body gets its worker's scratch and its worker's Config: the
// threads its products may use and the worker's own slot of cfg.Scratch,
// so that the packing scratch charged is the same at every run whatever
// order the workers' products happen to run in.
func split[E any](cfg Config, items, work, scratch, size int, body func(item int, buf []E, wc Config) error) error {
	threads := cfg.threads()
	workers := 1
	inner := threads
	if items >= threads && work >= parallel.Work {
		workers, inner = threads, 1
	}
	if err := cfg.charge(int64(workers) * int64(scratch) * int64(size)); err != nil {
		return err
	}
	return parallel.RangeW(cfg.Ctx, workers, items, work, func(w, lo, hi int) error {
		var buf []E
		if scratch > 0 {
			p := GetScratch[E](scratch)
			defer PutScratch(p)
			buf = *p
		}
		wc := cfg
		wc.Threads, wc.Scratch = inner, cfg.Scratch.Slot(w)
		for i := lo; i < hi; i++ {
			if err := cfg.err(); err != nil {
				return err
			}
			if err := body(i, buf, wc); err != nil {
				return err
			}
		}
		return nil
	})
}

// scratchBufs keeps the convolutions' scratch between calls (split's
// columns, the float32 copies of a float16 convolution's input and output):
// a small convolution would otherwise allocate (and the collector free) it
// every run. It holds *[]E of the element types in use; a buffer of another
// type is left to the collector.
var scratchBufs sync.Pool

// GetScratch returns a buffer of n elements of E (of any content) from the
// pool, or a new one; PutScratch gives it back when the caller is done.
func GetScratch[E any](n int) *[]E {
	if p, ok := scratchBufs.Get().(*[]E); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]E, n)
	return &b
}

// PutScratch gives back a buffer of GetScratch.
func PutScratch[E any](p *[]E) { scratchBufs.Put(p) }

// ScratchBytes returns the bytes of scratch Forward will charge for s with
// elements of size bytes on threads cores, so that an operator can refuse
// a convolution before any work.
func ScratchBytes(s Shape, size, threads int) int64 {
	if pointwise(s) || depthwise(s) {
		return 0
	}
	if (size == 4 && implicit[float32](s)) || (size == 8 && implicit[float64](s)) {
		return implicitScratchBytes(s, threads)
	}
	k := s.C / max(s.Group, 1) * prod(s.Kernel)
	t := TileColumns(k, size, prod(s.Grid))
	return int64(max(threads, 1)) * int64(k) * int64(t) * int64(size)
}

// pointwiseTile is the output elements (channels times positions) of one
// item of a 1x1 convolution's work: 512 KiB of float32, so that the bias
// and the fused epilogue run on the product's block while it is in the
// cache, instead of reading the whole output back from memory.
const pointwiseTile = 128 << 10

// balancedTile returns the positions of one tile when pout positions are
// cut into tiles of at most most, outer times (for the images and
// groups), and the items (outer times the tiles) are split into
// contiguous parts over threads cores as parallel.Range does: among tile
// sizes that are multiples of align (but the last) and give up to four
// times the fewest tiles, the one whose busiest core has the fewest
// positions, then the biggest; with many items, the fewest tiles of
// equal size. Where the tiles fall does not change a sum.
func balancedTile(pout, most, align, outer, threads int) int {
	most = max(1, min(most, pout))
	first := (pout + most - 1) / most
	even := func(tiles int) int { // tiles of equal size, rounded up to align
		t := (pout + tiles - 1) / tiles
		if t > align {
			t = min(most, (t+align-1)/align*align)
		}
		return t
	}
	if threads <= 1 || outer*first >= 8*threads {
		return even(first)
	}
	best, bestLoad := most, busiest(pout, most, outer, threads)
	for tiles := first; tiles <= 4*first; tiles++ {
		if t := even(tiles); busiest(pout, t, outer, threads) < bestLoad {
			best, bestLoad = t, busiest(pout, t, outer, threads)
		}
	}
	return best
}

// busiest is the most positions one of threads cores gets when outer
// times pout positions in tiles of t are split as parallel.Range splits
// the items.
func busiest(pout, t, outer, threads int) int {
	tiles := (pout + t - 1) / t
	n := outer * tiles
	w := min(threads, n)
	most := 0
	for p := range w {
		load := 0
		for i := n * p / w; i < n*(p+1)/w; i++ {
			load += min(t, pout-i%tiles*t)
		}
		most = max(most, load)
	}
	return most
}

// weightsSplit reports whether a product of mg output channels over k
// a position and pout positions, outer times (images and groups), is
// better split over the cores by output channels than by positions: on
// fewer products than cores, when the weights (mg x k) outweigh the
// image (k x pout). Split by positions, every core would read all the
// weights (ResNet-50's 2048 -> 512 1x1 at 7x7: 4 MB of weights for 200 KB
// of image, the same time on two cores as on one); by output channels,
// each reads its share. Where the rows fall does not change a sum.
func weightsSplit(outer, mg, pout, threads int) bool {
	return splitWeights && threads > 1 && outer < threads && mg >= 2*pout && mg >= 2*12
}

// splitWeights turns weightsSplit on (benchmarks turn it off to compare).
var splitWeights = true

// rowBlocks cuts m output channels into one block per core, multiples of
// the micro-kernel's 12 rows: the rows of a block and the blocks.
func rowBlocks(m, threads int) (rows, blocks int) {
	rows = ((m+threads-1)/threads + 11) / 12 * 12
	return rows, (m + rows - 1) / rows
}

// PackWeightsT packs the float32 weights w of a one-group convolution
// (M x K, K = C times the taps, row-major) for Config.WeightsT, charging
// cfg's account for them first.
func PackWeightsT(cfg Config, m, k int, w []float32) (*gemm.PackedAT32, error) {
	return gemm.PackAT32(cfg.gemm(1), m, k, w, k)
}

// PackWeightsA packs the float32 weights w (M x K, K = C/group times the
// taps, row-major) for Config.WeightsA, charging cfg's account for them
// first; nil when no kernel in use reads A packed.
func PackWeightsA(cfg Config, m, k int, w []float32) (*gemm.PackedA32, error) {
	return gemm.PackA32(cfg.gemm(1), m, k, w, k)
}

// transposedWeights returns cfg.WeightsT when a product of s (m rows,
// cols positions over k) runs with C's rows on the lanes: float32
// weights of s's shape, one group, and few columns (gemm.TransposedPays).
func transposedWeights[T Float](cfg Config, s Shape, m, cols, k int) *gemm.PackedAT32 {
	var z T
	pa := cfg.WeightsT
	if pa == nil || sizeOf(z) != 4 || s.Group != 1 || pa.M() != m || pa.K() != k || !gemm.TransposedPays(m, cols, k) {
		return nil
	}
	return pa
}

// packedWeights returns cfg.WeightsA when it holds float32 weights of s's
// shape (M x k), nil otherwise.
func packedWeights[T Float](cfg Config, s Shape, k int) *gemm.PackedA32 {
	var z T
	pa := cfg.WeightsA
	if pa == nil || sizeOf(z) != 4 || pa.M() != s.M || pa.K() != k {
		return nil
	}
	return pa
}

// PackedOnly reports whether Forward of s with cfg reads the weights
// only packed (cfg.WeightsA, and cfg.WeightsT where it serves), never the
// w it is given, which may then be nil: float32 weights of one group
// packed for s, through the implicit GEMM or, with a bias, the 1x1
// products (gemm.PackedA32.Serves for every block of rows a run takes on
// cfg's cores). bias says whether the run has one.
func PackedOnly(cfg Config, s Shape, bias bool) bool {
	pa := cfg.WeightsA
	k := s.C * prod(s.Kernel)
	if pa == nil || s.Group != 1 || depthwise(s) || k == 0 || s.M == 0 || pa.M() != s.M || pa.K() != k {
		return false
	}
	blocked := false
	switch {
	case pointwise(s):
		// Without a bias or a clamp the product is gemmF's, in place.
		blocked = true
		if !bias {
			return false
		}
	case implicit[float32](s):
	default:
		return false
	}
	mb, blocks := s.M, 1
	if weightsSplit(s.N, s.M, prod(s.Grid), cfg.threads()) {
		mb, blocks = rowBlocks(s.M, cfg.threads())
	}
	for i := range blocks {
		m0 := i * mb
		if !pa.Serves(m0, min(s.M, m0+mb)-m0, k, blocked) {
			return false
		}
	}
	return true
}

// from is w[off:], nil when w is (weights read packed alone, PackedOnly).
func from[T any](w []T, off int) []T {
	if w == nil {
		return nil
	}
	return w[off:]
}

// pointwise reports a 1x1, stride-1, unpadded convolution: its im2col
// matrix is the image itself.
func pointwise(s Shape) bool {
	for a := range s.Kernel {
		if s.Kernel[a] != 1 || s.Stride[a] != 1 || s.Pad[a] != 0 || s.Grid[a] != s.Image[a] {
			return false
		}
	}
	return true
}

// Forward computes y (N x M x Grid) = the convolution of x (N x C x Image)
// with w (M x C/Group x Kernel), plus b (M values, or nil) on every
// output channel. w may be nil when PackedOnly(cfg, s, b != nil): the
// weights are then read from cfg.WeightsA (and WeightsT) alone.
func Forward[T Float](cfg Config, s Shape, x, w, b, y []T) error {
	var zero T
	size := int(sizeOf(zero))
	cg, mg := s.C/s.Group, s.M/s.Group
	kprod := prod(s.Kernel)
	k := cg * kprod
	pin, pout := prod(s.Image), prod(s.Grid)
	if len(y) == 0 {
		return nil
	}
	if w == nil && k != 0 && (size != 4 || !PackedOnly(cfg, s, b != nil)) {
		return fmt.Errorf("%w: no weights, and this convolution does not read them packed alone", gemm.ErrShape)
	}
	if k == 0 {
		err := fillBias(y, b, s.N, s.M, pout)
		epilogue(cfg, y)
		return err
	}
	if depthwise(s) {
		return depthwiseForward(cfg, s, x, w, b, y)
	}
	if pointwise(s) {
		t := balancedTile(pout, max(pointwiseTile/max(mg, 1), gemm.NR32()), gemm.NR32(), s.N*s.Group, cfg.threads())
		tiles := (pout + t - 1) / t
		mb, mblocks := mg, 1
		if weightsSplit(s.N*s.Group, mg, pout, cfg.threads()) {
			t, tiles = pout, 1
			mb, mblocks = rowBlocks(mg, cfg.threads())
		}
		return split[T](cfg, s.N*s.Group*tiles*mblocks, s.N*s.M*pout*max(1, k/8), 0, size, func(item int, _ []T, wc Config) error {
			m0 := item % mblocks * mb
			m1 := min(mg, m0+mb)
			tile := item / mblocks % tiles
			ng := item / mblocks / tiles
			n, g := ng/s.Group, ng%s.Group
			p0 := tile * t
			p1 := min(pout, p0+t)
			yg := y[(n*s.M+g*mg+m0)*pout:]
			fin, after, rest := inProduct(wc, b, g*mg+m0, m1-m0)
			// The weights kept with the channels on the lanes cover all mg
			// rows: a product split by output channels takes the tiles.
			if pa := transposedWeights[T](cfg, s, mg, p1-p0, k); pa != nil && m0 == 0 && m1 == mg {
				if err := gemm.Float32PackedAT(wc.gemm(wc.Threads), mg, p1-p0, k, pa, any(x[(n*s.C+g*cg)*pin+p0:]).([]float32), pin, any(yg[p0:]).([]float32), pout, fin); err != nil {
					return err
				}
			} else if pa := packedWeights[T](cfg, s, k); pa != nil && (fin.Bias != nil || fin.Clamp != nil) {
				if err := gemm.Float32FinishPacked(wc.gemm(wc.Threads), m1-m0, p1-p0, cg, any(from(w, (g*mg+m0)*k)).([]float32), k, pa, g*mg+m0, any(x[(n*s.C+g*cg)*pin+p0:]).([]float32), pin, any(yg[p0:]).([]float32), pout, fin); err != nil {
					return err
				}
			} else if err := gemmF(wc.gemm(wc.Threads), m1-m0, p1-p0, cg, w[(g*mg+m0)*k:], k, x[(n*s.C+g*cg)*pin+p0:], pin, yg[p0:], pout, fin); err != nil {
				return err
			}
			return finishRows(after, wc.Threads, yg, rest, g*mg+m0, m1-m0, pout, p0, p1)
		})
	}
	if implicit[T](s) {
		return implicitForward(cfg, s, x, w, b, y)
	}
	t := TileColumns(k, size, pout)
	tiles := (pout + t - 1) / t
	win := window{image: s.Image, grid: s.Grid, kernel: s.Kernel, stride: s.Stride, dilation: s.Dilation, pad: s.Pad}
	return split[T](cfg, s.N*s.Group*tiles, s.N*s.M*pout*max(1, k/8), k*t, size, func(item int, col []T, wc Config) error {
		tile := item % tiles
		ng := item / tiles
		n, g := ng/s.Group, ng%s.Group
		p0 := tile * t
		p1 := min(pout, p0+t)
		cols := p1 - p0
		for c := range cg {
			gather(col[c*kprod*cols:], cols, x[(n*s.C+g*cg+c)*pin:(n*s.C+g*cg+c+1)*pin], win, p0, p1, zero)
		}
		yg := y[(n*s.M+g*mg)*pout:]
		fin, after, rest := inProduct(wc, b, g*mg, mg)
		if err := gemmF(wc.gemm(wc.Threads), mg, cols, k, w[g*mg*k:], k, col, cols, yg[p0:], pout, fin); err != nil {
			return err
		}
		addBias(yg, rest, g*mg, mg, pout, p0, p1)
		epilogueRows(after, yg, mg, pout, p0, p1)
		return nil
	})
}

func sizeOf[T Float](v T) uintptr {
	switch any(v).(type) {
	case float32:
		return 4
	}
	return 8
}

// addBias adds b[m0+i] to row i of the mg rows of yg (row stride ld),
// columns [p0, p1).
func addBias[T Float](yg, b []T, m0, mg, ld, p0, p1 int) {
	if b == nil {
		return
	}
	if y32, ok := any(yg).([]float32); ok && p1 > p0 && addRows32(y32[p0:], any(b).([]float32)[m0:m0+mg], ld, p1-p0) {
		return
	}
	for i := range mg {
		bv := b[m0+i]
		row := yg[i*ld+p0 : i*ld+p1]
		for j := range row {
			row[j] += bv
		}
	}
}

// epilogueRows applies the epilogue to columns [p0, p1) of the mg rows of
// yg (row stride ld).
func epilogueRows[T Float](cfg Config, yg []T, mg, ld, p0, p1 int) {
	if cfg.Epilogue32 == nil && cfg.Epilogue64 == nil {
		return
	}
	for i := range mg {
		epilogue(cfg, yg[i*ld+p0:i*ld+p1])
	}
}

// fillBias sets every output channel of y to its bias (0 without one).
func fillBias[T Float](y, b []T, n, m, plane int) error {
	for i := range n * m {
		var v T
		if b != nil {
			v = b[i%m]
		}
		row := y[i*plane : (i+1)*plane]
		for j := range row {
			row[j] = v
		}
	}
	return nil
}

// validRange returns the window positions [lo, hi) of [0, n) whose tap
// j*stride + base falls inside [0, size).
func validRange(base, stride, size, n int) (lo, hi int) {
	if base < 0 {
		lo = (-base + stride - 1) / stride
	}
	last := size - 1 - base
	if last < 0 {
		return 0, 0
	}
	hi = min(n, last/stride+1)
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}
