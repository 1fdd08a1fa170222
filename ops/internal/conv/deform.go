package conv

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
)

// Deform computes the deformable convolution of x (N x C x H x W) with w
// (M x C/Group x kH x kW) over two spatial axes: tap (i, j) of window
// position (h, v) reads x bilinearly at (h*sH - pH + i*dH + offset_h,
// v*sW - pW + j*dW + offset_w), the four neighbours outside the image
// counting as 0, times mask (1 when mask is nil), and the products sum
// with b (or nil) as in Forward. offset is N x offsetGroups*kH*kW*2 x Grid
// (per group of C/offsetGroups channels, per tap, the h then the w
// offset), mask N x offsetGroups*kH*kW x Grid.
func Deform[T Float](cfg Config, s Shape, offsetGroups int, x, w, offset, mask, b, y []T) error {
	var zero T
	size := int(sizeOf(zero))
	cg, mg := s.C/s.Group, s.M/s.Group
	kh, kw := s.Kernel[0], s.Kernel[1]
	kprod := kh * kw
	k := cg * kprod
	ih, iw := s.Image[0], s.Image[1]
	oh, ow := s.Grid[0], s.Grid[1]
	pin, pout := ih*iw, oh*ow
	if len(y) == 0 {
		return nil
	}
	if k == 0 {
		return fillBias(y, b, s.N, s.M, pout)
	}
	perOffset := s.C / offsetGroups
	t := TileColumns(k, size, pout)
	tiles := (pout + t - 1) / t
	return split[T](cfg, s.N*s.Group*tiles, s.N*s.M*pout*max(1, k/8)*4, k*t, size, func(item int, col []T, wc Config) error {
		tile := item % tiles
		ng := item / tiles
		n, g := ng/s.Group, ng%s.Group
		p0 := tile * t
		p1 := min(pout, p0+t)
		cols := p1 - p0
		for c := range cg {
			ch := g*cg + c
			og := ch / perOffset
			xc := x[(n*s.C+ch)*pin : (n*s.C+ch+1)*pin]
			for tap := range kprod {
				i, j := tap/kw, tap%kw
				row := col[(c*kprod+tap)*cols : (c*kprod+tap+1)*cols]
				offH := offset[((n*offsetGroups+og)*kprod+tap)*2*pout:]
				offW := offH[pout:]
				var m []T
				if mask != nil {
					m = mask[((n*offsetGroups+og)*kprod+tap)*pout:]
				}
				for p := p0; p < p1; p++ {
					h := float64((p/ow)*s.Stride[0]-s.Pad[0]+i*s.Dilation[0]) + float64(offH[p])
					v := float64((p%ow)*s.Stride[1]-s.Pad[1]+j*s.Dilation[1]) + float64(offW[p])
					val := bilinear(xc, ih, iw, h, v)
					if m != nil {
						val *= m[p]
					}
					row[p-p0] = val
				}
			}
		}
		yg := y[(n*s.M+g*mg)*pout:]
		if err := gemmF(wc.gemm(wc.Threads), mg, cols, k, w[g*mg*k:], k, col, cols, yg[p0:], pout, gemm.Finish{}); err != nil {
			return err
		}
		addBias(yg, b, g*mg, mg, pout, p0, p1)
		return nil
	})
}

// bilinear samples plane (ih x iw) at (h, v): the four neighbours weighted
// by their nearness, those outside the plane counting as 0.
func bilinear[T Float](plane []T, ih, iw int, h, v float64) T {
	if math.IsNaN(h) || math.IsNaN(v) || h <= -1 || v <= -1 || h >= float64(ih) || v >= float64(iw) {
		if math.IsNaN(h) || math.IsNaN(v) {
			return T(math.NaN())
		}
		return 0
	}
	h0, v0 := math.Floor(h), math.Floor(v)
	fh, fv := T(h-h0), T(v-v0)
	r0, c0 := int(h0), int(v0)
	at := func(r, c int) T {
		if r < 0 || c < 0 || r >= ih || c >= iw {
			return 0
		}
		return plane[r*iw+c]
	}
	return (1-fh)*((1-fv)*at(r0, c0)+fv*at(r0, c0+1)) + fh*((1-fv)*at(r0+1, c0)+fv*at(r0+1, c0+1))
}

// DeformScratchBytes is ScratchBytes for Deform.
func DeformScratchBytes(s Shape, size, threads int) int64 {
	k := s.C / max(s.Group, 1) * prod(s.Kernel)
	t := TileColumns(k, size, prod(s.Grid))
	return int64(max(threads, 1)) * int64(k) * int64(t) * int64(size)
}
