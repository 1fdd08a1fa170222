// DeformConv (19, 22): "Performs deformable convolution as described in
// https://arxiv.org/abs/1703.06211 and https://arxiv.org/abs/1811.11168."
// As the reference evaluator's op_deform_conv.py (two spatial axes, which
// is all it implements): tap (i, j) of output position (h, w) reads input
// channel c at (h*strides[0] - pads[0] + i*dilations[0] + offset_h,
// w*strides[1] - pads[1] + j*dilations[1] + offset_w), bilinearly from its
// four neighbours (those outside the image are 0: GridSample, zeros
// padding, align_corners), times mask, times W; offset holds, per offset
// group of C/offset_group channels and per tap, the h then the w offset;
// B is added. Computed in float64, each output rounded once.

package reference

import (
	"math"
	"slices"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("DeformConv", []int{19, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		var t [5]*tensor.Tensor
		var err error
		for i, name := range []string{"X", "W", "offset"} {
			if t[i], err = requiredInput(op, in, i, name); err != nil {
				return nil, err
			}
		}
		for i := 3; i < 5; i++ {
			if t[i], err = optionalInput(op, in, i); err != nil {
				return nil, err
			}
		}
		x, w, offset, b, mask := t[0], t[1], t[2], t[3], t[4]
		a, err := readConvAttrs(n, false)
		if err != nil {
			return nil, err
		}
		og, err := intAttr(n, "offset_group", 1, "offset_group")
		if err != nil {
			return nil, err
		}
		dt := x.DataType()
		if !convFloatType(n.Version, dt) {
			return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, n.Version)
		}
		for _, u := range t[1:] {
			if u != nil && u.DataType() != dt {
				return nil, op.errorf("type", "an input is %v, X %v", u.DataType(), dt)
			}
		}
		xs, ws := x.Shape(), w.Shape()
		if a, err = checkConvWeight(op, xs, ws, a, false); err != nil {
			return nil, err
		}
		if len(xs) != 4 {
			return nil, op.errorf("input-rank", "X has rank %d, expected 4", len(xs))
		}
		if og < 1 || xs[1]%og != 0 {
			return nil, op.errorf("offset_group", "offset_group %d for %d channels", og, xs[1])
		}
		m := ws[0]
		shape, _, err := convOutput(op, xs, m, a)
		if err != nil {
			return nil, err
		}
		kh, kw := a.kernel[0], a.kernel[1]
		oh, ow := shape[2], shape[3]
		if want := []int{xs[0], og * kh * kw * 2, oh, ow}; !slices.Equal(offset.Shape(), want) {
			return nil, op.errorf("offset", "offset has shape %v, expected %v", offset.Shape(), want)
		}
		if err := checkConvBias(op, b, dt, m); err != nil {
			return nil, err
		}
		if want := []int{xs[0], og * kh * kw, oh, ow}; mask != nil && !slices.Equal(mask.Shape(), want) {
			return nil, op.errorf("mask", "mask has shape %v, expected %v", mask.Shape(), want)
		}
		if err := checkSize(opt, op, dt, shape); err != nil {
			return nil, err
		}
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		if err := chargeScratch(opt, op, "float64 copies of the inputs, the results and the output", inputElements(in)+2*numElements(shape), 8); err != nil {
			return nil, err
		}
		xv, wv, ov := computeElements[float64](x), computeElements[float64](w), computeElements[float64](offset)
		var mv, bv []float64
		if mask != nil {
			mv = computeElements[float64](mask)
		}
		if b != nil {
			bv = computeElements[float64](b)
		}
		ih, iw := xs[2], xs[3]
		cg, mg := ws[1], m/a.group
		perOffset := xs[1] / og
		// sample is x[nn, c] at (h, v), bilinearly.
		sample := func(nn, c int, h, v float64) float64 {
			h0, v0 := math.Floor(h), math.Floor(v)
			at := func(r, q float64) float64 {
				if r < 0 || q < 0 || r >= float64(ih) || q >= float64(iw) {
					return 0
				}
				return xv[((nn*xs[1]+c)*ih+int(r))*iw+int(q)]
			}
			fh, fv := h-h0, v-v0
			return (1-fh)*((1-fv)*at(h0, v0)+fv*at(h0, v0+1)) + fh*((1-fv)*at(h0+1, v0)+fv*at(h0+1, v0+1))
		}
		out := make([]float64, numElements(shape))
		forEachIndex(shape, func(flat int, idx []int) {
			nn, mm, h, v := idx[0], idx[1], idx[2], idx[3]
			g := mm / mg
			var s float64
			for ci := range cg {
				c := g*cg + ci
				o := c / perOffset
				for i := range kh {
					for j := range kw {
						tap := (o*kh+i)*kw + j
						dh := ov[((nn*og*kh*kw*2+tap*2)*oh+h)*ow+v]
						dv := ov[((nn*og*kh*kw*2+tap*2+1)*oh+h)*ow+v]
						ph := float64(h*a.strides[0]-a.pads[0]+i*a.dilations[0]) + dh
						pv := float64(v*a.strides[1]-a.pads[1]+j*a.dilations[1]) + dv
						var val float64
						switch {
						case math.IsNaN(ph) || math.IsNaN(pv):
							val = math.NaN()
						case ph > -1 && pv > -1 && ph < float64(ih) && pv < float64(iw):
							val = sample(nn, c, ph, pv)
						}
						if mv != nil {
							val *= mv[((nn*og*kh*kw+tap)*oh+h)*ow+v]
						}
						s += val * wv[((mm*cg+ci)*kh+i)*kw+j]
					}
				}
			}
			if bv != nil {
				s += bv[mm]
			}
			out[flat] = s
		})
		return values(computeTensor(dt, shape, out)), nil
	})
}
