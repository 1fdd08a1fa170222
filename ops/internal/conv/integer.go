package conv

import "github.com/onnxshape/onnxshape/ops/internal/gemm"

// Integer computes y (N x M x Grid, int32) = the convolution of (x - xZero)
// with (w - wZero), x being N x C x Image and w M x C/Group x Kernel, both
// 8-bit (signed or not as xSigned and wSigned say), wZero holding one zero
// point or one per output channel; sums wrap as int32 does. A tap in the
// padding reads xZero, so it adds nothing, as padding with a real 0 does.
func Integer(cfg Config, s Shape, x []byte, xSigned bool, xZero byte, w []byte, wSigned bool, wZero []int32, y []int32) error {
	cg, mg := s.C/s.Group, s.M/s.Group
	kprod := prod(s.Kernel)
	k := cg * kprod
	pin, pout := prod(s.Image), prod(s.Grid)
	if len(y) == 0 {
		return nil
	}
	if k == 0 {
		clear(y)
		return nil
	}
	xz, rowZero := integerZeros(xZero, xSigned, wZero, mg)
	// gemm.Integer's A is the weights (one zero point per row: per output
	// channel) and B the columns (one zero point: the image's).
	t := TileColumns(k, 1, pout)
	if pointwise(s) {
		t = 0
	}
	tiles := 1
	if t > 0 {
		tiles = (pout + t - 1) / t
	}
	win := window{image: s.Image, grid: s.Grid, kernel: s.Kernel, stride: s.Stride, dilation: s.Dilation, pad: s.Pad}
	return split[byte](cfg, s.N*s.Group*tiles, s.N*s.M*pout*max(1, k/8), k*t, 1, func(item int, col []byte, wc Config) error {
		tile := item % tiles
		ng := item / tiles
		n, g := ng/s.Group, ng%s.Group
		yg := y[(n*s.M+g*mg)*pout:]
		gc := wc.gemm(wc.Threads)
		xg := x[(n*s.C+g*cg)*pin:]
		if t == 0 {
			return gemm.Integer(gc, mg, pout, cg, w[g*mg*k:], wSigned, k, rowZero(g), xg, xSigned, pin, []int32{xz}, yg, pout)
		}
		p0 := tile * t
		p1 := min(pout, p0+t)
		cols := p1 - p0
		for c := range cg {
			gather(col[c*kprod*cols:], cols, xg[c*pin:(c+1)*pin], win, p0, p1, xZero)
		}
		return gemm.Integer(gc, mg, cols, k, w[g*mg*k:], wSigned, k, rowZero(g), col, xSigned, cols, []int32{xz}, yg[p0:], pout)
	})
}

// IntegerScratchBytes is ScratchBytes for Integer.
func IntegerScratchBytes(s Shape, threads int) int64 {
	if pointwise(s) {
		return 0
	}
	k := s.C / max(s.Group, 1) * prod(s.Kernel)
	t := TileColumns(k, 1, prod(s.Grid))
	return int64(max(threads, 1)) * int64(k) * int64(t)
}

// integerZeros returns the image's zero point as the kernel reads it
// (sign-extended when the image is int8) and, for group g, the weights'
// zero points of its mg output channels (one for all when per tensor).
func integerZeros(xZero byte, xSigned bool, wZero []int32, mg int) (int32, func(g int) []int32) {
	xz := int32(xZero)
	if xSigned {
		xz = int32(int8(xZero))
	}
	return xz, func(g int) []int32 {
		if len(wZero) <= 1 {
			return wZero
		}
		return wZero[g*mg : (g+1)*mg]
	}
}
