// SwiGLU gates its value input B with the Swish of its gate input A:
// Y = A*sigmoid(alpha*A) * B elementwise; alpha defaults to 1. Unlike the
// arithmetic operators it does not broadcast: A and B have one shape, the
// output's.
//
// Versions: 28. The rules: [type] A is of a float type (float16, float,
// double, bfloat16) and B of A's; [shape] B has A's shape. float32 is
// computed in float64 and rounded once; float16 and bfloat16 through
// float32.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

var swigluOp = &binaryOp{
	name: "SwiGLU", types: versionTypes{28: floatBFTypes},
	kernel: func(n *Node, dt tensor.DataType) (binaryKernel, error) {
		alpha, err := n.Float("alpha", 1)
		if err != nil {
			return nil, err
		}
		a := float64(alpha)
		f32 := binaryFunc(func(gate, value float32) float32 {
			return float32(swish(a, float64(gate)) * float64(value))
		})
		f64 := binaryFunc(func(gate, value float64) float64 { return swish(a, gate) * value })
		return fixedKernels(numberBinaries([8]binaryKernel{}, f32, f64))(n, dt)
	},
}

func init() {
	register("SwiGLU", []int{28}, [2]int{2, 2}, [2]int{1, 1}, swigluNode)
	declareAttrs("SwiGLU", AttrSpec{Name: "alpha", Type: AttrFloat})
}

func swigluNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	gate, err := n.requiredInput(in, 0, "A")
	if err != nil {
		return nil, err
	}
	value, err := n.requiredInput(in, 1, "B")
	if err != nil {
		return nil, err
	}
	if err := swigluOp.types.check(n.op(), "A", gate.DataType()); err != nil {
		return nil, err
	}
	if !tensor.SameShape(gate.Shape(), value.Shape()) {
		return nil, n.op().errorf("shape", "B of shape %v must have A's shape %v (SwiGLU does not broadcast)", value.Shape(), gate.Shape())
	}
	y, err := swigluOp.apply(opt, n, gate, value)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}
