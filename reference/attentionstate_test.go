package reference_test

import (
	"math/rand/v2"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The stateful members of the attention family (opset 27): random nodes
// for TestAttentionFamilyEnginesAgree.
func init() {
	attentionGenerators["CausalConvWithState"] = randCausalConvWithState
}

// randCausalConvWithState draws a convolution with or without bias, past
// state and activation; now and then a refused one.
func randCausalConvWithState(r *rand.Rand) (*ops.Node, []tensor.Value) {
	dt := []tensor.DataType{tensor.Float, tensor.Float16, tensor.BFloat16}[r.IntN(3)]
	batch, channels, length, k := 1+r.IntN(2), 1+r.IntN(4), 1+r.IntN(6), 1+r.IntN(4)
	act := []string{"none", "silu", "swish"}[r.IntN(3)]
	if r.IntN(30) == 0 {
		act = "relu" // refused
	}
	attrs := map[string]ops.Attribute{"activation": attrStr(act)}
	in := []tensor.Value{randTensor(r, dt, []int{batch, channels, length}, -3, 3, false),
		randTensor(r, dt, []int{channels, 1, k}, -1, 1, false), nil, nil}
	if r.IntN(2) == 0 {
		in[2] = randTensor(r, dt, []int{channels}, -1, 1, false)
	}
	if r.IntN(2) == 0 {
		km1 := k - 1
		if r.IntN(30) == 0 {
			km1 = k // refused
		}
		in[3] = randTensor(r, dt, []int{batch, channels, km1}, -3, 3, false)
	}
	return &ops.Node{OpType: "CausalConvWithState", Version: 27, Attrs: attrs, NumOutputs: 2}, in
}
