// Shape returns the shape of a tensor as a 1-D int64 tensor, or from
// version 15 a slice of it, [start, end).
//
// Versions: 1 and 13 return the whole shape; 15 adds the start and end
// attributes; 19, 21, 23, 24 and 25 only widen the element types. start and
// end count from the end when negative and are then clamped to [0, r]
// (r = rank(X)), never an error: a start past the end gives an empty shape.
// start defaults to 0, end to r. Before version 15, a node that sets start or
// end is refused (rule [attribute]), as the ONNX checker refuses it.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Shape", []int{1, 13, 15, 19, 21, 23, 24, 25}, [2]int{1, 1}, [2]int{1, 1}, shapeNode)
}

// ShapeOptions are the parameters of Shape.
type ShapeOptions struct {
	// Start is the first axis whose dim is returned; negative values count
	// from the end. Out-of-range values are clamped.
	Start int
	// End is the axis after the last one returned; nil means the rank.
	// Negative values count from the end; out-of-range values are clamped.
	End *int
}

// Shape returns the dims of data from o.Start to o.End as a 1-D int64
// tensor (ONNX Shape, version 25). Out-of-range bounds are clamped: the only
// error is a nil or zero data.
func Shape(data *tensor.Tensor, o ShapeOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Shape", 25}
	if _, err := callOptions(op, opts); err != nil {
		return nil, err
	}
	if err := checkInput(op, "data", data); err != nil {
		return nil, err
	}
	return shapeOf(data, o.Start, o.End), nil
}

func shapeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	start, end := 0, (*int)(nil)
	if n.Version < 15 && (n.Has("start") || n.Has("end")) {
		return nil, n.op().errorf("attribute", "attributes start and end exist from version 15 on")
	}
	if n.Version >= 15 {
		if start, err = n.intAttr("start", 0, "start"); err != nil {
			return nil, err
		}
		if n.Has("end") {
			e, err := n.intAttr("end", 0, "end")
			if err != nil {
				return nil, err
			}
			end = &e
		}
	}
	// The output comes from the run's allocator, in a header the run
	// lends: a warm pooled run of Shape allocates nothing.
	opt = opt.orDefault()
	dims := shapeInterval(x.Shape(), start, end)
	y, err := opt.newOverwritten(n.op(), tensor.Int64, []int{len(dims)})
	if err != nil {
		return nil, err
	}
	v := asElems[int64](y.Bytes())
	for i, d := range dims {
		v[i] = int64(d)
	}
	return opt.result(y), nil
}

// shapeOf returns the selected dims of x as an int64 tensor.
func shapeOf(x *tensor.Tensor, start int, end *int) *tensor.Tensor {
	dims := shapeInterval(x.Shape(), start, end)
	v := make([]int64, len(dims))
	for i, d := range dims {
		v[i] = int64(d)
	}
	return tensor.MustFromSlice(v)
}

// shapeInterval returns the dims of in from start to end, after counting
// negative values from the end and clamping both to [0, len(in)].
func shapeInterval(in []int, start int, end *int) []int {
	r := len(in)
	clamp := func(a int) int {
		if a < 0 {
			a += r
		}
		return min(max(a, 0), r)
	}
	lo, hi := clamp(start), r
	if end != nil {
		hi = clamp(*end)
	}
	if lo >= hi {
		return []int{}
	}
	return in[lo:hi]
}
