package conv

import (
	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

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
	tiled, th, tw, kh, kw := exactTiles(s)
	if !tiled {
		if err := fillBias(y, b, s.N, s.M, pout); err != nil {
			return err
		}
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
			if err := gemmF(wc.gemm(wc.Threads), rows, cols, cg, wt[g*cg*rows:], cg, xg[p0:], pin, col, cols, gemm.Finish{}); err != nil {
				return err
			}
			for m := range mg {
				if tiled {
					var bias T
					if b != nil {
						bias = b[g*mg+m]
					}
					place(yg[m*pout:(m+1)*pout], col[m*kprod*cols:], cols, p0, p1, th, tw, kh, kw, bias)
					continue
				}
				scatter(yg[m*pout:(m+1)*pout], col[m*kprod*cols:], cols, win, p0, p1)
			}
		}
		return nil
	})
}

// exactTiles reports whether the taps of a 1-D or 2-D transposed
// convolution tile its image exactly, each output element the tap of one
// input position: strides equal to the kernel, no dilation, no padding,
// the image the grid times the kernel (ConvTranspose 2x2 stride 2, the
// upsampling of a U-Net). It returns the grid's and the kernel's height and
// width (height 1 for 1-D).
func exactTiles(s Shape) (ok bool, gh, gw, kh, kw int) {
	r := len(s.Kernel)
	if r < 1 || r > 2 || scatterOnly {
		return false, 0, 0, 0, 0
	}
	for a := range r {
		if s.Stride[a] != s.Kernel[a] || s.Dilation[a] != 1 || s.Pad[a] != 0 || s.Image[a] != s.Grid[a]*s.Kernel[a] {
			return false, 0, 0, 0, 0
		}
	}
	gh, kh = 1, 1
	if r == 2 {
		gh, kh = s.Grid[0], s.Kernel[0]
	}
	return true, gh, s.Grid[r-1], kh, s.Kernel[r-1]
}

// scatterOnly, set by tests, has every transposed convolution scatter,
// the general path place is checked against.
var scatterOnly bool

// place writes the image dst of one output channel from its col2im rows
// (row r*kw+q, stride ld, for input positions [p0, p1) of a gh x gw grid)
// when the taps tile the image exactly (exactTiles): each output element
// is bias plus its one tap's value, the sum scatter makes after fillBias,
// written in order rather than added in place.
func place[T Float](dst, col []T, ld, p0, p1, gh, gw, kh, kw int, bias T) {
	iw := gw * kw
	for p := p0; p < p1; {
		i, j0 := p/gw, p%gw
		q := min(p1, p-j0+gw)
		n := q - p
		for r := range kh {
			out := dst[(i*kh+r)*iw+j0*kw : (i*kh+r)*iw+(j0+n)*kw]
			if kw == 2 {
				a, c := col[(r*2)*ld+p-p0:][:n], col[(r*2+1)*ld+p-p0:][:n]
				for j := range n {
					out[2*j] = bias + a[j]
					out[2*j+1] = bias + c[j]
				}
				continue
			}
			for q := range kw {
				src := col[(r*kw+q)*ld+p-p0:][:n]
				for j, v := range src {
					out[j*kw+q] = bias + v
				}
			}
		}
		p = q
	}
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
