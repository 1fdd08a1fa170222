package conv

import (
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// The finish of a product's output rows (the pointwise path's): each row
// gets its output channel's bias and then the epilogue in one visit, while
// the row is in the cache, instead of a pass adding every bias and a second
// applying the epilogue (a 1x1 convolution's output, 112x112 positions by
// 96 channels, is larger than the cache: each pass went to memory), the
// additions by the elementwise engine's vector loop (the same bits as
// y += b, one rounding each), and the rows split across the cores the
// product used.

// finishRows adds b[m0+i] (when b is not nil) to columns [p0, p1) of row
// i of the mg rows of yg (row stride ld) and applies the epilogue to them
// right after, on threads cores; the context is checked between pieces of
// rows. The rows go by blocks of about finishBlock elements (in L1): the
// bias by the vector add over the whole block (addBias: one call, not one
// per row, which cost more than the adds on 7x7 and 14x14 maps), then the
// epilogue over the block in one call when its rows are contiguous
// (p0 == 0 and p1 == ld), else row by row. Each element still gets
// y += b (one rounding) and then the epilogue: the same bits.
func finishRows[T Float](cfg Config, threads int, yg, b []T, m0, mg, ld, p0, p1 int) error {
	if b == nil && cfg.Epilogue32 == nil && cfg.Epilogue64 == nil {
		return nil
	}
	cols := p1 - p0
	if cols <= 0 {
		return nil
	}
	whole := p0 == 0 && p1 == ld
	block := max(1, finishBlock/cols)
	return parallel.Range(cfg.Ctx, threads, mg, mg*cols, func(lo, hi int) error {
		for r := lo; r < hi; r += block {
			rows := min(block, hi-r)
			yr := yg[r*ld:]
			addBias(yr, b, m0+r, rows, ld, p0, p1)
			if whole {
				epilogue(cfg, yr[:rows*ld])
			} else {
				epilogueRows(cfg, yr, rows, ld, p0, p1)
			}
		}
		return nil
	})
}

// finishBlock is the elements finishRows takes in one visit: 16 KiB of
// float32, well inside L1 with room for the epilogue's other operand.
const finishBlock = 4096
