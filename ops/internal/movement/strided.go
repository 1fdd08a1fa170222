package movement

import (
	"cmp"
	"fmt"
	"slices"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/ops/internal/poll"
	"github.com/onnxshape/onnxshape/tensor"
)

// Plan is the one data-movement primitive every operator that copies
// is expressed in. It moves elements between two tensors of one type:
//
//	dst[dstOff + Σ i[k]*dstStrides[k]] = src[srcOff + Σ i[k]*srcStrides[k]]
//
// for every index i in shape. Strides are in elements; a source stride may
// be 0 (broadcast, as in Expand and Tile) or negative (Slice with a negative
// step). Transpose, Slice, Concat, Split, Pad's interior, Tile, Expand,
// DepthToSpace and SpaceToDepth are each a few such plans.
type Plan struct {
	Shape                  []int
	DstStrides, SrcStrides []int
	DstOff, SrcOff         int
}

// ContiguousStrides returns the row-major strides, in elements, of shape.
func ContiguousStrides(shape []int) []int {
	s := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= shape[i]
	}
	return s
}

// simplify drops axes of size 1 and merges each pair of neighbouring axes
// that both sides walk as one, so that the innermost axis is as long as
// possible: a plain copy of a contiguous region becomes one memmove. It
// reports false when the plan moves nothing (a zero-sized axis).
func (p Plan) simplify() (Plan, bool) {
	q := Plan{DstOff: p.DstOff, SrcOff: p.SrcOff}
	q.Shape, q.DstStrides, q.SrcStrides = planLists(len(p.Shape))
	for k, n := range p.Shape {
		if n == 0 {
			return q, false
		}
		if n == 1 {
			continue
		}
		ds, ss := p.DstStrides[k], p.SrcStrides[k]
		if last := len(q.Shape) - 1; last >= 0 &&
			q.DstStrides[last] == ds*n && q.SrcStrides[last] == ss*n {
			q.Shape[last] *= n
			q.DstStrides[last] = ds
			q.SrcStrides[last] = ss
			continue
		}
		q.Shape = append(q.Shape, n)
		q.DstStrides = append(q.DstStrides, ds)
		q.SrcStrides = append(q.SrcStrides, ss)
	}
	return q, true
}

// planLists returns a plan's three empty lists with room for r axes each,
// in one allocation: appending to three nil slices cost a small copy
// (Split, Pad, nearest Resize) as many allocations as its work.
func planLists(r int) (shape, dst, src []int) {
	buf := make([]int, 3*r)
	return buf[:0:r], buf[r : r : 2*r], buf[2*r : 2*r : 3*r]
}

// shortInnerLoop is the length below which a plan's innermost axis is too
// short to stream: the copy engine tiles a transpose only from 8 elements
// on, and a loop of 2 or 3 elements spends its time on index arithmetic.
const shortInnerLoop = 8

// longInnerLoop returns p with the axis that the source walks contiguously
// moved innermost, when the destination's innermost axis is short and that
// axis is long. The loop then reads the source as a stream and writes with a
// small stride into output lines that stay in cache: DepthToSpace with
// blocksize 2 (innermost output axis of 2) and NCHW-to-NHWC with 3 channels
// run 2 to 4 times faster. The element mapping is unchanged: only the order
// of the walk moves.
func (p Plan) longInnerLoop() Plan {
	last := len(p.Shape) - 1
	for last >= 0 && p.Shape[last] == 1 {
		last--
	}
	if last < 1 || p.Shape[last] >= shortInnerLoop || p.SrcStrides[last] == 1 {
		return p
	}
	longest := -1
	for j := last - 1; j >= 0; j-- {
		if p.SrcStrides[j] == 1 && p.Shape[j] >= shortInnerLoop {
			return p.moveInnermost(j)
		}
		if p.Shape[j] >= shortInnerLoop && (longest < 0 || p.Shape[j] > p.Shape[longest]) {
			longest = j
		}
	}
	// No axis reads the source contiguously (Pad's edge and reflect
	// borders: a column or two a row, read from one element or backwards):
	// the longest axis, strided on both sides, still beats a loop of two.
	if longest >= 0 {
		return p.moveInnermost(longest)
	}
	return p
}

