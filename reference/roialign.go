// RoiAlign (10, 16, 22), after the ONNX specification ("Region of Interest
// (RoI) align operation described in the Mask R-CNN paper") and its
// reference evaluator, op_roi_align.py: for roi r = [x1, y1, x2, y2]
// (times spatial_scale, minus 0.5 under coordinate_transformation_mode
// half_pixel, the default from 16; version 10 is output_half_pixel, where
// a roi is at least 1 x 1), bin (ph, pw) of output_height x
// output_width samples a grid of sampling_ratio points a side (or
// ceil(roi size / bins) when 0) at start + p*bin + (i + 0.5)*bin/grid,
// each bilinearly from its four neighbours (y and x clamped to 0, the high
// neighbour to the last pixel; a point below -1 or past the image reads
// zero weights). mode avg sums w1*v1 + w2*v2 + w3*v3 + w4*v4 over the grid
// and divides by the grid's size (at least 1); mode max keeps the largest
// of max(w1*v1, w2*v2, w3*v3, w4*v4) over the grid (Python's max: a later
// value wins only when greater). Computed in float64, rounded once;
// rois with a NaN or infinite coordinate, batch indices outside X and
// grids beyond the run's cap are refused.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("RoiAlign", []int{10, 16, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "X")
		if err != nil {
			return nil, err
		}
		rois, err := requiredInput(op, in, 1, "rois")
		if err != nil {
			return nil, err
		}
		bi, err := requiredInput(op, in, 2, "batch_indices")
		if err != nil {
			return nil, err
		}
		dt := x.DataType()
		if !convFloatType(n.Version, dt) || rois.DataType() != dt || bi.DataType() != tensor.Int64 {
			return nil, op.errorf("type", "X %v, rois %v, batch_indices %v", dt, rois.DataType(), bi.DataType())
		}
		halfPixel := false
		if n.Version >= 16 {
			m, err := n.Str("coordinate_transformation_mode", "half_pixel")
			if err != nil {
				return nil, err
			}
			if m != "half_pixel" && m != "output_half_pixel" {
				return nil, op.errorf("coordinate_transformation_mode", "%q", m)
			}
			halfPixel = m == "half_pixel"
		}
		mode, err := n.Str("mode", "avg")
		if err != nil {
			return nil, err
		}
		if mode != "avg" && mode != "max" {
			return nil, op.errorf("mode", "%q", mode)
		}
		outH, err := intAttr(n, "output_height", 1, "output_height")
		if err != nil {
			return nil, err
		}
		if outH < 1 || outH > maxPoolAttr {
			return nil, op.errorf("output_height", "%d", outH)
		}
		outW, err := intAttr(n, "output_width", 1, "output_width")
		if err != nil {
			return nil, err
		}
		if outW < 1 || outW > maxPoolAttr {
			return nil, op.errorf("output_width", "%d", outW)
		}
		ratio, err := intAttr(n, "sampling_ratio", 0, "sampling_ratio")
		if err != nil {
			return nil, err
		}
		if ratio < 0 || ratio > maxPoolAttr {
			return nil, op.errorf("sampling_ratio", "%d", ratio)
		}
		scale32, err := n.Float("spatial_scale", 1)
		if err != nil {
			return nil, err
		}
		scale := float64(scale32)
		xs, rs, bs := x.Shape(), rois.Shape(), bi.Shape()
		if len(xs) != 4 {
			return nil, op.errorf("input-rank", "X %v", xs)
		}
		if xs[2] < 1 || xs[3] < 1 {
			return nil, op.errorf("X", "X %v", xs)
		}
		if len(rs) != 2 || rs[1] != 4 || len(bs) != 1 || bs[0] != rs[0] {
			return nil, op.errorf("input-rank", "rois %v, batch_indices %v", rs, bs)
		}
		// The rois in float64, their batch indices and geometry (11 words a roi).
		if err := chargeScratch(opt, op, "the rois in float64, their batch indices and geometry", rs[0], 88); err != nil {
			return nil, err
		}
		bv, _ := int64sOf(bi)
		for _, b := range bv {
			if b < 0 || b >= int64(xs[0]) {
				return nil, op.errorf("batch_indices", "batch index %d", b)
			}
		}
		rv := computeElements[float64](rois)
		for _, v := range rv {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, op.errorf("rois", "coordinate %v", v)
			}
		}
		C, H, W := xs[1], xs[2], xs[3]
		type roi struct {
			startH, startW, binH, binW float64
			gridH, gridW               int
		}
		geo := make([]roi, rs[0])
		for r := range geo {
			offset := 0.0
			if halfPixel {
				offset = 0.5
			}
			startW, startH := rv[4*r]*scale-offset, rv[4*r+1]*scale-offset
			endW, endH := rv[4*r+2]*scale-offset, rv[4*r+3]*scale-offset
			roiW, roiH := endW-startW, endH-startH
			if !halfPixel {
				roiW, roiH = max(roiW, 1), max(roiH, 1)
			}
			g := roi{startH: startH, startW: startW, binH: roiH / float64(outH), binW: roiW / float64(outW), gridH: ratio, gridW: ratio}
			if ratio == 0 {
				gh, gw := math.Ceil(roiH/float64(outH)), math.Ceil(roiW/float64(outW))
				if gh > 1<<31 || gw > 1<<31 {
					return nil, op.errorf("size", "grid %v x %v", gh, gw)
				}
				g.gridH, g.gridW = max(int(gh), 0), max(int(gw), 0)
			}
			// The evaluator's table of sampling points, which the fast
			// engine holds too: refused past the per-tensor cap.
			if float64(g.gridH)*float64(g.gridW)*float64(outH*outW)*64 > float64(opt.TensorLimit()) {
				return nil, op.errorf("size", "roi %d samples %d x %d points a bin", r, g.gridH, g.gridW)
			}
			geo[r] = g
		}
		shape := []int{rs[0], C, outH, outW}
		y, err := newTensor(opt, op, dt, shape)
		if err != nil {
			return nil, err
		}
		// bilinear returns the four weighted neighbours of (yy, xx) in
		// image img, as pre_calc_for_bilinear_interpolate.
		bilinear := func(img int, yy, xx float64) [4]float64 {
			if yy < -1 || yy > float64(H) || xx < -1 || xx > float64(W) {
				z := 0 * elementAs[float64](x, img)
				return [4]float64{z, z, z, z}
			}
			yy, xx = max(yy, 0), max(xx, 0)
			yLow, xLow := int(yy), int(xx)
			yHigh, xHigh := yLow+1, xLow+1
			if yLow >= H-1 {
				yLow, yHigh, yy = H-1, H-1, float64(H-1)
			}
			if xLow >= W-1 {
				xLow, xHigh, xx = W-1, W-1, float64(W-1)
			}
			ly, lx := yy-float64(yLow), xx-float64(xLow)
			hy, hx := 1-ly, 1-lx
			at := func(i, j int) float64 { return elementAs[float64](x, img+i*W+j) }
			return [4]float64{hy * hx * at(yLow, xLow), hy * lx * at(yLow, xHigh), ly * hx * at(yHigh, xLow), ly * lx * at(yHigh, xHigh)}
		}
		stop := newPoll(opt, op)
		forEachIndexWhile(shape, func(flat int, idx []int) bool {
			r, c, ph, pw := idx[0], idx[1], idx[2], idx[3]
			g := geo[r]
			img := (int(bv[r])*C + c) * H * W
			var v float64
			first := true
			for iy := range g.gridH {
				yy := g.startH + float64(ph)*g.binH + (float64(iy)+0.5)*g.binH/float64(g.gridH)
				for ix := range g.gridW {
					xx := g.startW + float64(pw)*g.binW + (float64(ix)+0.5)*g.binW/float64(g.gridW)
					p := bilinear(img, yy, xx)
					if mode == "avg" {
						v += p[0] + p[1] + p[2] + p[3]
						continue
					}
					m := p[0]
					for _, q := range p[1:] {
						if q > m {
							m = q
						}
					}
					if first || m > v {
						v = m
					}
					first = false
				}
			}
			if mode == "avg" {
				v /= float64(max(g.gridH*g.gridW, 1))
			}
			setElementAs(y, flat, v)
			return !stop.stop(4*g.gridH*g.gridW + 1)
		})
		if stop.err != nil {
			return nil, stop.err
		}
		return values(y), nil
	})
}
