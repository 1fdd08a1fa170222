package conv

import (
	"errors"
	"sync"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// The projection of a squeeze-and-excitation block (EfficientNet,
// MobileNetV3), float32: a 1x1 convolution of X*S, X the depthwise
// convolution's output (N x C x H x W) and S the excitation's scale of its
// channels (N x C x 1 x 1). Run as the graph writes it, the Mul writes X*S
// (1-2 MB on the large planes) to memory and the projection reads it back;
// run here, a band of positions at a time, the band of X is scaled into a
// buffer that stays in L2 and multiplied there: one pass over X, none over
// X*S.
//
// Each element of X*S is the Mul's own product (the caller's Scale, the
// Mul's float32 loop); each output element is the pointwise path's sum
// over the channels for its position, which does not depend on the other
// positions of the product (see block.go): the same bits as the Mul and
// the Conv one after the other.

// Scale is o[i] = a[i] * s rounded once, in the operand order of the
// Mul a fused scale replaces.
type Scale func(o, a []float32, s float32)

// scaledBandBytes is the bytes a worker's scaled band aims at.
var scaledBandBytes = 256 << 10

// ScaledFits reports whether ScaledPointwise32 runs project: a 1x1
// stride-1 unpadded convolution of one group over two spatial axes.
func ScaledFits(project Shape) bool {
	return len(project.Kernel) == 2 && pointwise(project) && project.Group == 1
}

// scaledPlan is how ScaledPointwise32 cuts the positions of an image: runs
// of cols positions (a multiple of 16 but the last), items in all, and
// the workers that run them.
func scaledPlan(project Shape, threads int) (cols, runs, workers int) {
	p := prod(project.Image)
	cols = max(16, scaledBandBytes/4/max(project.C, 1)) &^ 15
	// As many items as cores, when there are fewer images.
	if t := max(threads, 1); t > project.N {
		split := (t + project.N - 1) / project.N
		if per := (p + split - 1) / split; per < cols {
			cols = max(16, (per+15)&^15)
		}
	}
	cols = min(cols, p)
	runs = (p + cols - 1) / cols
	workers = max(1, min(max(threads, 1), project.N*runs))
	return cols, runs, workers
}

// ScaledScratchBytes is the bytes ScaledPointwise32 charges for its band
// buffers on threads cores, besides what the product charges.
func ScaledScratchBytes(project Shape, threads int) int64 {
	cols, _, workers := scaledPlan(project, threads)
	return int64(workers) * int64(project.C) * int64(cols) * 4
}

// ScaledPointwise32 computes y (N x M x H x W), project (ScaledFits) on
// x*s, x N x C x H x W and s the N x C scales, with st's weights, bias and
// epilogue: the same bits as mul's products followed by Forward.
func ScaledPointwise32(cfg Config, project Shape, x, s []float32, mul Scale, st BlockStage, y []float32) error {
	if !ScaledFits(project) || mul == nil {
		return errors.New("conv: not a pointwise projection")
	}
	c, m, p := project.C, project.M, prod(project.Image)
	cols, runs, workers := scaledPlan(project, cfg.threads())
	if err := cfg.charge(int64(workers) * int64(c) * int64(cols) * 4); err != nil {
		return err
	}
	work := project.N * m * c * p
	// The products charge their scratch on every worker (as blockBands):
	// through a lock.
	if charge := cfg.Charge; charge != nil && workers > 1 {
		var mu sync.Mutex
		cfg.Charge = func(bytes int64) error {
			mu.Lock()
			defer mu.Unlock()
			return charge(bytes)
		}
	}
	return parallel.RangeW(cfg.Ctx, workers, project.N*runs, work, func(wk, lo, hi int) error {
		buf := getBlockBuf(c * cols)
		defer putBlockBuf(buf)
		wc := cfg
		wc.Threads, wc.Scratch = 1, cfg.Scratch.Slot(wk)
		for it := lo; it < hi; it++ {
			if err := wc.err(); err != nil {
				return err
			}
			n, r := it/runs, it%runs
			p0, p1 := r*cols, min(p, (r+1)*cols)
			k := p1 - p0
			xn, sn := x[n*c*p:(n+1)*c*p], s[n*c:(n+1)*c]
			band := (*buf)[:c*k]
			for ch := range c {
				mul(band[ch*k:(ch+1)*k], xn[ch*p+p0:ch*p+p1], sn[ch])
			}
			if err := blockPointwise(wc, st, m, c, k, band, k, y[n*m*p+p0:], p); err != nil {
				return err
			}
		}
		return nil
	})
}
