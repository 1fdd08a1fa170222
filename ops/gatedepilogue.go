package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

// FuseGatedActivation makes act, a Sigmoid or HardSigmoid of p's output X,
// and mul, the Mul of X by act's output (in either order), p's epilogue:
// each finished float32 block of X becomes X*act(X) while it is in the
// cache (EfficientNet's SiLU, x*Sigmoid(x); HardSwish spelled
// x*HardSigmoid(x) in MobileNetV3 exports before opset 14). p is a Conv
// with no activation fused yet. It reports whether they fused. The bits
// are those of the nodes unfused: act's own float32 loop, then one float32
// product per element (X*Y and Y*X round alike; where both are NaNs they
// are the same one, act passing X's NaN on). Outputs of another type get
// no epilogue: the graph then runs act and mul itself (GatedFloat32).
func FuseGatedActivation(p, act, mul *Node) bool {
	if p == nil || act == nil || mul == nil || p.OpType != "Conv" || p.Domain != "" || act.Domain != "" || mul.Domain != "" || mul.OpType != "Mul" {
		return false
	}
	if act.OpType != "Sigmoid" && act.OpType != "HardSigmoid" {
		return false
	}
	if p.fusion != nil && p.fusion.act != nil {
		return false
	}
	g, err := gatedSpan(act)
	if err != nil {
		return false
	}
	if p.fusion == nil {
		p.fusion = &nodeFusion{}
	}
	p.fusion.act, p.fusion.actIn, p.fusion.gate = act, nil, g
	return true
}

// GatedFloat32 reports whether a Conv's output of type dt gets its fused
// gated activation as its epilogue (FuseGatedActivation): only float32 does.
func GatedFloat32(dt tensor.DataType) bool { return dt == tensor.Float }

// gatedBlock is the number of elements a gated epilogue computes act of at
// a time, into an array on the stack.
const gatedBlock = 256

// gatedSpan returns the float32 span o[i] = a[i] * act(a[i]) (o and a the
// same slice or apart), act's values those of its own float32 kernel.
func gatedSpan(act *Node) (unarySpan[float32, float32], error) {
	switch act.OpType {
	case "Sigmoid":
		return func(o, a []float32) {
			var g [gatedBlock]float32
			for len(o) > 0 {
				n := min(len(o), gatedBlock)
				mathf.SigmoidsTo(g[:n], a[:n])
				gate(o[:n], a[:n], g[:n])
				o, a = o[n:], a[n:]
			}
		}, nil
	case "HardSigmoid":
		alpha, err := act.Float("alpha", 0.2)
		if err != nil {
			return nil, err
		}
		beta, err := act.Float("beta", 0.5)
		if err != nil {
			return nil, err
		}
		return func(o, a []float32) {
			var g [gatedBlock]float32
			for len(o) > 0 {
				n := min(len(o), gatedBlock)
				mathf.HardSigmoidsTo(g[:n], a[:n], alpha, beta)
				gate(o[:n], a[:n], g[:n])
				o, a = o[n:], a[n:]
			}
		}, nil
	}
	return nil, act.op().errorf("", "not a gate")
}

// gate is o[i] = a[i] * g[i], one float32 rounding each.
func gate(o, a, g []float32) { elementwise.MulF32(o, a, g) }
