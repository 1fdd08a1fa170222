package graph

import (
	"slices"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// fuseBlocks finds the inverted residual blocks of MobileNetV2/V3: a 1x1
// Conv expanding X's channels, a depthwise Conv, a 1x1 Conv projecting
// them back, each Conv's output (through the steps fused into it: a folded
// BatchNormalization, a bias Add, an activation) read by the next Conv
// alone, the three Convs' weights and the first two's biases constants. The
// projection then runs the three (ops.FuseBlock: band by band, the
// expanded tensor kept in the cache; the same bits), and in a run that
// fuses the expansion and the depthwise pass X through to it, as the steps
// fused into them already pass their inputs. X may have other readers (a
// residual block's shortcut) when one of them runs no sooner than the
// projection, so that X is still there when it runs.
func (m *Model) fuseBlocks(opts LoadOptions) {
	if opts.NoFuse {
		return
	}
	readers, producer, consts := m.dataflow()
	for i := range m.steps {
		p := &m.steps[i]
		if !blockConv(p) {
			continue
		}
		dw := m.convBehind(p.in[0], readers, producer)
		if dw == nil || len(dw.in) < 2 {
			continue
		}
		ex := m.convBehind(dw.in[0], readers, producer)
		if ex == nil || len(ex.in) < 2 || ex.in[0] < 0 {
			continue
		}
		wE, bE, okE := constWeights(ex, consts)
		wD, bD, okD := constWeights(dw, consts)
		wP, okP := consts[p.in[1]]
		if !okE || !okD || !okP {
			continue
		}
		x := ex.in[0]
		shared := readers[x] > 1
		if shared && !m.readFrom(x, i) {
			continue
		}
		if !ops.FuseBlock(ex.node, dw.node, p.node, wE, bE, wD, bD, wP) {
			continue
		}
		ex.passThrough, ex.passIn, ex.passShared, ex.into = true, 0, shared, p
		dw.passThrough, dw.passIn, dw.into = true, 0, p
		m.fusions += 2
	}
}

// blockConv reports a Conv step that may be one of a block's three.
func blockConv(st *step) bool {
	return st.node != nil && st.node.OpType == "Conv" && st.node.Domain == "" && st.schema != nil && !st.passThrough &&
		st.chain == nil && len(st.implicit) == 0 && len(st.out) == 1 && len(st.in) >= 2 && st.in[0] >= 0
}

// convBehind returns the Conv step computing slot s through the steps
// fused into it, s and every value on the way read by the next step alone;
// nil if none, or if that Conv fused a residual.
func (m *Model) convBehind(s int, readers, producer []int) *step {
	var passed []*step
	for depth := 0; depth < 8; depth++ {
		if s < 0 || readers[s] != 1 || producer[s] < 0 {
			return nil
		}
		st := &m.steps[producer[s]]
		if !st.passThrough {
			if !blockConv(st) || st.residual != 0 {
				return nil
			}
			for _, q := range passed {
				if q.into != st {
					return nil
				}
			}
			return st
		}
		if st.passShared || st.chain != nil || len(st.out) != 1 {
			return nil
		}
		passed = append(passed, st)
		s = st.in[st.passIn]
	}
	return nil
}

// constWeights returns st's weights and bias (nil when absent) when they
// are constants.
func constWeights(st *step, consts map[int]*tensor.Tensor) (w, b *tensor.Tensor, ok bool) {
	if w, ok = consts[st.in[1]]; !ok {
		return nil, nil, false
	}
	if len(st.in) > 2 && st.in[2] >= 0 {
		if b, ok = consts[st.in[2]]; !ok {
			return nil, nil, false
		}
	}
	return w, b, len(st.in) <= 3
}

// readFrom reports whether slot x is a graph output or read by a step at
// position i or later.
func (m *Model) readFrom(x, i int) bool {
	if slices.Contains(m.outSlots, x) {
		return true
	}
	for j := i; j < len(m.steps); j++ {
		st := &m.steps[j]
		if slices.Contains(st.in, x) || slices.Contains(st.implicit, x) || st.residual == x+1 {
			return true
		}
	}
	return false
}
