package reference_test

import (
	"math/rand/v2"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Random LSTM, GRU and RNN nodes: every direction, layout, optional input
// and attribute, the activations with their alpha and beta, now and then a
// broken shape, activation, direction or type. The engines must agree
// within the bound reference.Agree states for the recurrent operators.
func init() {
	for _, op := range []string{"LSTM", "GRU", "RNN"} {
		generators[op] = func(r *rand.Rand) (*ops.Node, []tensor.Value) { return randRecurrent(r, op) }
	}
}

var recurrentActivations = []string{"Relu", "Tanh", "Sigmoid", "Affine", "LeakyRelu", "ThresholdedRelu",
	"ScaledTanh", "HardSigmoid", "Elu", "Softsign", "Softplus"}

func randRecurrent(r *rand.Rand, op string) (*ops.Node, []tensor.Value) {
	n, in := randRecurrentSized(r, op, false)
	// Drawn after the small node, so that the nodes drawn before stay
	// those they were (the mutation tests start from the first).
	if r.IntN(6) == 0 {
		return randRecurrentSized(r, op, true)
	}
	return n, in
}

// randRecurrentSized draws a node; large ones run at batch 1 with 64 to
// 143 hidden.
func randRecurrentSized(r *rand.Rand, op string, large bool) (*ops.Node, []tensor.Value) {
	v := pickVersion(r, op)
	gates, perDir, outputs := map[string][3]int{"LSTM": {4, 3, 3}, "GRU": {3, 2, 2}, "RNN": {1, 1, 2}}[op][0],
		map[string]int{"LSTM": 3, "GRU": 2, "RNN": 1}[op], map[string]int{"LSTM": 3, "GRU": 2, "RNN": 2}[op]
	n := &ops.Node{OpType: op, Version: v, Attrs: map[string]ops.Attribute{}, NumOutputs: 1 + r.IntN(outputs)}
	dt := []tensor.DataType{tensor.Float, tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}[r.IntN(5)]
	seq, batch, input, hidden := r.IntN(6), 1+r.IntN(3), 1+r.IntN(4), 1+r.IntN(5)
	if r.IntN(20) == 0 {
		seq, batch = 0, r.IntN(2)
	}
	if large {
		// Batch 1, hidden 64 to 143: each step's products are single
		// rows, most of them 128 columns wide or more, which the
		// matrix-product engine runs through its row kernels.
		batch, hidden = 1, 64+r.IntN(80)
	}
	// R's values shrink with the hidden size, so that the unbounded
	// activations do not overflow in a few steps (where float32 and the
	// reference's arithmetic part at Inf).
	rScale := 0.7
	if hidden > 5 {
		rScale = 0.05
	}
	dirs := 1
	switch r.IntN(3) {
	case 1:
		n.Attrs["direction"] = attrStr("reverse")
	case 2:
		n.Attrs["direction"] = attrStr("bidirectional")
		dirs = 2
	}
	if r.IntN(40) == 0 {
		n.Attrs["direction"] = attrStr("sideways") // [direction]
	}
	layout := 0
	if v >= 14 && r.IntN(2) == 0 {
		layout = 1
		n.Attrs["layout"] = attrInt(1)
	}
	if r.IntN(3) == 0 {
		n.Attrs["hidden_size"] = attrInt(hidden + map[bool]int{true: 1}[r.IntN(30) == 0])
	}
	if r.IntN(4) == 0 {
		n.Attrs["clip"] = ops.Attribute{Type: ops.AttrFloat, Float: float32(0.2 + 2*r.Float64())}
	}
	if op == "LSTM" && r.IntN(4) == 0 {
		n.Attrs["input_forget"] = attrInt(1)
	}
	if op == "GRU" && v >= 3 && r.IntN(2) == 0 {
		n.Attrs["linear_before_reset"] = attrInt(1)
	}
	if r.IntN(3) == 0 {
		count := perDir * dirs
		if dirs == 2 && r.IntN(3) == 0 {
			count = perDir
		}
		names := make([]string, count)
		for i := range names {
			names[i] = recurrentActivations[r.IntN(len(recurrentActivations))]
		}
		if r.IntN(40) == 0 {
			names[0] = "Swish" // [activations]
		}
		n.Attrs["activations"] = ops.Attribute{Type: ops.AttrStrings, Strings: names}
		if r.IntN(2) == 0 {
			n.Attrs["activation_alpha"] = ops.Attribute{Type: ops.AttrFloats, Floats: []float32{0.5, 1.5, 0.1, 0.9}[:r.IntN(5)]}
		}
		if r.IntN(2) == 0 {
			n.Attrs["activation_beta"] = ops.Attribute{Type: ops.AttrFloats, Floats: []float32{0.3, -0.2, 0.7}[:r.IntN(4)]}
		}
	}
	xShape := []int{seq, batch, input}
	state := []int{dirs, batch, hidden}
	if layout == 1 {
		xShape = []int{batch, seq, input}
		state = []int{batch, dirs, hidden}
	}
	wShape := []int{dirs, gates * hidden, input}
	if r.IntN(40) == 0 {
		wShape[1]++ // [shape]
	}
	in := []tensor.Value{
		randTensor(r, dt, xShape, -1, 1, false),
		randTensor(r, dt, wShape, -0.7, 0.7, false),
		randTensor(r, dt, []int{dirs, gates * hidden, hidden}, -rScale, rScale, false),
	}
	maxIn := 6
	if op == "LSTM" {
		maxIn = 8
	}
	for i := 3; i < maxIn; i++ {
		if r.IntN(2) == 0 {
			in = append(in, nil)
			continue
		}
		switch i {
		case 3:
			in = append(in, randTensor(r, dt, []int{dirs, 2 * gates * hidden}, -0.5, 0.5, false))
		case 4:
			in = append(in, randTensor(r, tensor.Int32, []int{batch}, 0, float64(seq), false))
		case 5, 6:
			in = append(in, randTensor(r, dt, state, -1, 1, false))
		case 7:
			in = append(in, randTensor(r, dt, []int{dirs, 3 * hidden}, -0.5, 0.5, false))
		}
	}
	return n, in
}