// moveInnermost returns p with axis j walked innermost; the element mapping
// is unchanged.
func (p Plan) moveInnermost(j int) Plan {
	q := Plan{DstOff: p.DstOff, SrcOff: p.SrcOff}
	q.Shape, q.DstStrides, q.SrcStrides = planLists(len(p.Shape))
	for k := range p.Shape {
		if k != j {
			q.Shape = append(q.Shape, p.Shape[k])
			q.DstStrides = append(q.DstStrides, p.DstStrides[k])
			q.SrcStrides = append(q.SrcStrides, p.SrcStrides[k])
		}
	}
	q.Shape = append(q.Shape, p.Shape[j])
	q.DstStrides = append(q.DstStrides, p.DstStrides[j])
	q.SrcStrides = append(q.SrcStrides, p.SrcStrides[j])
	return q
}

// Run executes the plan from src into dst, which have the same element type.
// A transpose too large for the cache writes with streaming stores (see
// stream.go). It returns the context's error when the run is cancelled,
// before or during the copy.
func (p Plan) Run(env Env, dst, src *tensor.Tensor) error {
	if err := env.cancelled(); err != nil {
		return err
	}
	q, ok := p.simplify()
	if !ok {
		return nil
	}
	q.checkBounds(dst.Len(), src.Len())
	q = q.longInnerLoop()
	if env.Record != nil {
		env.Record(dst, src, q)
	}
	return q.Exec(env, dst, src)
}

// Exec runs a plan that run has simplified and checked against the two
// tensors' lengths. A copy too small to share between cores is one call
// of the typed loop, with no closure or part to allocate: a prepared node
// of a small tensor (see Prepared) runs in a few hundred nanoseconds.
func (q Plan) Exec(env Env, dst, src *tensor.Tensor) error {
	dt := dst.DataType()
	if dt == tensor.String {
		return q.parallel(env, 16, false, func(q Plan, c *poll.Canceller) { stridedCopy(dst.Strings(), src.Strings(), q, false, c) })
	}
	size := dt.Size()
	d, s := dst.Bytes(), src.Bytes()
	st := env.Streams(len(d), len(s))
	if len(q.Shape) > 0 && q.Elements()*size/4 < parallel.Work && !st {
		c := poll.New(env.Ctx)
		copyBySize(size, d, s, q, false, &c)
		return c.Err
	}
	return q.parallel(env, size, st, func(q Plan, c *poll.Canceller) { copyBySize(size, d, s, q, st, c) })
}

// copyBySize runs the plan over d and s seen as elements of size bytes.
func copyBySize(size int, d, s []byte, q Plan, stream bool, c *poll.Canceller) {
	switch size {
	case 1:
		stridedCopy(d, s, q, stream, c)
	case 2:
		stridedCopy(AsElems[uint16](d), AsElems[uint16](s), q, stream, c)
	case 4:
		stridedCopy(AsElems[uint32](d), AsElems[uint32](s), q, stream, c)
	case 8:
		stridedCopy(AsElems[uint64](d), AsElems[uint64](s), q, stream, c)
	case 16:
		stridedCopy(AsElems[[2]uint64](d), AsElems[[2]uint64](s), q, stream, c)
	}
}

// Elements returns how many elements the plan moves.
func (q Plan) Elements() int {
	n := 1
	for _, d := range q.Shape {
		n *= d
	}
	return n
}

// AsElems views tensor storage (8-byte aligned, see tensor.New) as []E.
func AsElems[E any](b []byte) []E {
	if len(b) == 0 {
		return nil
	}
	var e E
	return unsafe.Slice((*E)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(e)))
}

