// Bernoulli (versions 15 and 22) draws, for each probability p of its
// input (float16, float, double, and bfloat16 from 22), 1 with
// probability p and 0 otherwise: 1 where the generator's Float64() < p.
// The output has the input's shape and dtype's type (the input's by
// default): any integer or float type, or bool. The generator is
// randomuniform.go's: deterministic given seed; refused under SONNX. Rules:
// [profile], [type] of the input, [dtype], [size].

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Bernoulli", []int{15, 22}, [2]int{1, 1}, [2]int{1, 1}, bernoulliNode)
	randomAttrs("Bernoulli")
}

// bernoulliOutputs are the types Bernoulli may produce.
var bernoulliOutputs = typesOf(tensor.Float16, tensor.Float, tensor.Double, tensor.BFloat16, tensor.Bool,
	tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64)

func bernoulliNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	r, err := randomSource(opt, n)
	if err != nil {
		return nil, err
	}
	if !randomTypes(n.Version).has(x.DataType()) {
		return nil, op.errorf("type", "input must be a float type version %d takes, got %v", n.Version, x.DataType())
	}
	dt, err := randomDtype(n, x.DataType(), bernoulliOutputs)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, dt, x.Shape())
	if err != nil {
		return nil, err
	}
	if err := randomFill(opt, op, y, func(dst []float64, lo int) {
		convert.DecodeFloats(dst, x, lo) // the probabilities, replaced by the draws
		for i, p := range dst {
			one := 0 // an integer select, not a branch: u < p is a coin toss
			if r.uniform() < p {
				one = 1
			}
			dst[i] = float64(one)
		}
	}); err != nil {
		return nil, err
	}
	return opt.result(y), nil
}
