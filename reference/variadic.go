package reference

// Sum, Mean, Max and Min: folded over their inputs from the first to the
// last, each partial result rounded to the type (as a model computing them
// pairwise would).

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// fold is the kernel of a variadic operator: step combines the partial
// result with the next input's element, finish (if set) ends the result.
func fold(step func(acc, x scalar) scalar, finish func(acc scalar, count int) scalar) ops.Kernel {
	return func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		ts, err := inputs(in)
		if err != nil {
			return nil, err
		}
		if len(ts) == 0 {
			return nil, fmt.Errorf("%s takes one or more inputs", n.OpType)
		}
		dt := ts[0].DataType()
		out, err := elementwiseN(opt, dt, func(x []scalar) scalar {
			acc := x[0]
			for _, v := range x[1:] {
				acc = roundTo(dt, step(acc, v))
			}
			if finish != nil {
				acc = finish(acc, len(x))
			}
			return acc
		}, ts...)
		if err != nil {
			return nil, err
		}
		return []tensor.Value{out}, nil
	}
}
