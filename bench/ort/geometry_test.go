//go:build ort

package main

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/tensor"
)

// Differential tests of the geometry and signal operators of the recurrent and control-flow round
// against onnxruntime: random shapes and attributes of GridSample, RoiAlign
// and DFT. onnxshape computes in float64 and rounds once; onnxruntime
// computes float32 in float32, so float32 results agree within abs 1e-4,
// rel 1e-4 (a cubic tap sums 16 products; an FFT of up to 16 points),
// double within 1e-9 (1e-6 for onnxruntime's double inverse DFT), float16
// within halfTolerance; docs/divergences.md lists what differs besides.

func geometryTolerance(c *diffCase, dt tensor.DataType) {
	c.abs, c.rel = 1e-4, 1e-4
	if dt == tensor.Double {
		c.abs, c.rel = 1e-9, 1e-9
	}
	halfTolerance(c, dt)
}

func TestORTGeometry(t *testing.T) {
	t.Run("GridSample", func(t *testing.T) {
		family(t, 251, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
			opset := pick(r, 16, 20)
			dt := pick(r, tensor.Float, tensor.Double)
			spatial := 2
			if opset >= 20 && r.IntN(3) == 0 {
				spatial = 3
			}
			xs := append([]int{1 + r.IntN(2), 1 + r.IntN(3)}, randShape(r, spatial, 1, 6)...)
			gs := append(append([]int{xs[0]}, randShape(r, spatial, 1, 5)...), spatial)
			grid := randTensor(r, dt, gs)
			v, _ := grid.Float64s()
			for k := range v {
				v[k] *= 0.35 // [-1.4, 1.4): inside and a little outside
			}
			grid = floatTensor(dt, v, gs)
			modes := []string{"nearest", "linear", "cubic"}
			if opset < 20 {
				modes = []string{"nearest", "bilinear", "bicubic"}
			}
			mode := pick(r, modes...)
			if spatial == 3 && mode != "nearest" {
				mode = "linear" // onnxruntime has no 3-D cubic
			}
			padding := pick(r, "zeros", "border", "reflection")
			align := r.IntN(2)
			cs := &diffCase{name: fmt.Sprintf("GridSample-%d %v X%v grid%v %s %s align=%d", opset, dt, xs, gs, mode, padding, align), opset: opset,
				inputs: inputsOf(randTensor(r, dt, xs), grid),
				build:  node("GridSample", builder.String("mode", mode), builder.String("padding_mode", padding), builder.Int("align_corners", align))}
			geometryTolerance(cs, dt)
			if mode == "cubic" || mode == "bicubic" {
				if padding == "border" {
					cs.known = "docs/divergences.md: cubic with border padding clamps the position first (the reference evaluator), onnxruntime only the taps"
				}
			}
			return cs
		})
	})
	t.Run("RoiAlign", func(t *testing.T) {
		family(t, 252, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
			opset := pick(r, 10, 16)
			dt := pick(r, tensor.Float, tensor.Double)
			xs := []int{1 + r.IntN(2), 1 + r.IntN(3), 2 + r.IntN(8), 2 + r.IntN(8)}
			rois := 1 + r.IntN(3)
			rv := make([]float64, 4*rois)
			bi := make([]int64, rois)
			for k := range rois {
				x1, y1 := r.Float64()*float64(xs[3]), r.Float64()*float64(xs[2])
				rv[4*k], rv[4*k+1] = x1, y1
				rv[4*k+2], rv[4*k+3] = x1+r.Float64()*float64(xs[3]), y1+r.Float64()*float64(xs[2])
				bi[k] = int64(r.IntN(xs[0]))
			}
			attrs := []builder.Arg{builder.Int("output_height", 1+r.IntN(4)), builder.Int("output_width", 1+r.IntN(4)),
				builder.Int("sampling_ratio", r.IntN(3)), builder.String("mode", pick(r, "avg", "max")),
				builder.Float("spatial_scale", pick(r, float32(1), 0.5))}
			name := fmt.Sprintf("RoiAlign-%d %v X%v rois=%d", opset, dt, xs, rois)
			if opset >= 16 {
				ctm := pick(r, "half_pixel", "output_half_pixel")
				attrs = append(attrs, builder.String("coordinate_transformation_mode", ctm))
				name += " " + ctm
			}
			cs := &diffCase{name: name, opset: opset,
				inputs: inputsOf(randTensor(r, dt, xs), floatTensor(dt, rv, []int{rois, 4}), tensor.MustFromSlice(bi, rois)),
				build:  node("RoiAlign", attrs...)}
			geometryTolerance(cs, dt)
			return cs
		})
	})
	t.Run("DFT", func(t *testing.T) {
		family(t, 253, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
			opset := pick(r, 17, 20)
			dt := pick(r, tensor.Float, tensor.Double)
			rank := 3 + r.IntN(2)
			xs := append(randShape(r, rank-1, 1, 12), pick(r, 1, 2))
			axis := 1 + r.IntN(rank-2)
			inverse, onesided := r.IntN(2), r.IntN(2)
			if xs[rank-1] == 2 && inverse == 0 {
				onesided = 0 // a one-sided forward transform takes real signals
			}
			if inverse == 1 {
				onesided = 0 // onnxruntime 1.30 has no one-sided inverse
			}
			in := inputsOf(randTensor(r, dt, xs))
			length := xs[axis]
			if r.IntN(2) == 0 {
				length = 1 + r.IntN(16)
			}
			in = append(in, diffInput{"dft_length", tensor.MustFromSlice([]int64{int64(length)})})
			attrs := []builder.Arg{builder.Int("inverse", inverse), builder.Int("onesided", onesided)}
			if opset >= 20 {
				in = append(in, diffInput{"axis", tensor.MustFromSlice([]int64{int64(axis)})})
			} else {
				attrs = append(attrs, builder.Int("axis", axis))
			}
			cs := &diffCase{name: fmt.Sprintf("DFT-%d %v %v axis=%d n=%d inverse=%d onesided=%d", opset, dt, xs, axis, length, inverse, onesided),
				opset: opset, inputs: in, build: node("DFT", attrs...)}
			geometryTolerance(cs, dt)
			if dt == tensor.Double && inverse == 1 {
				cs.abs, cs.rel = 1e-6, 1e-6 // docs/divergences.md: onnxruntime's double inverse
			}
			return cs
		})
	})
}
