// MaxUnpool (ONNX MaxUnpool 9, 11, 22): the partial inverse of MaxPool:
// every element X[i] goes to the flat index I[i] of an output that is zero
// elsewhere. 9 takes float16, float, double; 11 documents strides' default;
// 22 adds bfloat16. X is N x C x D1 x ... x Dn, n >= 1.
//
// The default output shape keeps N and C and gives each spatial axis
// (d-1)*stride + kernel - pad_begin - pad_end: the MaxPool input the
// indices came from; I indexes it flat, row-major. With the optional
// output_shape input the output is that default one zero-padded at the end
// of every axis up to output_shape, as the ONNX reference implementation
// (op_max_unpool.py) and the node test test_maxunpool_export_with_output_shape
// have it. Of two elements with one index the later (row-major) wins.
//
//	[type]         X is a float type of the version; I and output_shape int64
//	[kernel_shape] one value per spatial axis, each > 0 (strides > 0, pads >= 0)
//	[I]            I has the shape of X
//	[output-shape] the default output dims are >= 0
//	[output_shape] one value per axis of X, none below the default dim
//	[index]        every index in [0, size of the default output)

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("MaxUnpool", []int{9, 11, 22}, maxUnpool)
}

func maxUnpool(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	indices, err := requiredInput(op, in, 1, "I")
	if err != nil {
		return nil, err
	}
	a, err := readPoolAttrs(n, false, false)
	if err != nil {
		return nil, err
	}
	if n.Has("auto_pad") {
		return nil, op.errorf("attribute", "MaxUnpool has no attribute auto_pad")
	}
	var outputShape []int
	s, err := optionalInput(op, in, 2)
	if err != nil {
		return nil, err
	}
	if s != nil {
		if s.DataType() != tensor.Int64 || s.Rank() != 1 {
			return nil, op.errorf("type", "output_shape must be a 1-D int64 tensor, got %v of shape %v", s.DataType(), s.Shape())
		}
		v, _ := int64sOf(s)
		if outputShape, err = toInts(v); err != nil {
			return nil, op.errorf("output_shape", "%v", err)
		}
	}
	// [type]
	if indices.DataType() != tensor.Int64 {
		return nil, op.errorf("type", "I must be int64, got %v", indices.DataType())
	}
	dt, dX := x.DataType(), x.Shape()
	switch {
	case dt == tensor.Float16 || dt == tensor.Float || dt == tensor.Double:
	case dt == tensor.BFloat16 && op.version >= 22:
	default:
		return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, op.version)
	}
	spatial := len(dX) - 2
	if a, err = checkPoolAttrs(op, spatial, a); err != nil { // [kernel_shape], ...
		return nil, err
	}
	if !tensor.SameShape(dX, indices.Shape()) { // [I]
		return nil, op.errorf("I", "I has shape %v, X has shape %v: they must be the same", indices.Shape(), dX)
	}
	def := append([]int{}, dX...)
	for k := range spatial { // [output-shape]
		d := (int64(dX[k+2])-1)*int64(a.strides[k]) + int64(a.kernel[k]) - int64(a.pads[k]) - int64(a.pads[k+spatial])
		if d < 0 || int64(int(d)) != d {
			return nil, op.errorf("output-shape", "axis %d: the output length %d is impossible", k+2, d)
		}
		def[k+2] = int(d)
	}
	dY := def
	if outputShape != nil { // [output_shape]
		if len(outputShape) != len(dX) {
			return nil, op.errorf("output_shape", "output_shape has %d values, X has rank %d", len(outputShape), len(dX))
		}
		for k, d := range outputShape {
			if d < def[k] {
				return nil, op.errorf("output_shape", "output_shape %v is smaller than the default output shape %v on axis %d", outputShape, def, k)
			}
		}
		dY = outputShape
	}
	y, err := newTensor(opt, op, dt, dY) // zero-filled
	if err != nil {
		return nil, err
	}
	idx, _ := tensor.Data[int64](indices)
	size := numElements(def)
	for i, g := range idx { // [index]
		if g < 0 || g >= int64(size) {
			return nil, op.errorf("index", "I[%d] is %d, outside [0, %d) (the default output shape %v)", i, g, size, def)
		}
	}
	yStrides := stridesOf(dY)
	for i, g := range idx {
		// The coordinates of g in the default shape are the same in Y.
		copyElement(y, ravel(unravel(int(g), def), yStrides), x, i)
	}
	return values(y), nil
}
