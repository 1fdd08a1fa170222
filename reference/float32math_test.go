package reference_test

import (
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Sigmoid, Tanh, Erf and the functions of float32Nodes agree bit for bit between the engines on a dense
// sweep of float32 (every 8191st bit pattern, both signs, with the
// infinities, NaN, zeros and the algorithms' branch points), in float,
// float16 and bfloat16, in a tensor whose length is no multiple of the
// vector loops' 8, at 1 and 2 threads.
func TestFloat32FunctionsAgreeOnASweep(t *testing.T) {
	var xs []float32
	for b := uint32(0); b < 0x7f800000; b += 8191 {
		x := math.Float32frombits(b)
		xs = append(xs, x, -x)
	}
	inf := float32(math.Inf(1))
	xs = append(xs, inf, -inf, float32(math.NaN()), float32(math.Copysign(0, -1)), 0.625, -0.625, 0.921875, -0.921875, 4, -4, 9.5, 104, -104,
		-3, 3, -0.5, 0.5, 1, -1, 0.34657359, -0.34657359, 0.3465736, -0.3465736, 0x1p-127, -0x1p-127, 10, -10)
	for _, v := range []float32{65536, 65537, 4096, 4097, 1.5, 2.4142137, 0.41421357, 89.5, 90, 1e10, 0.7853982, 1.5707964, 3.1415927} {
		xs = append(xs, v, -v, math.Nextafter32(v, 0), -math.Nextafter32(v, 0))
	}
	x32 := tensor.MustFromSlice(xs, len(xs))
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Float16, tensor.BFloat16} {
		x := x32
		if dt != tensor.Float {
			y, err := ops.Cast(x32, ops.CastOptions{To: dt})
			if err != nil {
				t.Fatal(err)
			}
			x = y
		}
		for _, op := range []string{"Sigmoid", "Tanh", "Erf"} {
			n := &ops.Node{OpType: op, Version: 13}
			if !compareEngines(t, ops.ProfileONNX, n, []tensor.Value{x}) {
				t.Fatalf("%s on %v produced no output", op, dt)
			}
		}
		for _, n := range float32Nodes() {
			if dt != tensor.Float && n.OpType == "Celu" && n.Version == 12 || dt == tensor.BFloat16 && n.OpType == "Shrink" {
				continue
			}
			if !compareEngines(t, ops.ProfileONNX, n, []tensor.Value{x}) {
				t.Fatalf("%s on %v produced no output", n.OpType, dt)
			}
		}
	}
}

// float32Nodes are the nodes of the operators whose float32 algorithms
// live in ops/internal/mathf beside Sigmoid, Tanh and Erf (with attributes
// other than the defaults too), the circular and hyperbolic ones among them.
func float32Nodes() []*ops.Node {
	f := func(v float32) ops.Attribute { return ops.Attribute{Type: ops.AttrFloat, Float: v} }
	s := func(v string) ops.Attribute { return ops.Attribute{Type: ops.AttrString, String: v} }
	return []*ops.Node{
		{OpType: "Exp", Version: 13}, {OpType: "Log", Version: 13},
		{OpType: "Softplus", Version: 22}, {OpType: "Mish", Version: 22},
		{OpType: "Gelu", Version: 20}, {OpType: "Gelu", Version: 20, Attrs: map[string]ops.Attribute{"approximate": s("tanh")}},
		{OpType: "Swish", Version: 24}, {OpType: "Swish", Version: 24, Attrs: map[string]ops.Attribute{"alpha": f(-1.7)}},
		{OpType: "Elu", Version: 22}, {OpType: "Elu", Version: 22, Attrs: map[string]ops.Attribute{"alpha": f(0.3)}},
		{OpType: "Selu", Version: 22}, {OpType: "Selu", Version: 22, Attrs: map[string]ops.Attribute{"alpha": f(2), "gamma": f(0.5)}},
		{OpType: "Celu", Version: 12}, {OpType: "Celu", Version: 12, Attrs: map[string]ops.Attribute{"alpha": f(-0.7)}},
		{OpType: "HardSigmoid", Version: 22}, {OpType: "HardSigmoid", Version: 22, Attrs: map[string]ops.Attribute{"alpha": f(-1.3), "beta": f(0.1)}},
		{OpType: "HardSwish", Version: 22}, {OpType: "Softsign", Version: 22},
		{OpType: "LeakyRelu", Version: 16}, {OpType: "LeakyRelu", Version: 16, Attrs: map[string]ops.Attribute{"alpha": f(-3)}},
		{OpType: "ThresholdedRelu", Version: 22}, {OpType: "ThresholdedRelu", Version: 22, Attrs: map[string]ops.Attribute{"alpha": f(-0.5)}},
		{OpType: "Shrink", Version: 9}, {OpType: "Shrink", Version: 9, Attrs: map[string]ops.Attribute{"lambd": f(1.5), "bias": f(-2)}},
		{OpType: "Sin", Version: 22}, {OpType: "Cos", Version: 22}, {OpType: "Tan", Version: 22},
		{OpType: "Asin", Version: 22}, {OpType: "Acos", Version: 22}, {OpType: "Atan", Version: 22},
		{OpType: "Sinh", Version: 22}, {OpType: "Cosh", Version: 22}, {OpType: "Asinh", Version: 22},
		{OpType: "Acosh", Version: 22}, {OpType: "Atanh", Version: 22},
	}
}
