// Col2Im rearranges columns back into images, the inverse layout of
// im2col: input (N x C*prod(block_shape) x L) holds, for each channel c and
// block tap t, the values of the L sliding blocks; each is added onto the
// image element (N x C x image_shape) the block's tap covers, block b
// along an axis starting at b*stride - pad_begin, taps dilation apart.
// Elements that overlap add up; taps in the padding are dropped.
//
// Version 18. Types: every numeric type (float16 and bfloat16 added in
// float32, each image element rounded once; integers wrap as numpy's +=
// does). bool, string and the complex and 8-bit float types, which the
// spec's "all types" lists but cannot add, are refused. The engine is
// ops/internal/conv's col2im scatter; floats add in a different order than
// the reference's, within the bound reference.Agree states.
//
// The rules: [type] a type that adds, image_shape and block_shape int64;
// [input-rank] input has rank 3; [image_shape] and [block_shape] 1-D, the
// same length, image dims >= 0 and block dims >= 1; [block_shape] the
// input's dim 1 is a multiple of prod(block_shape); the window attributes
// ([strides], [dilations], [pads]) as pooling's; [input] L is the number
// of blocks, each axis holding at least one; [size].

package ops

import (
	"bytes"
	"slices"

	"github.com/onnxshape/onnxshape/ops/internal/conv"
	"github.com/onnxshape/onnxshape/ops/internal/window"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Col2Im", []int{18}, [2]int{3, 3}, [2]int{1, 1}, col2ImNode)
	declareAttrs("Col2Im",
		AttrSpec{Name: "dilations", Type: AttrInts},
		AttrSpec{Name: "pads", Type: AttrInts},
		AttrSpec{Name: "strides", Type: AttrInts})
}

// col2ImTypeOK reports whether Col2Im adds elements of type dt.
func col2ImTypeOK(dt tensor.DataType) bool {
	switch dt {
	case tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16,
		tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64,
		tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64:
		return true
	}
	return false
}

func col2ImNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	is, err := n.requiredInput(in, 1, "image_shape")
	if err != nil {
		return nil, err
	}
	bs, err := n.requiredInput(in, 2, "block_shape")
	if err != nil {
		return nil, err
	}
	var a window.Attrs
	for _, f := range []struct {
		name string
		dst  *[]int
	}{{"strides", &a.Strides}, {"pads", &a.Pads}, {"dilations", &a.Dilations}} {
		if *f.dst, _, err = n.intsAttr(f.name, f.name); err != nil {
			return nil, err
		}
	}
	opt = opt.orDefault()
	dt := x.DataType()
	if !col2ImTypeOK(dt) {
		return nil, op.errorf("type", "input is %v, which Col2Im cannot add", dt)
	}
	if is.DataType() != tensor.Int64 || bs.DataType() != tensor.Int64 {
		return nil, op.errorf("type", "image_shape is %v and block_shape %v, expected int64", is.DataType(), bs.DataType())
	}
	g := n.lastCol2Im()
	if g == nil || !g.fits(x.Shape(), is, bs) {
		shape, axes, err := col2ImGeometry(op, x.Shape(), is, bs, a)
		if err != nil {
			return nil, err
		}
		g = &col2ImKept{xs: slices.Clone(x.Shape()), is: slices.Clone(is.Bytes()), bs: slices.Clone(bs.Bytes()),
			shape: shape, s: convShape(shape[0], shape[1], shape[1], 1, axes, true)}
		n.kept.Store(g)
	}
	shape, s := g.shape, g.s
	if err := opt.checkSize(op, dt, shape); err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, dt, shape)
	if err != nil {
		return nil, err
	}
	cfg := opt.convConfig(op, "")
	switch dt {
	case tensor.Float:
		err = col2Im[float32](cfg, s, x, y)
	case tensor.Double:
		err = col2Im[float64](cfg, s, x, y)
	case tensor.Int8:
		err = col2Im[int8](cfg, s, x, y)
	case tensor.Int16:
		err = col2Im[int16](cfg, s, x, y)
	case tensor.Int32:
		err = col2Im[int32](cfg, s, x, y)
	case tensor.Int64:
		err = col2Im[int64](cfg, s, x, y)
	case tensor.Uint8:
		err = col2Im[uint8](cfg, s, x, y)
	case tensor.Uint16:
		err = col2Im[uint16](cfg, s, x, y)
	case tensor.Uint32:
		err = col2Im[uint32](cfg, s, x, y)
	case tensor.Uint64:
		err = col2Im[uint64](cfg, s, x, y)
	default: // float16, bfloat16
		var xv []float32
		if xv, err = convFloatsIn[float32](opt, op, x, "input"); err != nil {
			return nil, convErr(op, err)
		}
		err = runFloatConv(opt, op, y, func(out []float32) error { return conv.Col2Im(cfg, s, xv, out) })
	}
	if err != nil {
		return nil, convErr(op, err)
	}
	return values(y), nil
}

