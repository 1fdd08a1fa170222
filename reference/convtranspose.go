// ConvTranspose (1, 11, 22): "The convolution transpose operator consumes
// an input tensor and a filter, and computes the output." Each input
// element X[n, c, i] adds X[n, c, i] * W[c, m', t] onto output element
// Y[n, g*M/group + m', i*strides - pads_begin + t*dilations] (g = c's
// group, t every kernel tap), when that lies inside the output; B[m] is
// added to every element of channel m.
//
// The output shape, as the operator's documentation gives it: "If the
// pads parameter is provided the shape of the output is calculated via
// the following equation: output_shape[i] = stride[i] * (input_size[i] -
// 1) + output_padding[i] + ((kernel_shape[i] - 1) * dilations[i] + 1) -
// pads[start_i] - pads[end_i]"; with output_shape given (or auto_pad SAME_*,
// then output_shape[i] = input_size[i] * stride[i]): "total_padding[i] =
// stride[i] * (input_size[i] - 1) + output_padding[i] + ((kernel_shape[i]
// - 1) * dilations[i] + 1) - output_shape[i]; If (auto_pads == SAME_UPPER):
// pads[start_i] = total_padding[i]/2; ... Else: pads[start_i] =
// total_padding[i] - (total_padding[i]/2)", a negative total counting as 0
// (onnxruntime's reading). VALID pads nothing. Computed in float64, each
// output rounded once.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ConvTranspose", []int{1, 11, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "X")
		if err != nil {
			return nil, err
		}
		w, err := requiredInput(op, in, 1, "W")
		if err != nil {
			return nil, err
		}
		b, err := optionalInput(op, in, 2)
		if err != nil {
			return nil, err
		}
		a, err := readConvAttrs(n, true)
		if err != nil {
			return nil, err
		}
		outPad, _, err := intsAttr(n, "output_padding", "output_padding")
		if err != nil {
			return nil, err
		}
		outShape, _, err := intsAttr(n, "output_shape", "output_shape")
		if err != nil {
			return nil, err
		}
		dt := x.DataType()
		if !convFloatType(n.Version, dt) {
			return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, n.Version)
		}
		if w.DataType() != dt {
			return nil, op.errorf("type", "W is %v, X %v", w.DataType(), dt)
		}
		xs, ws := x.Shape(), w.Shape()
		if a, err = checkConvWeight(op, xs, ws, a, true); err != nil {
			return nil, err
		}
		spatial := len(xs) - 2
		if outPad == nil {
			outPad = make([]int, spatial)
		}
		if len(outPad) == 2*spatial {
			outPad = outPad[:spatial]
		}
		if len(outPad) != spatial {
			return nil, op.errorf("output_padding", "output_padding has %d values", len(outPad))
		}
		for _, p := range outPad {
			if p < 0 || p > maxPoolAttr {
				return nil, op.errorf("output_padding", "output_padding %v", outPad)
			}
		}
		if outShape != nil {
			if len(outShape) == spatial+2 {
				outShape = outShape[2:]
			}
			if len(outShape) != spatial {
				return nil, op.errorf("output_shape", "output_shape has %d values", len(outShape))
			}
			for _, d := range outShape {
				if d < 0 || d > maxPoolAttr {
					return nil, op.errorf("output_shape", "output_shape %v", outShape)
				}
			}
		}
		m := ws[1] * a.group
		shape := []int{xs[0], m}
		begin := make([]int, spatial)
		for i := range spatial {
			full := int64(a.strides[i])*int64(xs[i+2]-1) + int64(outPad[i]) + dilatedKernel(a.kernel[i], a.dilations[i])
			var out int64
			fromTotal := func() {
				total := max(0, full-out)
				if a.autoPad == "SAME_UPPER" {
					begin[i] = int(total / 2)
				} else {
					begin[i] = int(total - total/2)
				}
			}
			switch {
			case outShape != nil:
				out = int64(outShape[i])
				fromTotal()
			case a.autoPad == "SAME_UPPER" || a.autoPad == "SAME_LOWER":
				out = int64(xs[i+2]) * int64(a.strides[i])
				fromTotal()
			case a.autoPad == "VALID":
				out = full
			default:
				begin[i] = a.pads[i]
				out = full - int64(a.pads[i]) - int64(a.pads[i+spatial])
			}
			if out < 0 {
				return nil, op.errorf("pads", "axis %d: output length %d", i+2, out)
			}
			if out > maxPoolAttr {
				return nil, op.errorf("size", "axis %d: output length %d", i+2, out)
			}
			shape = append(shape, int(out))
		}
		if err := checkConvBias(op, b, dt, m); err != nil {
			return nil, err
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
		xv, wv := computeElements[float64](x), computeElements[float64](w)
		out := make([]float64, numElements(shape))
		yStrides, wStrides := stridesOf(shape), stridesOf(ws)
		if b != nil {
			bv := computeElements[float64](b)
			forEachIndex(shape, func(flat int, idx []int) { out[flat] = bv[idx[1]] })
		}
		cg, mg := xs[1]/a.group, m/a.group
		yi := make([]int, len(shape))
		wi := make([]int, len(shape))
		if err := forEachIndexPolled(opt, op, xs, mg*numElements(a.kernel), func(flat int, idx []int) {
			g := idx[1] / cg
			for mm := range mg {
				forEachIndex(a.kernel, func(_ int, t []int) {
					yi[0], yi[1] = idx[0], g*mg+mm
					for k := range spatial {
						yi[k+2] = idx[k+2]*a.strides[k] - begin[k] + t[k]*a.dilations[k]
						if yi[k+2] < 0 || yi[k+2] >= shape[k+2] {
							return
						}
					}
					wi[0], wi[1] = idx[1], mm
					copy(wi[2:], t)
					out[ravel(yi, yStrides)] += xv[flat] * wv[ravel(wi, wStrides)]
				})
			}
		}); err != nil {
			return nil, err
		}
		return values(computeTensor(dt, shape, out)), nil
	})
}
