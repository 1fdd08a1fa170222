package graph

import (
	"slices"

	"github.com/onnxshape/onnxshape/ops"
)

// fuseScaled finds the squeeze-and-excitation scales of EfficientNet and
// MobileNetV3: a Mul of two computed values (the depthwise convolution's
// output and the excitation's per-channel scale, computed from a
// GlobalAveragePool) whose output only a 1x1
// Conv with constant weights and bias reads. The Mul then runs the Conv
// on its product band by band (ops.FuseScaledProjection: the product never
// materialised, the same bits), and in a run that fuses the Conv's step
// passes the Mul's output, now the Conv's, through, as the steps fused
// into the Conv already pass it on. A residual Add the Conv fused follows
// the Mul's inputs instead, when its other input is computed before the
// Mul runs.
func (m *Model) fuseScaled(opts LoadOptions) {
	if opts.NoFuse {
		return
	}
	readers, producer, consts := m.dataflow()
	for i := range m.steps {
		st := &m.steps[i]
		n := st.node
		if n == nil || n.OpType != "Mul" || n.Domain != "" || st.schema == nil || st.passThrough || st.chain != nil ||
			len(st.in) != 2 || st.in[0] < 0 || st.in[1] < 0 || len(st.out) != 1 || st.out[0] < 0 ||
			len(st.implicit) != 0 || st.residual != 0 || readers[st.out[0]] != 1 || slices.Contains(m.outSlots, st.out[0]) {
			continue
		}
		if _, c := consts[st.in[0]]; c {
			continue
		}
		if _, c := consts[st.in[1]]; c {
			continue
		}
		if !m.pooledScale(st.in[0], producer) && !m.pooledScale(st.in[1], producer) {
			continue // not an excitation: the shapes would rarely fit
		}
		var p *step
		for j := i + 1; j < len(m.steps) && p == nil; j++ {
			if q := &m.steps[j]; slices.Contains(q.in, st.out[0]) {
				p = q
			}
		}
		if p == nil || !blockConv(p) || p.in[0] != st.out[0] || slices.Contains(p.in[1:], st.out[0]) {
			continue
		}
		w, b, ok := constWeights(p, consts)
		if !ok {
			continue
		}
		if p.residual > 0 && producer[p.residual-1] >= i {
			continue // the residual is computed after the Mul runs
		}
		if !ops.FuseScaledProjection(n, p.node, w, b) {
			continue
		}
		st.residual, p.residual = p.residual, 0
		st.prepared = nil
		p.passThrough, p.passIn, p.into = true, 0, st
		m.fusions++
	}
}

// pooledScale reports whether slot s is computed from a GlobalAveragePool
// (or a ReduceMean) through at most six steps along their first inputs:
// a squeeze-and-excitation's scale, N x C x 1 x 1, as FuseScaledProjection
// needs at run time (otherwise the Mul and the Conv run one after the
// other, the product a tensor the run does not recycle).
func (m *Model) pooledScale(s int, producer []int) bool {
	for depth := 0; depth < 6 && s >= 0 && producer[s] >= 0; depth++ {
		st := &m.steps[producer[s]]
		if st.node == nil || len(st.in) == 0 {
			return false
		}
		if st.node.Domain == "" && (st.node.OpType == "GlobalAveragePool" || st.node.OpType == "ReduceMean") {
			return true
		}
		s = st.in[0]
	}
	return false
}
