package graph

import "github.com/onnxshape/onnxshape/ops"

// fuseFronts finds the fronts of the squeeze-and-excitation blocks that
// fuseBlocks left (EfficientNet's: the depthwise output is read by the
// excitation too): a 1x1 Conv expanding X's channels and a depthwise Conv
// over its output (through the steps fused into the expansion: a folded
// BatchNormalization, a bias Add, an activation or a gate x*act(x)), each
// value on the way read by the next step alone, the depthwise Conv's
// weights and bias constants. The expansion then runs the depthwise Conv
// too (ops.FuseFront: by bands on the large planes, the expanded tensor
// never whole; the same bits), and in a run that fuses the depthwise
// Conv's step passes its input, now its output, through, as the steps
// between the two already pass theirs.
func (m *Model) fuseFronts(opts LoadOptions) {
	if opts.NoFuse {
		return
	}
	readers, producer, consts := m.dataflow()
	for i := range m.steps {
		dw := &m.steps[i]
		if !blockConv(dw) || dw.residual != 0 {
			continue
		}
		ex := m.expansionBehind(dw.in[0], readers, producer)
		if ex == nil {
			continue
		}
		wE, okE := consts[ex.in[1]]
		wD, bD, okD := constWeights(dw, consts)
		if !okE || !okD || !ops.FuseFront(ex.node, dw.node, wE, wD, bD) {
			continue
		}
		dw.passThrough, dw.passIn, dw.into = true, 0, ex
		m.fusions++
	}
}

// expansionBehind returns the Conv step computing slot s through the steps
// fused into it and its gate, s and every value on the way read by the
// next step alone (the gated value by the gate's two nodes); nil if none,
// or if that Conv fused a residual.
func (m *Model) expansionBehind(s int, readers, producer []int) *step {
	for depth := 0; depth < 8; depth++ {
		if s < 0 || readers[s] != 1 || producer[s] < 0 {
			return nil
		}
		st := &m.steps[producer[s]]
		switch {
		case st.chain != nil:
			c := st.chain
			if !c.gated || len(st.out) != 1 {
				return nil
			}
			s = c.root
			if s < 0 || readers[s] != 2 || producer[s] < 0 {
				return nil
			}
			// The gate's nodes are X's two readers: go on from X's
			// producer.
			st = &m.steps[producer[s]]
			if !st.passThrough {
				if !blockConv(st) || st.residual != 0 {
					return nil
				}
				return st
			}
			if st.passShared || st.chain != nil || len(st.out) != 1 {
				return nil
			}
			s = st.in[st.passIn]
		case st.passThrough:
			if st.passShared || len(st.out) != 1 {
				return nil
			}
			s = st.in[st.passIn]
		default:
			if !blockConv(st) || st.residual != 0 {
				return nil
			}
			return st
		}
	}
	return nil
}