// parallel runs f over the plan, split along its outermost axis across the
// run's cores when the copy is large enough to gain from it (parallelRange
// counts work in 4-byte words). With stream, f writes with streaming stores,
// and each part ends with the fence that makes them visible. Each part
// polls the run's context through its own canceller; a cancelled part
// returns the context's error.
func (q Plan) parallel(env Env, elemSize int, stream bool, f func(Plan, *poll.Canceller)) error {
	if len(q.Shape) == 0 {
		c := poll.New(env.Ctx)
		f(q, &c)
		return nil
	}
	total := elemSize
	for _, n := range q.Shape {
		total *= n
	}
	// A part goes to f in chunks of about copyChunk elements along the
	// outermost axis, so that a plan of one or two long axes, whose loops
	// have no step to poll at, still stops soon after a cancellation.
	perIndex := max(1, total/elemSize/q.Shape[0])
	step := q.Shape[0]
	if env.Ctx != nil {
		step = max(1, copyChunk/perIndex)
	}
	return parallel.Range(env.Ctx, env.threads(), q.Shape[0], total/4, func(lo, hi int) error {
		c := poll.New(env.Ctx)
		for from := lo; from < hi && c.Err == nil; from += step {
			part := q
			part.Shape = append([]int{min(step, hi-from)}, q.Shape[1:]...)
			part.DstOff += from * q.DstStrides[0]
			part.SrcOff += from * q.SrcStrides[0]
			f(part, &c)
		}
		if stream {
			StoreFence()
		}
		return c.Err
	})
}

// copyChunk is the most elements Plan.parallel hands f at once when
// the run can be cancelled (1M: a few milliseconds of copying), unless one
// index of the outermost axis holds more.
const copyChunk = 1 << 20

// stridedCopy is the kernel of Plan for one element type; with stream
// (numbers only) the tiled transpose writes with streaming stores. It
// stops early when c says the run is cancelled.
func stridedCopy[E any](dst, src []E, p Plan, stream bool, c *poll.Canceller) {
	r := len(p.Shape)
	if r == 0 {
		dst[p.DstOff] = src[p.SrcOff]
		return
	}
	if k := repeatedBlock(p, int(unsafe.Sizeof(*new(E)))); k >= 0 {
		replicateBlocks(dst, src, p, k, stream, c)
		return
	}
	last := r - 1
	n, ds, ss := p.Shape[last], p.DstStrides[last], p.SrcStrides[last]
	if r >= 2 && ds == 1 && ss != 1 {
		// A transpose: find the axis the source walks contiguously and
		// copy in tiles, so both sides stay in cache. A short such axis
		// (SpaceToDepth's block, an image's 3 channels) makes tiles of a
		// few rows: one pass reads the source in order and fills those
		// output rows together, where row by row every output row would
		// read the source again with a stride.
		for j := last - 1; j >= 0; j-- {
			if p.SrcStrides[j] == 1 && p.Shape[j] >= 2 && n >= 8 {
				tiledTranspose(dst, src, p, j, stream, c)
				return
			}
		}
	}
	if r >= 2 && ss == 1 && p.DstStrides[last-1] == 1 && ds == p.Shape[last-1] {
		interleaveRows(dst, src, p, c)
		return
	}
	var e E
	size := int(unsafe.Sizeof(e))
	dp, sp := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src))
	dStep, sStep := size*ds, size*ss
	evens := size == 4 && ds == 1 && ss == 2
	// The axis outside the rows is a loop of its own, and the walker moves
	// over the axes outside it: short rows (Tile's and Concat's 56 floats)
	// would otherwise spend a third of their time in the walker.
	m, dm, sm := 1, 0, 0
	outer := last
	if last >= 1 {
		outer = last - 1
		m, dm, sm = p.Shape[outer], p.DstStrides[outer], p.SrcStrides[outer]
	}
	w := newOffsetWalker(p.Shape[:outer], p.DstStrides[:outer], p.SrcStrides[:outer], p.DstOff, p.SrcOff)
	for {
		d, s := w.dst, w.src
		switch {
		case ds == 1 && ss == 1:
			for range m {
				copy(dst[d:d+n], src[s:s+n])
				d, s = d+dm, s+sm
			}
		case ds == 1 && ss == 0:
			for range m {
				v := src[s]
				row := dst[d : d+n]
				for i := range row {
					row[i] = v
				}
				d, s = d+dm, s+sm
			}
		case evens:
			// Every other element of 4-byte rows (Slice with step 2): four
			// at a time in SSE registers on amd64, the rest one by one.
			for range m {
				k := pickEven(unsafe.Add(dp, size*d), unsafe.Add(sp, size*s), n)
				dd, so := size*(d+k), size*(s+2*k)
				for range n - k {
					*(*E)(unsafe.Add(dp, dd)) = *(*E)(unsafe.Add(sp, so))
					dd += dStep
					so += sStep
				}
				d, s = d+dm, s+sm
			}
		default:
			// A strided row (an interleave, a de-interleave, a reversed
			// or broadcast axis): byte offsets, no bounds check per
			// element; run has checked the plan's bounds.
			for range m {
				dd, so := size*d, size*s
				for range n {
					*(*E)(unsafe.Add(dp, dd)) = *(*E)(unsafe.Add(sp, so))
					dd += dStep
					so += sStep
				}
				d, s = d+dm, s+sm
			}
		}
		if c.Stop(m*n) || !w.next() {
			return
		}
	}
}