// col2ImKept is what Col2Im derives from the input's shape, image_shape,
// block_shape and the node's attributes: the output shape and the scatter's
// shape. A node keeps the one of its last run (Node.kept), never modified
// once stored: on a small image the geometry cost as much as the scatter.
type col2ImKept struct {
	xs     []int
	is, bs []byte // image_shape and block_shape, int64 (checked before)
	shape  []int
	s      conv.Shape
}

// lastCol2Im is the geometry the node kept, nil for none.
func (n *Node) lastCol2Im() *col2ImKept {
	g, _ := n.kept.Load().(*col2ImKept)
	return g
}

// fits reports whether g is the geometry of an input of shape xs with
// image_shape is and block_shape bs.
func (g *col2ImKept) fits(xs []int, is, bs *tensor.Tensor) bool {
	return tensor.SameShape(g.xs, xs) && is.Rank() == 1 && bs.Rank() == 1 &&
		bytes.Equal(g.is, is.Bytes()) && bytes.Equal(g.bs, bs.Bytes())
}

func col2Im[T conv.Number](cfg conv.Config, s conv.Shape, x, y *tensor.Tensor) error {
	xv := asElems[T](x.Bytes())
	yv := asElems[T](y.Bytes())
	return conv.Col2Im(cfg, s, xv, yv)
}

// col2ImGeometry checks a Col2Im's shapes and attributes and returns its
// output shape and axes (in: the blocks along the axis, out: the image's
// length).
func col2ImGeometry(op opRef, xs []int, is, bs *tensor.Tensor, a window.Attrs) ([]int, []window.Axis, error) {
	if len(xs) != 3 {
		return nil, nil, op.errorf("input-rank", "input has rank %d, expected 3 (N, C*prod(block_shape), L)", len(xs))
	}
	if is.Rank() != 1 || bs.Rank() != 1 || is.Len() != bs.Len() || is.Len() == 0 {
		return nil, nil, op.errorf("image_shape", "image_shape %v and block_shape %v must be 1-D of the same positive length", is.Shape(), bs.Shape())
	}
	iv, _ := int64sOf(is)
	bv, _ := int64sOf(bs)
	spatial := len(iv)
	a.Kernel = make([]int, spatial)
	image := make([]int, spatial)
	kprod := 1
	for i := range iv {
		if iv[i] < 0 || iv[i] > window.MaxAttr {
			return nil, nil, op.errorf("image_shape", "image_shape[%d] is %d, outside [0, %d]", i, iv[i], window.MaxAttr)
		}
		if bv[i] < 1 || bv[i] > window.MaxAttr {
			return nil, nil, op.errorf("block_shape", "block_shape[%d] is %d, outside [1, %d]", i, bv[i], window.MaxAttr)
		}
		image[i], a.Kernel[i] = int(iv[i]), int(bv[i])
		kprod = mulCounts(kprod, a.Kernel[i])
	}
	if kprod == 0 || xs[1]%kprod != 0 {
		return nil, nil, op.errorf("block_shape", "input's dim 1 (%d) is not a multiple of prod(block_shape) = %d", xs[1], kprod)
	}
	a, err := checkPoolAttrs(op, spatial, a)
	if err != nil {
		return nil, nil, err
	}
	blocks := 1
	axes := make([]window.Axis, spatial)
	for i := range axes {
		ax := window.Axis{Out: image[i], Kernel: a.Kernel[i], Stride: a.Strides[i], Dilation: a.Dilations[i], PadBegin: a.Pads[i]}
		span := int64(image[i]) + int64(a.Pads[i]) + int64(a.Pads[i+spatial]) - window.DilatedKernel(ax.Kernel, ax.Dilation)
		if span < 0 {
			return nil, nil, op.errorf("input", "axis %d: the dilated block (%d) is longer than the padded image (%d)", i, window.DilatedKernel(ax.Kernel, ax.Dilation), span+window.DilatedKernel(ax.Kernel, ax.Dilation))
		}
		ax.In = int(span/int64(ax.Stride) + 1)
		blocks = mulCounts(blocks, ax.In)
		axes[i] = ax
	}
	if blocks != xs[2] {
		return nil, nil, op.errorf("input", "input holds %d blocks, the image, block_shape and attributes give %d", xs[2], blocks)
	}
	return append([]int{xs[0], xs[1] / kprod}, image...), axes, nil
}
