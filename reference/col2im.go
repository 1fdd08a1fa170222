// Col2Im (18): "The operator rearranges column blocks back into a
// multidimensional image", the reference evaluator's
// col2im_naive_implementation: for every channel c, block tap t (of
// block_shape) and block position b (of the grid of blocks, whose length
// along axis i is (image_shape[i] + pads - dilated block) / strides[i] + 1),
// input[n, c*prod(block_shape) + t, b] is added to image element
// b*strides - pads_begin + t*dilations when that lies inside the image.
// Every type that adds: floats (float16 and bfloat16 summed in float64
// here, rounded once), integers wrapping; bool, string, complex and the
// 8-bit floats are refused.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Col2Im", []int{18}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "input")
		if err != nil {
			return nil, err
		}
		is, err := requiredInput(op, in, 1, "image_shape")
		if err != nil {
			return nil, err
		}
		bs, err := requiredInput(op, in, 2, "block_shape")
		if err != nil {
			return nil, err
		}
		var a poolAttrs
		for _, f := range []struct {
			name string
			dst  *[]int
		}{{"strides", &a.strides}, {"pads", &a.pads}, {"dilations", &a.dilations}} {
			if *f.dst, _, err = intsAttr(n, f.name, f.name); err != nil {
				return nil, err
			}
		}
		dt := x.DataType()
		switch dt {
		case tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Int16, tensor.Int32,
			tensor.Int64, tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64:
		default:
			return nil, op.errorf("type", "input is %v", dt)
		}
		if is.DataType() != tensor.Int64 || bs.DataType() != tensor.Int64 {
			return nil, op.errorf("type", "image_shape %v, block_shape %v", is.DataType(), bs.DataType())
		}
		xs := x.Shape()
		if len(xs) != 3 {
			return nil, op.errorf("input-rank", "input has rank %d", len(xs))
		}
		if is.Rank() != 1 || bs.Rank() != 1 || is.Len() != bs.Len() || is.Len() == 0 {
			return nil, op.errorf("image_shape", "image_shape %v, block_shape %v", is.Shape(), bs.Shape())
		}
		iv, _ := int64sOf(is)
		bv, _ := int64sOf(bs)
		spatial := len(iv)
		image := make([]int, spatial)
		a.kernel = make([]int, spatial)
		kprod := 1
		for i := range iv {
			if iv[i] < 0 || iv[i] > maxPoolAttr {
				return nil, op.errorf("image_shape", "image_shape %v", iv)
			}
			if bv[i] < 1 || bv[i] > maxPoolAttr {
				return nil, op.errorf("block_shape", "block_shape %v", bv)
			}
			image[i], a.kernel[i] = int(iv[i]), int(bv[i])
			if kprod <= xs[1] {
				kprod *= a.kernel[i]
			}
		}
		if kprod > xs[1] || xs[1]%kprod != 0 {
			return nil, op.errorf("block_shape", "input's dim 1 is %d, block_shape %v", xs[1], bv)
		}
		if a, err = checkPoolAttrs(op, spatial, a); err != nil {
			return nil, err
		}
		blocks := make([]int, spatial)
		for i := range spatial {
			span := int64(image[i]) + int64(a.pads[i]) + int64(a.pads[i+spatial]) - dilatedKernel(a.kernel[i], a.dilations[i])
			if span < 0 {
				return nil, op.errorf("input", "axis %d: the block does not fit", i)
			}
			blocks[i] = int(span/int64(a.strides[i]) + 1)
		}
		if numElements(blocks) != xs[2] {
			return nil, op.errorf("input", "input holds %d blocks, expected %v", xs[2], blocks)
		}
		c := xs[1] / kprod
		shape := append([]int{xs[0], c}, image...)
		y, err := newTensor(opt, op, dt, shape)
		if err != nil {
			return nil, err
		}
		if err := chargeScratch(opt, op, "the sums", y.Len(), 8); err != nil {
			return nil, err
		}
		stop := newPoll(opt, op)
		if dt.IsInteger() {
			col2im[int64](y, x, blocks, a, stop)
		} else {
			col2im[float64](y, x, blocks, a, stop)
		}
		if stop.err != nil {
			return nil, stop.err
		}
		return values(y), nil
	})
}

// col2im sums x's blocks into y in the computing type A, then rounds
// each sum to y's type once; it stops when stop does.
func col2im[A int64 | float64](y, x *tensor.Tensor, blocks []int, a poolAttrs, stop *poll) {
	shape := y.Shape()
	spatial := len(blocks)
	kprod := numElements(a.kernel)
	l := numElements(blocks)
	out := make([]A, numElements(shape))
	yStrides := stridesOf(shape)
	yi := make([]int, len(shape))
	for nn := range shape[0] {
		for c := range shape[1] {
			forEachIndexWhile(a.kernel, func(t int, tap []int) bool {
				forEachIndex(blocks, func(b int, blk []int) {
					yi[0], yi[1] = nn, c
					for i := range spatial {
						yi[i+2] = blk[i]*a.strides[i] - a.pads[i] + tap[i]*a.dilations[i]
						if yi[i+2] < 0 || yi[i+2] >= shape[i+2] {
							return
						}
					}
					out[ravel(yi, yStrides)] += elementAs[A](x, ((nn*shape[1]+c)*kprod+t)*l+b)
				})
				return !stop.stop(l)
			})
			if stop.err != nil {
				return
			}
		}
	}
	for i, v := range out {
		setElementAs(y, i, v)
	}
}