// replicateMax is the largest block, in bytes, that replicateBlocks copies
// from the output it has just written: it is still in the core's cache
// (L2), where a larger one would be read back from memory, costing what
// writing it again from the source costs.
const replicateMax = 256 << 10

// repeatedBlock returns the outermost axis k of p that repeats a block
// (source stride 0, more than one index) whose inner axes fill a
// contiguous run of the destination (row-major, stride DstStrides[k]) of
// at most replicateMax bytes, the block not a single element; -1 if none.
// Tile's and Expand's repeats are such axes.
func repeatedBlock(p Plan, size int) int {
	r := len(p.Shape)
	if r < 2 || p.DstStrides[r-1] != 1 {
		return -1
	}
	found := -1
	block := p.Shape[r-1] // the destination run of the axes inside k
	for k := r - 2; k >= 0 && p.DstStrides[k] == block && block*size <= replicateMax; k-- {
		if p.SrcStrides[k] == 0 && p.Shape[k] > 1 {
			found = k
		}
		block *= p.Shape[k]
	}
	return found
}

// replicateBlocks copies a plan whose axis k repeats a contiguous block of
// the destination (repeatedBlock): for each index of the axes outside k,
// the axes inside it write the first block from the source, and the other
// Shape[k]-1 are copies of the output already written, doubling: 1, 2, 4...
// blocks, a few long memmoves from the cache in place of one short copy per
// source row (Expand's 112-float rows 112 times over; Tile's blocks).
func replicateBlocks[E any](dst, src []E, p Plan, k int, stream bool, c *poll.Canceller) {
	inner := Plan{Shape: p.Shape[k+1:], DstStrides: p.DstStrides[k+1:], SrcStrides: p.SrcStrides[k+1:]}
	block := p.DstStrides[k]
	total := block * p.Shape[k]
	if k >= 1 && len(inner.Shape) == 1 && inner.SrcStrides[0] == 1 && total <= 256 {
		// Short rows repeated (Tile's 16-float rows twice over): the axis
		// outside k is a loop of its own, as in stridedCopy, so that the
		// walker and the poll run once per group of rows.
		m, dm, sm := p.Shape[k-1], p.DstStrides[k-1], p.SrcStrides[k-1]
		w := newOffsetWalker(p.Shape[:k-1], p.DstStrides[:k-1], p.SrcStrides[:k-1], p.DstOff, p.SrcOff)
		for {
			d, s := w.dst, w.src
			for range m {
				out := dst[d : d+total]
				copy(out[:block], src[s:s+block])
				for done := block; done < total; {
					done += copy(out[done:], out[:done])
				}
				d, s = d+dm, s+sm
			}
			if c.Stop(m*total) || !w.next() {
				return
			}
		}
	}
	w := newOffsetWalker(p.Shape[:k], p.DstStrides[:k], p.SrcStrides[:k], p.DstOff, p.SrcOff)
	for {
		out := dst[w.dst : w.dst+total]
		if len(inner.Shape) == 1 && inner.SrcStrides[0] == 1 {
			copy(out[:block], src[w.src:w.src+block]) // a row
		} else {
			inner.DstOff, inner.SrcOff = w.dst, w.src
			stridedCopy(dst, src, inner, stream, c)
		}
		for done := block; done < total; {
			done += copy(out[done:], out[:done])
		}
		if c.Err != nil || c.Stop(total) || !w.next() {
			return
		}
	}
}

