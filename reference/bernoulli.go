// Bernoulli (versions 15 and 22), after the ONNX specification: "Draws
// binary random numbers (0 or 1) from a Bernoulli distribution. The input
// tensor should be a tensor containing probabilities p (a value in the
// range [0,1]) to be used for drawing the binary random number, where an
// output of 1 is produced with probability p and an output of 0 is
// produced with probability (1-p)." T1: float16, float, double (and
// bfloat16 from 22); T2 (dtype, the input's type by default): the
// numeric types and bool. The generator is that of ops/randomuniform.go.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("Bernoulli", []int{15, 22}, bernoulli) }

func bernoulli(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	r, err := randomGenerator(opt, n)
	if err != nil {
		return nil, err
	}
	if !randomFloatTypes(n.Version)[x.DataType()] {
		return nil, op.errorf("type", "input must be a float type")
	}
	outputs := randomFloatTypes(22)
	for _, dt := range []tensor.DataType{tensor.Bool, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64,
		tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64} {
		outputs[dt] = true
	}
	dt, err := randomOutputType(n, x.DataType(), outputs)
	if err != nil {
		return nil, err
	}
	return randomOfShape(opt, n, dt, x.Shape(), func(k int) float64 {
		if r.Float64() < realOf(elementAt(x, k)) {
			return 1
		}
		return 0
	})
}
