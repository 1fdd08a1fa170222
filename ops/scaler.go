// Scaler (ai.onnx.ml, version 1) writes Y = (X - offset) * scale, float,
// of X's shape (float, double, int64 or int32, rank at least 1), offset
// and scale applied along the last axis: each has one value for every
// element or one per element of that axis.
//
// The arithmetic is onnxruntime's, which the specification leaves open:
// in float32 (an integer converted to float32 first) unless X is double,
// where it is double rounded once to float. onnxruntime refuses an offset
// and a scale of different lengths, and so does onnxshape.
//
// Rules: [type]; [rank] at least 1; [attribute] offset and scale given;
// [length] both of one value, or both of one per element of the last axis.

package ops

import "github.com/onnxshape/onnxshape/tensor"

func init() {
	registerIn(domainML, "Scaler", []int{1}, [2]int{1, 1}, [2]int{1, 1}, scalerNode)
	declareAttrsIn(domainML, "Scaler", AttrSpec{Name: "offset", Type: AttrFloats}, AttrSpec{Name: "scale", Type: AttrFloats})
}

func scalerNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	switch x.DataType() {
	case tensor.Float, tensor.Double, tensor.Int64, tensor.Int32:
	default:
		return nil, op.errorf("type", "X must be float, double, int64 or int32, got %v", x.DataType())
	}
	if x.Rank() < 1 {
		return nil, op.errorf("rank", "X must have at least one axis, got a scalar")
	}
	offset, hasOffset, err := n.Floats("offset")
	if err != nil {
		return nil, err
	}
	scale, hasScale, err := n.Floats("scale")
	if err != nil {
		return nil, err
	}
	if !hasOffset || !hasScale {
		return nil, op.errorf("attribute", "offset and scale are both required")
	}
	c := x.Shape()[x.Rank()-1]
	if !(len(offset) == 1 && len(scale) == 1) && !(len(offset) == c && len(scale) == c) {
		return nil, op.errorf("length", "offset (%d) and scale (%d) must both have 1 value or both %d, one per element of X's last axis",
			len(offset), len(scale), c)
	}
	y, err := opt.newOverwritten(op, tensor.Float, x.Shape())
	if err != nil {
		return nil, err
	}
	out := asElems[float32](y.Bytes())[:y.Len()]
	at := func(i int) int {
		if len(offset) == 1 {
			return 0
		}
		return i % c
	}
	switch x.DataType() {
	case tensor.Double:
		src := asElems[float64](x.Bytes())
		err = parallelRange(opt, len(out), len(out), func(lo, hi int) error {
			for i := lo; i < hi; i++ {
				j := at(i)
				out[i] = float32((src[i] - float64(offset[j])) * float64(scale[j]))
			}
			return nil
		})
	default:
		err = scaleFloat32(opt, x, out, offset, scale, at)
	}
	if err != nil {
		return nil, op.stopped(err)
	}
	return values(y), nil
}

// scaleFloat32 is Scaler in float32 arithmetic for float, int64 and int32.
func scaleFloat32(opt *Options, x *tensor.Tensor, out []float32, offset, scale []float32, at func(int) int) error {
	load := func(i int) float32 { return asElems[float32](x.Bytes())[i] }
	switch x.DataType() {
	case tensor.Int64:
		load = func(i int) float32 { return float32(asElems[int64](x.Bytes())[i]) }
	case tensor.Int32:
		load = func(i int) float32 { return float32(asElems[int32](x.Bytes())[i]) }
	}
	return parallelRange(opt, len(out), len(out), func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			j := at(i)
			d := load(i) - offset[j]
			out[i] = d * scale[j]
		}
		return nil
	})
}