// interleaveRows copies a plan whose last two axes interleave f source
// rows element by element: axis last-1 picks the row (destination stride 1,
// source stride S between the rows), axis last walks the rows (destination
// stride f, source stride 1), so that
//
//	dst[i*f + k] = src[k*S + i]
//
// DepthToSpace's blocks come in this shape, and with S = 0 nearest Resize
// and Upsample by an integer factor, which repeat each element f times.
// Each output line is written in one pass, element after element, pairs
// (f = 2) as one store of two elements; walked as a plan, it took f passes
// of stores f elements apart (nearest 2x: 2.81 -> 0.72 ms, DepthToSpace
// DCR by 2: 1.76 -> 0.94 ms).
func interleaveRows[E any](dst, src []E, p Plan, c *poll.Canceller) {
	last := len(p.Shape) - 1
	n, f, gap := p.Shape[last], p.Shape[last-1], p.SrcStrides[last-1]
	line := n * f
	// The axis outside the lines is a loop of its own, as in stridedCopy,
	// and the walker moves over the axes outside it: a small image's lines
	// (nearest 2x of 16x16: 16 elements) spent a third of their time in
	// the walker and the poll.
	m, dm, sm := 1, 0, 0
	outer := last - 1
	if outer >= 1 {
		outer--
		m, dm, sm = p.Shape[outer], p.DstStrides[outer], p.SrcStrides[outer]
	}
	w := newOffsetWalker(p.Shape[:outer], p.DstStrides[:outer], p.SrcStrides[:outer], p.DstOff, p.SrcOff)
	for {
		d, s := w.dst, w.src
		interleaveLine(dst[d:d+line], src, s, n, f, gap)
		for range m - 1 {
			if d += dm; sm == 0 {
				// The same source line again (source stride 0: nearest's
				// rows repeated): a copy of the line just written, still in
				// the cache.
				copy(dst[d:d+line], dst[d-dm:d-dm+line])
				continue
			}
			s += sm
			interleaveLine(dst[d:d+line], src, s, n, f, gap)
		}
		if c.Stop(m*line) || !w.next() {
			return
		}
	}
}

// interleaveLine writes one line of interleaveRows: out[i*f+k] =
// src[s+k*gap+i] for i < n, k < f.
func interleaveLine[E any](out, src []E, s, n, f, gap int) {
	var e E
	switch a := src[s : s+n]; {
	case f == 2 && gap == 0 && unsafe.Sizeof(e) == 4:
		// Four-byte elements: eight a step in vector registers
		// (pairs32), the rest one by one.
		words := unsafe.Slice((*uint32)(unsafe.Pointer(&a[0])), n)
		pairs := unsafe.Slice((*[2]uint32)(unsafe.Pointer(&out[0])), n)
		for i := pairs32(unsafe.Slice(&pairs[0][0], 2*n), words); i < n; i++ {
			pairs[i] = [2]uint32{words[i], words[i]}
		}
	case f == 2 && gap == 0:
		pairs := unsafe.Slice((*[2]E)(unsafe.Pointer(&out[0])), n)
		for i, v := range a {
			pairs[i] = [2]E{v, v}
		}
	case f == 2:
		pairs := unsafe.Slice((*[2]E)(unsafe.Pointer(&out[0])), n)
		b := src[s+gap : s+gap+n]
		for i, v := range a {
			pairs[i] = [2]E{v, b[i]}
		}
	case f == 4:
		// Four rows a step, one store of four elements (NCHW -> NHWC of
		// four channels: 1.5 ns an element as the loop below).
		b, c, d := src[s+gap:s+gap+n], src[s+2*gap:s+2*gap+n], src[s+3*gap:s+3*gap+n]
		quads := unsafe.Slice((*[4]E)(unsafe.Pointer(&out[0])), n)
		for i, v := range a {
			quads[i] = [4]E{v, b[i], c[i], d[i]}
		}
	case f == 3:
		b, c := src[s+gap:s+gap+n], src[s+2*gap:s+2*gap+n]
		triples := unsafe.Slice((*[3]E)(unsafe.Pointer(&out[0])), n)
		for i, v := range a {
			triples[i] = [3]E{v, b[i], c[i]}
		}
	default:
		for i := range n {
			copies := out[i*f : i*f+f]
			for k := range copies {
				copies[k] = src[s+k*gap+i]
			}
		}
	}
}

