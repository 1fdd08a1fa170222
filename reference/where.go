// Where, versions 9, 16. ONNX Operators.md:
//
// "Return elements, either from X or Y, depending on condition. Where
// behaves like numpy.where with three parameters."

package reference

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Where", []int{9, 16}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		ts, err := inputs(in)
		if err != nil {
			return nil, err
		}
		if len(ts) != 3 || ts[0] == nil || ts[1] == nil || ts[2] == nil {
			return nil, fmt.Errorf("Where takes three inputs")
		}
		out, err := elementwiseN(opt, ts[1].DataType(), func(x []scalar) scalar {
			if x[0].b {
				return x[1]
			}
			return x[2]
		}, ts...)
		if err != nil {
			return nil, err
		}
		return []tensor.Value{out}, nil
	})
}
