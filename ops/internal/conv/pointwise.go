package conv

import (
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
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

// addRight32 and addRight64 are Add's loops with the right operand a
// scalar: the AVX loop for the bulk of a span where there is one.
var (
	addRight32 = elementwise.Vectorized("Add", elementwise.Binary(func(a, b float32) float32 { return a + b })).Right
	addRight64 = elementwise.Vectorized("Add", elementwise.Binary(func(a, b float64) float64 { return a + b })).Right
)

// addScalar adds v to every element of row in place.
func addScalar[T Float](row []T, v T) {
	switch r := any(row).(type) {
	case []float32:
		addRight32(r, r, any(v).(float32))
	case []float64:
		addRight64(r, r, any(v).(float64))
	}
}

// finishRows adds b[m0+i] (when b is not nil) to columns [p0, p1) of row
// i of the mg rows of yg (row stride ld) and applies the epilogue to them
// right after, row by row, on threads cores; the context is checked
// between pieces of rows.
func finishRows[T Float](cfg Config, threads int, yg, b []T, m0, mg, ld, p0, p1 int) error {
	if b == nil && cfg.Epilogue32 == nil && cfg.Epilogue64 == nil {
		return nil
	}
	return parallel.Range(cfg.Ctx, threads, mg, mg*(p1-p0), func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			row := yg[i*ld+p0 : i*ld+p1]
			if b != nil {
				addScalar(row, b[m0+i])
			}
			epilogue(cfg, row)
		}
		return nil
	})
}