// The tiles of tiledTranspose: tileRows source-contiguous rows by tileCols
// elements along the destination-contiguous axis. Few rows keep the strided
// reads to a few cache lines each; long columns let each written line fill
// (measured on NCHW<->NHWC and 2048x2048 float32: 16x64 beat 32x32 by 1.2-3x).
const (
	tileRows = 16
	tileCols = 64
)

// tiledTranspose copies a plan whose innermost axis is contiguous in dst and
// whose axis j is contiguous in src, tile by tile over those two axes. The
// tile loop uses pointer arithmetic: run has checked the plan's bounds, and
// a bounds check per element would cost a third of the time. With stream,
// the block kernels write with streaming stores. It stops early, after a
// row of tiles, when c says the run is cancelled.
func tiledTranspose[E any](dst, src []E, p Plan, j int, stream bool, c *poll.Canceller) {
	last := len(p.Shape) - 1
	nI, nJ := p.Shape[last], p.Shape[j]
	dsJ, ssI := p.DstStrides[j], p.SrcStrides[last]
	var e E
	size := int(unsafe.Sizeof(e))
	dp, sp := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src))
	// The other axes form the outer walk, in the order of the source (the
	// largest stride outermost): the tiles then read the source as one
	// stream, and their rows go out in a few streams of their own.
	// SpaceToDepth, walked in the output's order, read every other source
	// row and each image twice: 5.9 -> 2.6 ms on one core.
	// One allocation for the walk's four lists (a small transpose is
	// called per run).
	buf := make([]int, 4*last)
	outer, shape, dstStrides, srcStrides := buf[:0:last], buf[last:last:2*last], buf[2*last:2*last:3*last], buf[3*last:3*last:4*last]
	for k := 0; k < last; k++ {
		if k != j {
			outer = append(outer, k)
		}
	}
	slices.SortStableFunc(outer, func(a, b int) int {
		return cmp.Compare(max(p.SrcStrides[b], -p.SrcStrides[b]), max(p.SrcStrides[a], -p.SrcStrides[a]))
	})
	for _, k := range outer {
		shape = append(shape, p.Shape[k])
		dstStrides = append(dstStrides, p.DstStrides[k])
		srcStrides = append(srcStrides, p.SrcStrides[k])
	}
	w := newOffsetWalker(shape, dstStrides, srcStrides, p.DstOff, p.SrcOff)
	// Power-of-two strides map a tile's lines onto a few cache sets; short
	// columns keep them from evicting each other (a 2048x2048 float
	// transpose runs twice as fast). A tile of a few destination rows
	// cannot fill a set (L1s have 8 ways or more): SpaceToDepth's two rows
	// lie 784 KB apart, and rows cut in 16-element tiles took it from 0.8
	// to 1.2 ms.
	height, cols := tileRows, tileCols
	if (ssI*size)&4095 == 0 || (min(nJ, tileRows) > 8 && (dsJ*size)&4095 == 0) {
		cols = tileRows
		// Streamed destination lines take no room in the cache, so taller
		// tiles, whose source rows are read 16 elements at a time, no
		// longer evict them (2048x2048 float: 1.6 -> 1.05 ms on one core;
		// 128 and 256 rows were slower again).
		if stream {
			height = 4 * tileRows
		}
	}
	srcStep, dRow := size*ssI, size*dsJ
	// Strings hold pointers: they move one by one, never as raw words.
	blocks := blockSide(size)
	if _, isString := any(e).(string); isString {
		blocks = 0
	}
	// Two rows of 4-byte elements read from pairs (SpaceToDepth by 2, a
	// de-interleave): the pairs split in registers.
	pairs := blocks > 0 && size == 4 && nJ == 2 && ssI == 2
	// The block kernels prefetch the source of the tiles to come. When a
	// row of tiles is one tile wide (NCHW->NHWC: 64 channels), the next
	// tiles read the next lines of the same source rows, 64 rows or more
	// apart: more streams than the hardware prefetcher follows. They are
	// fetched one tile ahead, the next line of each row: on the 2-core
	// Intel Xeon VM of the benchmarks, NCHW->NHWC of [8,64,112,112] went
	// from 5.1-5.7 to 3.5-4.0 ms (minimum, one core; 5.5-6.1 -> 3.7 on
	// two), and two tiles ahead was slower than no prefetch at all: the
	// rows' lines share a few L1 sets (a row is 49 KB, 784 lines, 16 sets
	// apart), and lines fetched early evict those being read. (On the
	// earlier AMD EPYC VM two tiles ahead had measured best.) Otherwise
	// the next tile reads the next cols source rows, a line from each
	// (NHWC->NCHW: 64 rows of 256 bytes, read a line at a time): they are
	// fetched one tile ahead (1.13-1.19 -> 0.45-0.78 ms on two threads).
	pf := uintptr(cols * srcStep)
	if nI <= cols {
		pf = uintptr(height * size)
	}
	for {
		d0, s0 := w.dst, w.src
		for jb := 0; jb < nJ; jb += height {
			je := min(jb+height, nJ)
			for ib := 0; ib < nI; ib += cols {
				ie := min(ib+cols, nI)
				// Byte offsets from the base pointers, so that no pointer
				// ever steps past the last element (checkptr forbids it).
				d, s := size*(d0+jb*dsJ+ib), size*(s0+jb+ib*ssI)
				nj, ni := je-jb, ie-ib
				rows := 0
				if blocks > 0 && nj >= blocks && ni >= blocks {
					bj, bi := nj-nj%blocks, ni-ni%blocks
					transposeBlocks(size, unsafe.Add(dp, d), unsafe.Add(sp, s), uintptr(dRow), uintptr(srcStep), bj, bi, pf, stream)
					// The columns past the last block, on the blocks' rows.
					transposeRows[E](dp, sp, d+bi*size, s+bi*srcStep, dRow, srcStep, bj, ni-bi)
					rows = bj
				} else if pairs {
					k := deinterleave2(unsafe.Add(dp, d), unsafe.Add(dp, d+dRow), unsafe.Add(sp, s), ni, stream)
					transposeRows[E](dp, sp, d+k*size, s+k*srcStep, dRow, srcStep, 2, ni-k)
					rows = 2
				}
				transposeRows[E](dp, sp, d+rows*dRow, s+rows*size, dRow, srcStep, nj-rows, ni)
			}
			if c.Stop((je - jb) * nI) {
				return
			}
		}
		if !w.next() {
			return
		}
	}
}

