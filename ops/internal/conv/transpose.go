package conv

import "github.com/onnxshape/onnxshape/ops/internal/parallel"

// Transpose computes y (N x M x Image) = the transposed convolution of x
// (N x C x Grid) with w (C x M/Group x Kernel), plus b (M values, or nil):
// each input position adds its value times the kernel onto the image
// window it names. Per image and group, a tile of input positions at a
// time, the product W_g^T (M/Group*kernel x C/Group) times the tile gives
// the columns, and scatter adds them onto the output.
func Transpose[T Float](cfg Config, s Shape, x, w, b, y []T) error {
	var zero T
	size := int(sizeOf(zero))
	cg, mg := s.C/s.Group, s.M/s.Group
	kprod := prod(s.Kernel)
	rows := mg * kprod
	pin, pout := prod(s.Grid), prod(s.Image)
	if len(y) == 0 {
		return nil
	}
	if err := fillBias(y, b, s.N, s.M, pout); err != nil {
		return err
	}
	if rows == 0 || pin == 0 || cg == 0 {
		return nil
	}
	// W_g^T, rows x C/Group per group, so that the products read their
	// first operand row by row.
	if err := cfg.charge(int64(len(w)) * int64(size)); err != nil {
		return err
	}
	wt := make([]T, s.Group*rows*cg)
	for g := range s.Group {
		src, dst := w[g*cg*rows:(g+1)*cg*rows], wt[g*cg*rows:(g+1)*cg*rows]
		for c := range cg {
			for r := range rows {
				dst[r*cg+c] = src[c*rows+r]
			}
		}
	}
	t := TileColumns(rows, size, pin)
	tiles := (pin + t - 1) / t
	win := window{image: s.Image, grid: s.Grid, kernel: s.Kernel, stride: s.Stride, dilation: s.Dilation, pad: s.Pad}
	// Tiles of one image and group scatter onto the same outputs: the
	// items are images and groups, the tiles run in order inside each.
	return split[T](cfg, s.N*s.Group, s.N*s.C*pin*max(1, rows/8), rows*t, size, func(item int, col []T, wc Config) error {
		n, g := item/s.Group, item%s.Group
		xg := x[(n*s.C+g*cg)*pin:]
		yg := y[(n*s.M+g*mg)*pout:]
		for tile := range tiles {
			if err := cfg.err(); err != nil {
				return err
			}
			p0 := tile * t
			p1 := min(pin, p0+t)
			cols := p1 - p0
			if err := gemmF(wc.gemm(wc.Threads), rows, cols, cg, wt[g*cg*rows:], cg, xg[p0:], pin, col, cols); err != nil {
				return err
			}
			for m := range mg {
				scatter(yg[m*pout:(m+1)*pout], col[m*kprod*cols:], cols, win, p0, p1)
			}
		}
		return nil
	})
}

// TransposeScratchBytes is ScratchBytes for Transpose.
func TransposeScratchBytes(s Shape, size, threads int) int64 {
	rows := s.M / max(s.Group, 1) * prod(s.Kernel)
	t := TileColumns(rows, size, prod(s.Grid))
	w := int64(s.C) * int64(rows)
	return (int64(max(threads, 1))*int64(rows)*int64(t) + w) * int64(size)
}

// Col2Im adds the columns x (N x C*Kernel x positions of Grid) onto the
// images y (N x C x Image), which it first clears: column entry (c, t, p)
// goes to the image element that window position p's tap t covers, and
// nowhere when that falls in the padding; integers wrap. It allocates
// nothing.
func Col2Im[T Number](cfg Config, s Shape, x, y []T) error {
	kprod := prod(s.Kernel)
	pin, pout := prod(s.Grid), prod(s.Image)
	clear(y)
	if pin == 0 || kprod == 0 || pout == 0 {
		return nil
	}
	win := window{image: s.Image, grid: s.Grid, kernel: s.Kernel, stride: s.Stride, dilation: s.Dilation, pad: s.Pad}
	planes := s.N * s.C
	return parallel.Range(cfg.Ctx, cfg.threads(), planes, planes*kprod*pin, func(lo, hi int) error {
		for plane := lo; plane < hi; plane++ {
			if err := cfg.err(); err != nil {
				return err
			}
			scatter(y[plane*pout:(plane+1)*pout], x[plane*kprod*pin:], pin, win, 0, pin)
		}
		return nil
	})
}
