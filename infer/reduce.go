package infer

import (
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// Reductions: the reduced axes become 1 (keepdims, the default) or go.
// The axes are an attribute until version 13 for ReduceSum and 18 for the
// others, the second input after; no axes means every axis, unless
// noop_with_empty_axes.

func init() {
	register(reduceRule(13), "ReduceSum")
	register(reduceRule(18), "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
		"ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare")
	register(argRule, "ArgMax", "ArgMin")
}

func reduceRule(axesInputFrom int) rule {
	return func(c *call, in []*Value) ([]*Value, error) {
		x := input(in, 0)
		dt := typeOf(in, 0)
		keep := c.int("keepdims", 1) == 1
		var axes []int64
		given := false
		if c.version() < axesInputFrom {
			axes, given = c.ints("axes")
		} else if a := input(in, 1); a != nil {
			var ok bool
			if axes, ok = intsInput(a); !ok {
				// Axes known by their number only: the rank is known.
				_, n := shapeInput(a)
				switch {
				case x.Rank() < 0:
					return []*Value{Unknown(dt)}, nil
				case keep:
					return []*Value{ranked(dt, c.freshShape(x.Rank()))}, nil
				case n > 0 && n <= x.Rank():
					return []*Value{ranked(dt, c.freshShape(x.Rank()-n))}, nil
				}
				return []*Value{Unknown(dt)}, nil
			}
			given = len(axes) > 0
		}
		if x.Rank() < 0 {
			return []*Value{Unknown(dt)}, nil
		}
		if !given && c.int("noop_with_empty_axes", 0) == 1 {
			return []*Value{same(x)}, nil
		}
		return []*Value{c.reduced(x, axes, given, keep)}, nil
	}
}

// reduced returns x with axes reduced (every axis when not given).
func (c *call) reduced(x *Value, axes []int64, given, keep bool) *Value {
	drop := map[int]bool{}
	if given {
		ax, err := c.normAxes(axes, x.Rank())
		if err != nil {
			return Unknown(x.Type)
		}
		for _, k := range ax {
			drop[k] = true
		}
	} else {
		for k := range x.Shape {
			drop[k] = true
		}
	}
	out := ranked(x.Type, []graph.Dim{})
	for k, d := range x.Shape {
		switch {
		case !drop[k]:
			out.Shape = append(out.Shape, d)
		case keep:
			out.Shape = append(out.Shape, graph.Const(1))
		}
	}
	return out
}

func argRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() < 0 {
		return []*Value{Unknown(tensor.Int64)}, nil
	}
	axis, err := c.normAxis(c.int("axis", 0), x.Rank())
	if err != nil {
		return nil, err
	}
	out := c.reduced(x, []int64{int64(axis)}, true, c.int("keepdims", 1) == 1)
	out.Type = tensor.Int64
	return []*Value{out}, nil
}