// transposeRows copies nj x ni elements: element i of destination row jj
// (rows dRow bytes apart) is element jj of source row i (rows sRow bytes
// apart); d and s are the byte offsets of the first element of each side.
func transposeRows[E any](dp, sp unsafe.Pointer, d, s, dRow, sRow, nj, ni int) {
	var e E
	size := int(unsafe.Sizeof(e))
	jj := 0
	// Four source-contiguous rows at a time (then two): one read of
	// neighbouring elements feeds several output rows, and the loop's own
	// arithmetic is paid once for them.
	for ; jj+4 <= nj; jj += 4 {
		dd, ss := d+jj*dRow, s+jj*size
		for range ni {
			a0 := *(*E)(unsafe.Add(sp, ss))
			a1 := *(*E)(unsafe.Add(sp, ss+size))
			a2 := *(*E)(unsafe.Add(sp, ss+2*size))
			a3 := *(*E)(unsafe.Add(sp, ss+3*size))
			*(*E)(unsafe.Add(dp, dd)) = a0
			*(*E)(unsafe.Add(dp, dd+dRow)) = a1
			*(*E)(unsafe.Add(dp, dd+2*dRow)) = a2
			*(*E)(unsafe.Add(dp, dd+3*dRow)) = a3
			dd += size
			ss += sRow
		}
	}
	if jj+2 <= nj {
		dd, ss := d+jj*dRow, s+jj*size
		for range ni {
			a0 := *(*E)(unsafe.Add(sp, ss))
			a1 := *(*E)(unsafe.Add(sp, ss+size))
			*(*E)(unsafe.Add(dp, dd)) = a0
			*(*E)(unsafe.Add(dp, dd+dRow)) = a1
			dd += size
			ss += sRow
		}
		jj += 2
	}
	for ; jj < nj; jj++ {
		dd, ss := d+jj*dRow, s+jj*size
		for range ni {
			*(*E)(unsafe.Add(dp, dd)) = *(*E)(unsafe.Add(sp, ss))
			dd += size
			ss += sRow
		}
	}
}

