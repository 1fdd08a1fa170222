// RoiAlign pools regions of interest of X (N x C x H x W) into
// output_height x output_width bins: roi r ([x1, y1, x2, y2] of rois,
// scaled by spatial_scale, shifted by -0.5 under half_pixel) of image
// batch_indices[r] is cut into bins, each sampled on a grid of
// sampling_ratio x sampling_ratio points (ceil(roi size / bins) when 0,
// adaptive), each point bilinearly interpolated; a bin is the average of
// its points (mode avg) or the largest of every point's four weighted
// neighbours (mode max, as onnxruntime and the reference evaluator do).
// Points beyond one pixel outside the image count as 0; under
// output_half_pixel a roi is at least 1 x 1.
//
// Versions: 10 (no coordinate_transformation_mode: output_half_pixel), 16
// (coordinate_transformation_mode, default half_pixel) and 22 (adds
// bfloat16). Types: X and rois float16, float, double (bfloat16 from 22),
// batch_indices int64. Computed in float64 in the reference evaluator's
// order, each output rounded once: the engines agree bit for bit. The fast
// kernel computes each roi's sampling table once for all channels.
//
// The rules: [type]; [input-rank] X 4-D, rois [R, 4], batch_indices [R];
// [X] images of at least one pixel;
// [mode], [coordinate_transformation_mode] names the spec lists;
// [output_height], [output_width] >= 1; [sampling_ratio] >= 0;
// [batch_indices] in [0, N); [rois] finite; [size] the output and each
// roi's sampling table (output bins x grid points) fit the caps.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/window"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("RoiAlign", []int{10, 16, 22}, [2]int{3, 3}, [2]int{1, 1}, roiAlignNode)
	declareAttrs("RoiAlign",
		AttrSpec{Name: "coordinate_transformation_mode", Type: AttrString},
		AttrSpec{Name: "mode", Type: AttrString},
		AttrSpec{Name: "output_height", Type: AttrInt},
		AttrSpec{Name: "output_width", Type: AttrInt},
		AttrSpec{Name: "sampling_ratio", Type: AttrInt},
		AttrSpec{Name: "spatial_scale", Type: AttrFloat})
}

// roiAlignAttrs are a RoiAlign's attributes, checked.
type roiAlignAttrs struct {
	max, halfPixel bool
	height, width  int
	ratio          int
	scale          float64
}

func readRoiAlignAttrs(n *Node) (roiAlignAttrs, error) {
	op := n.op()
	var a roiAlignAttrs
	if n.Version >= 16 {
		m, err := n.Str("coordinate_transformation_mode", "half_pixel")
		if err != nil {
			return a, err
		}
		switch m {
		case "half_pixel":
			a.halfPixel = true
		case "output_half_pixel":
		default:
			return a, op.errorf("coordinate_transformation_mode", "coordinate_transformation_mode %q is not half_pixel or output_half_pixel", m)
		}
	}
	m, err := n.Str("mode", "avg")
	if err != nil {
		return a, err
	}
	switch m {
	case "avg":
	case "max":
		a.max = true
	default:
		return a, op.errorf("mode", "mode %q is not avg or max", m)
	}
	for _, f := range []struct {
		name string
		dst  *int
		def  int
		min  int
	}{{"output_height", &a.height, 1, 1}, {"output_width", &a.width, 1, 1}, {"sampling_ratio", &a.ratio, 0, 0}} {
		v, err := n.intAttr(f.name, f.def, f.name)
		if err != nil {
			return a, err
		}
		if v < f.min || v > window.MaxAttr {
			return a, op.errorf(f.name, "%s is %d, outside [%d, %d]", f.name, v, f.min, window.MaxAttr)
		}
		*f.dst = v
	}
	s, err := n.Float("spatial_scale", 1)
	if err != nil {
		return a, err
	}
	a.scale = float64(s)
	return a, nil
}

