package graph

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// fuseGated finds, among the chains fuseChains made, the gates of
// convolutional networks: X*Sigmoid(X) (EfficientNet's SiLU) and
// X*HardSigmoid(X) (HardSwish in MobileNetV3 exports before opset 14),
// X the output of a Conv (through its folded BatchNormalization, bias or
// residual Add) that only the two nodes read. The Conv then applies the
// gate to each block of X as it finishes it (ops.FuseGatedActivation),
// while the block is in the cache, instead of the chain's separate pass
// over X: the same bits. In a run that fuses, the chain's sink then passes
// X through as the other nodes of the chain do, when X is float32; for
// other types the Conv applies no gate and the sink runs the chain
// (ops.GatedFloat32 is the rule both sides read).
func (m *Model) fuseGated(opts LoadOptions) {
	if opts.NoFuse {
		return
	}
	readers, producer, _ := m.dataflow()
	for i := range m.steps {
		sink := &m.steps[i]
		c := sink.chain
		if c == nil || c.chain == nil || len(c.steps) != 2 || sink.node.OpType != "Mul" || len(sink.in) != 2 {
			continue
		}
		act := c.steps[0]
		x := c.root
		if act.node == nil || len(act.in) != 1 || act.in[0] != x || readers[x] != 2 || readers[act.out[0]] != 1 {
			continue
		}
		if !(sink.in[0] == x && sink.in[1] == act.out[0]) && !(sink.in[1] == x && sink.in[0] == act.out[0]) {
			continue
		}
		p := m.gatedOrigin(x, readers, producer)
		if p == nil || !ops.FuseGatedActivation(p.node, act.node, sink.node) {
			continue
		}
		c.gated = true
		m.fusions++
	}
}

// gatedOrigin returns the Conv step computing x, through the steps that
// pass its output on (a folded BatchNormalization, a bias or residual
// Add), each value on the way read by the next step alone; nil if none.
func (m *Model) gatedOrigin(x int, readers, producer []int) *step {
	for depth := 0; depth < 8 && x >= 0 && producer[x] >= 0; depth++ {
		p := &m.steps[producer[x]]
		if p.chain != nil || len(p.implicit) != 0 || len(p.out) != 1 {
			return nil
		}
		if !p.passThrough {
			if p.node == nil || p.node.OpType != "Conv" || p.node.Domain != "" || p.schema == nil {
				return nil
			}
			return p
		}
		if p.passShared {
			return nil
		}
		x = p.in[p.passIn]
		if readers[x] != 1 {
			return nil
		}
	}
	return nil
}

// gatedPasses reports whether st, a gated chain's sink, passes X (the
// chain's input t) through in a run that fuses: the Conv gated it.
func gatedPasses(t tensor.Value) bool {
	x, ok := t.(*tensor.Tensor)
	return ok && ops.GatedFloat32(x.DataType())
}