// span returns the lowest and highest element offsets the plan touches on
// one side.
func span(off int, shape, strides []int) (lo, hi int) {
	lo, hi = off, off
	for k, n := range shape {
		if st := strides[k] * (n - 1); st < 0 {
			lo += st
		} else {
			hi += st
		}
	}
	return lo, hi
}

// checkBounds panics if the plan would touch an element outside dst or src:
// a bug in an operator's plan must never become a write out of bounds. The
// graph runner turns the panic into an internal error.
func (q Plan) checkBounds(dstLen, srcLen int) {
	if lo, hi := span(q.DstOff, q.Shape, q.DstStrides); lo < 0 || hi >= dstLen {
		panic(fmt.Sprintf("copyPlan writes [%d, %d] outside a destination of %d elements", lo, hi, dstLen))
	}
	if lo, hi := span(q.SrcOff, q.Shape, q.SrcStrides); lo < 0 || hi >= srcLen {
		panic(fmt.Sprintf("copyPlan reads [%d, %d] outside a source of %d elements", lo, hi, srcLen))
	}
}

// NextIndex advances idx, a row-major index into shape, by one; it reports
// false when idx wraps around past the last index.
func NextIndex(idx, shape []int) bool {
	for k := len(idx) - 1; k >= 0; k-- {
		idx[k]++
		if idx[k] < shape[k] {
			return true
		}
		idx[k] = 0
	}
	return false
}

// offsetWalker walks the indices of a shape in row-major order and keeps
// the element offsets of a destination and a source in step, incrementally:
// the N-d index walk of every strided loop.
type offsetWalker struct {
	Shape, idx             []int
	DstStrides, SrcStrides []int
	dst, src               int // the offsets of the current index
}

func newOffsetWalker(shape, dstStrides, srcStrides []int, dstOff, srcOff int) *offsetWalker {
	return &offsetWalker{Shape: shape, idx: make([]int, len(shape)),
		DstStrides: dstStrides, SrcStrides: srcStrides, dst: dstOff, src: srcOff}
}

// next moves to the following index; it reports false after the last one.
func (w *offsetWalker) next() bool {
	for k := len(w.idx) - 1; k >= 0; k-- {
		w.idx[k]++
		w.dst += w.DstStrides[k]
		w.src += w.SrcStrides[k]
		if w.idx[k] < w.Shape[k] {
			return true
		}
		w.dst -= w.DstStrides[k] * w.Shape[k]
		w.src -= w.SrcStrides[k] * w.Shape[k]
		w.idx[k] = 0
	}
	return false
}
