package graph

import "github.com/onnxshape/onnxshape/ops"

// Load-time folding of the Transposes around a MatMul (LoadOptions.NoFuse
// turns it off with the other fusions): a Transpose, or a chain of them,
// whose only reader is a MatMul, and a Transpose (or chain) that is the
// only reader of a MatMul's output, are folded into the MatMul
// (ops.FoldTransposes): it reads the value before them, and writes the
// value after them, in place through strides (ops/matmul.go), as
// a transformer's attention spelled out needs around every product. As
// with the other fusions no node leaves the graph: in a run that fuses,
// each folded Transpose passes its input through as its output, so the
// memory plan and traces keep the original nodes. The input of the first
// Transpose before an operand may have other readers (passShared).

// fuseTransposes marks the model's MatMuls that fold Transposes.
func (m *Model) fuseTransposes(opts LoadOptions) {
	if opts.NoFuse {
		return
	}
	readers, producer, consts := m.dataflow()
	reader := make([]int, m.numSlots) // the step reading a slot, when one does
	for i := range reader {
		reader[i] = -1
	}
	for i := range m.steps {
		for _, s := range m.steps[i].in {
			if s >= 0 {
				reader[s] = i
			}
		}
	}
	plain := func(i int, taken map[int]bool) bool {
		st := &m.steps[i]
		n := st.node
		return !taken[i] && n != nil && n.Domain == "" && n.OpType == "Transpose" && st.schema != nil && !st.passThrough &&
			st.chain == nil && len(st.in) == 1 && st.in[0] >= 0 && len(st.out) == 1 && st.out[0] >= 0 && len(st.implicit) == 0
	}
	taken := map[int]bool{}
	for i := range m.steps {
		st := &m.steps[i]
		n := st.node
		if n == nil || n.Domain != "" || n.OpType != "MatMul" || st.schema == nil || st.passThrough || st.chain != nil ||
			len(st.out) != 1 || st.out[0] < 0 || len(st.in) != 2 || len(st.implicit) != 0 {
			continue
		}
		// The Transposes before input k, the first applied first. Those
		// of a constant stay: they fold into a constant at load, which the
		// MatMul packs once (graph/constants.go, prepack.go).
		var before [2][]int
		for k, s := range st.in {
			for s >= 0 && readers[s] == 1 && producer[s] >= 0 && plain(producer[s], taken) {
				before[k] = append([]int{producer[s]}, before[k]...)
				s = m.steps[producer[s]].in[0]
			}
			if _, c := consts[s]; c || (s >= 0 && producer[s] >= 0 && m.steps[producer[s]].node != nil && m.steps[producer[s]].node.OpType == "Constant") {
				before[k] = nil
			}
		}
		// The Transposes after the output, the first applied first.
		var after []int
		for s := st.out[0]; readers[s] == 1 && reader[s] >= 0 && plain(reader[s], taken); s = m.steps[reader[s]].out[0] {
			after = append(after, reader[s])
		}
		nodes := func(steps []int) []*ops.Node {
			var ns []*ops.Node
			for _, j := range steps {
				ns = append(ns, m.steps[j].node)
			}
			return ns
		}
		if !ops.FoldTransposes(n, [2][]*ops.Node{nodes(before[0]), nodes(before[1])}, nodes(after)) {
			continue
		}
		for k := range before {
			if !n.FoldsInput(k) {
				before[k] = nil // ops.FoldTransposes left it unfolded
			}
		}
		for _, steps := range [][]int{before[0], before[1], after} {
			for _, j := range steps {
				taken[j] = true
				m.steps[j].passThrough, m.steps[j].passIn, m.steps[j].into = true, 0, st
				// The first Transpose before an operand may read a value
				// that other steps read too (the residual stream a
				// transformer's attention starts from): the value keeps
				// its header for them (passShared, as a folded Pad's).
				if in := m.steps[j].in[0]; in >= 0 && readers[in] > 1 {
					m.steps[j].passShared = true
				}
				m.fusions++
			}
		}
	}
}