// RoiAlignShape checks the shapes of X, rois and batch_indices and returns
// the output's for output_height h and output_width w.
func RoiAlignShape(version int, xs, rs, bs []int, h, w int) ([]int, error) {
	op := opRef{"RoiAlign", version}
	if len(xs) != 4 {
		return nil, op.errorf("input-rank", "X has rank %d, expected 4", len(xs))
	}
	if xs[2] < 1 || xs[3] < 1 {
		return nil, op.errorf("X", "X has shape %v: an empty image has nothing to sample", xs)
	}
	if len(rs) != 2 || rs[1] != 4 || len(bs) != 1 || bs[0] != rs[0] {
		return nil, op.errorf("input-rank", "rois has shape %v and batch_indices %v, expected [R, 4] and [R]", rs, bs)
	}
	return []int{rs[0], xs[1], h, w}, nil
}

// roiGeometry is one roi's sampling: its start, bin sizes and grid.
type roiGeometry struct {
	startH, startW, binH, binW float64
	gridH, gridW               int
}

// roiAlignGeometry returns roi r's geometry; rv holds its 4 coordinates.
func roiAlignGeometry(op opRef, a roiAlignAttrs, rv []float64, r int) (roiGeometry, error) {
	var g roiGeometry
	offset := 0.0
	if a.halfPixel {
		offset = 0.5
	}
	startW, startH := rv[0]*a.scale-offset, rv[1]*a.scale-offset
	endW, endH := rv[2]*a.scale-offset, rv[3]*a.scale-offset
	width, height := endW-startW, endH-startH
	if !a.halfPixel {
		width, height = max(width, 1), max(height, 1)
	}
	g.startH, g.startW = startH, startW
	g.binH, g.binW = height/float64(a.height), width/float64(a.width)
	g.gridH, g.gridW = a.ratio, a.ratio
	if a.ratio == 0 {
		gh, gw := math.Ceil(height/float64(a.height)), math.Ceil(width/float64(a.width))
		if gh > 1<<31 || gw > 1<<31 {
			return g, op.errorf("size", "roi %d samples a grid of %v x %v points a bin, beyond any cap", r, gh, gw)
		}
		g.gridH, g.gridW = max(int(gh), 0), max(int(gw), 0)
	}
	return g, nil
}

// roiSample is one sampling point: four pixel offsets and their weights.
type roiSample struct {
	pos [4]int
	w   [4]float64
}

func roiAlignNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	opt = opt.orDefault()
	var t [3]*tensor.Tensor
	var err error
	for i, name := range []string{"X", "rois", "batch_indices"} {
		if t[i], err = n.requiredInput(in, i, name); err != nil {
			return nil, err
		}
	}
	x, rois, bi := t[0], t[1], t[2]
	if !poolFloatTypeOK(n.Version, x.DataType()) || rois.DataType() != x.DataType() || bi.DataType() != tensor.Int64 {
		return nil, op.errorf("type", "X is %v, rois %v and batch_indices %v, which version %d does not accept", x.DataType(), rois.DataType(), bi.DataType(), n.Version)
	}
	a, err := readRoiAlignAttrs(n)
	if err != nil {
		return nil, err
	}
	xs := x.Shape()
	shape, err := RoiAlignShape(n.Version, xs, rois.Shape(), bi.Shape(), a.height, a.width)
	if err != nil {
		return nil, err
	}
	bv, _ := int64sOf(bi)
	for r, b := range bv {
		if b < 0 || b >= int64(xs[0]) {
			return nil, op.errorf("batch_indices", "batch_indices[%d] is %d, outside [0, %d)", r, b, xs[0])
		}
	}
	rv := make([]float64, rois.Len()) // 4 a roi, bounded by batch_indices
	if err := opt.scratch(op, "rois in float64", len(rv), 8); err != nil {
		return nil, err
	}
	convert.DecodeFloats(rv, rois, 0)
	for i, v := range rv {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, op.errorf("rois", "roi %d holds a coordinate that is not finite: %v", i/4, rv[i/4*4:i/4*4+4])
		}
	}
	geos := make([]roiGeometry, shape[0])
	largest := 0
	for r := range geos {
		g, err := roiAlignGeometry(op, a, rv[4*r:4*r+4], r)
		if err != nil {
			return nil, err
		}
		geos[r] = g
		largest = max(largest, mulCounts(mulCounts(g.gridH, g.gridW), a.height*a.width))
	}
	y, err := opt.newOverwritten(op, x.DataType(), shape)
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 {
		return values(y), nil
	}
	if err := opt.scratch(op, "the roi's sampling table", largest, 64); err != nil {
		return nil, err
	}
	table := make([]roiSample, largest)
	xv, err := convFloatsIn[float64](opt, op, x, "X")
	if err != nil {
		return nil, convErr(op, err)
	}
	channels, height, width := xs[1], xs[2], xs[3]
	bins := a.height * a.width
	err = computeFloat64s(opt, op, y, func(out []float64) error {
		for r, g := range geos {
			points := g.gridH * g.gridW
			tab := table[:points*bins]
			roiAlignTable(tab, g, a, height, width)
			count := float64(max(points, 1))
			err := parallelRange(opt, channels, max(points*bins*4, 1), func(lo, hi int) error {
				c := opt.canceller()
				for ch := lo; ch < hi; ch++ {
					if c.Stop(points * bins * 4) {
						return c.Err
					}
					img := xv[(int(bv[r])*channels+ch)*height*width:]
					o := out[(r*channels+ch)*bins:]
					for bin := range bins {
						var v float64
						for k, s := range tab[bin*points : (bin+1)*points] {
							if a.max {
								m := s.w[0] * img[s.pos[0]]
								for j := 1; j < 4; j++ {
									if q := s.w[j] * img[s.pos[j]]; q > m {
										m = q
									}
								}
								if k == 0 || m > v {
									v = m
								}
							} else {
								v += s.w[0]*img[s.pos[0]] + s.w[1]*img[s.pos[1]] + s.w[2]*img[s.pos[2]] + s.w[3]*img[s.pos[3]]
							}
						}
						if !a.max {
							v /= count
						}
						o[bin] = v
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, convErr(op, err)
	}
	return values(y), nil
}

// roiAlignTable fills tab with the sampling points of every bin of one
// roi, bin by bin, each bin's grid row by row.
func roiAlignTable(tab []roiSample, g roiGeometry, a roiAlignAttrs, height, width int) {
	i := 0
	for ph := range a.height {
		for pw := range a.width {
			for iy := range g.gridH {
				y := g.startH + float64(ph)*g.binH + (float64(iy)+0.5)*g.binH/float64(g.gridH)
				for ix := range g.gridW {
					x := g.startW + float64(pw)*g.binW + (float64(ix)+0.5)*g.binW/float64(g.gridW)
					tab[i] = roiBilinear(y, x, height, width)
					i++
				}
			}
		}
	}
}

// roiBilinear returns the four neighbours of (y, x) and their weights;
// a point beyond a pixel outside the image reads nothing (weights 0).
func roiBilinear(y, x float64, height, width int) roiSample {
	if y < -1 || y > float64(height) || x < -1 || x > float64(width) {
		return roiSample{}
	}
	y, x = max(y, 0), max(x, 0)
	yLow, xLow := int(y), int(x)
	var yHigh, xHigh int
	if yLow >= height-1 {
		yLow, yHigh = height-1, height-1
		y = float64(yLow)
	} else {
		yHigh = yLow + 1
	}
	if xLow >= width-1 {
		xLow, xHigh = width-1, width-1
		x = float64(xLow)
	} else {
		xHigh = xLow + 1
	}
	ly, lx := y-float64(yLow), x-float64(xLow)
	hy, hx := 1-ly, 1-lx
	return roiSample{
		pos: [4]int{yLow*width + xLow, yLow*width + xHigh, yHigh*width + xLow, yHigh*width + xHigh},
		w:   [4]float64{hy * hx, hy * lx, ly * hx, ly * lx},
	}
}
