package graph

import (
	"fmt"
	"slices"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Load-time fusion (LoadOptions.NoFuse turns it off). Once at load, fuse
// finds in each graph, the main one and every subgraph body (fuseGraphs):
//
//   - a Conv with constant weights (and bias) whose output only an
//     inference-mode BatchNormalization with constant statistics reads:
//     the statistics are folded into a copy of the Conv's weights and bias
//     (ops.FoldBatchNorm; this changes the rounding, within the bound
//     ops/epilogue.go states), the copy counted with the model's packed
//     weights (Model.PackedBytes, under MaxModelBytes);
//   - a Conv with constant weights (and bias), or a Gemm with a constant B
//     (and C), whose output (or that of its folded BatchNormalization)
//     only an Add reads, the Add's other input a constant along the
//     output channels (Conv) or the last axis (Gemm): the constant is
//     added into a copy of the bias (ops.FoldBias; this changes the
//     rounding, within the bound ops/epilogue.go states), counted as the
//     folded weights are;
//   - a MatMul with a constant 2-D B whose output only an Add reads, the
//     Add's other input a constant of B's N columns or one value (rank at
//     most 1): the product adds the constant in place (ops.FoldBias),
//     exactly: the same bits as the pair unfused;
//   - a Conv or a MatMul (or such a Conv with its BatchNormalization or
//     bias folded, such a MatMul with its bias) whose output only an Add
//     reads, the Add's other input R a computed value that a step before
//     it makes (a residual block's shortcut, a transformer's residual
//     stream): a run that fuses passes R to the product after its inputs,
//     and the product adds it to its output as its epilogue before any
//     activation (ops.FuseResidual), exactly: the same bits as the pair
//     unfused;
//   - a Conv, Gemm or MatMul (or such a Conv with its BatchNormalization
//     or bias folded) whose output only a Relu, LeakyRelu, Sigmoid, HardSigmoid,
//     HardSwish or Clip (with constant bounds) reads: the activation runs
//     as the producer's epilogue (ops.FuseActivation), exactly: the same
//     bits as the pair unfused;
//   - a Pad of zeros on the spatial axes whose output only a Conv reads
//     (tf2onnx's and Keras's "same" padding of a strided convolution):
//     the Conv pads its input itself, the Pad's pads added to its own
//     (ops.FusePad, fusePad), exactly: the same bits as the pair unfused;
//     before a depthwise Conv only when its weights are finite, and within
//     the Conv's bound of the pair rather than bit for bit (its engine
//     rounds edge columns differently, see ops/padfold.go).
//     Here the absorbed node comes first: it passes its input through,
//     and that input may have other readers (step.passShared).
//
// Neither node leaves the graph: the absorbed one (the BatchNormalization,
// the Add, the activation) stays a step that, in a run that fuses, passes
// its input (the Add: the producer's) through as its output, as Identity
// does, so that memory planning,
// traces (the memory plan lists every original node by its name) and
// errors (an error of the fused activation names it: "fused Relu
// \"relu1\": ...", inside the producer's NodeError) keep the original
// nodes. A run fuses only on the fast engine under the ONNX profile and
// when it returns the graph's outputs (RunOptions.Outputs may name a value
// that fusion changes): the reference engine and the SONNX profile always
// run the nodes one by one, as written.
//
// A value is fused away only when its one reader is the absorbing node: a
// graph output, a second reader or a subgraph reading it by name keeps the
// pair apart. Initializers that a graph input may override are not
// constants here.

// fuseGraphs applies the load-time fusions (fuse, fuseChains,
// fuseTransposes, fuseQDQ) to the model's graph and then to each subgraph body, so
// that the nodes of an If branch or a Loop body run as the main graph's
// do. The fusions read the graph they work on as m.steps and m.outSlots
// (its steps and the values it returns): a body stands in for them during
// its turn. Its values have slots of their own in the model's numbering;
// what it reads of enclosing graphs no step of it produces, so it is
// never fused away, and a value that a body inside it reads counts as
// read there (step.implicit).
func (m *Model) fuseGraphs(opts LoadOptions) {
	steps, outs := m.steps, m.outSlots
	defer func() { m.steps, m.outSlots = steps, outs }()
	for k := -1; k < len(m.bodies); k++ {
		if k >= 0 {
			m.steps, m.outSlots = m.bodies[k].steps, m.bodies[k].out
		}
		m.fuse(opts)
		m.fuseChains(opts)
		m.fuseGated(opts)
		m.fuseBlocks(opts)
		m.fuseScaled(opts)
		m.fuseFronts(opts)
		m.fuseTransposes(opts)
		m.fuseQDQ(opts)
		m.passHeaders()
	}
}

// passHeaders sets, for each output that absorbed steps pass on in a run
// that fuses (a Conv's through its folded BatchNormalization, bias Add
// and activation), the slot where its header ends up (step.headerAt).
// Each absorbed step is its input's only reader (fuse), so the header
// moves along with the value and nothing else can reach it.
func (m *Model) passHeaders() {
	next := map[int]int{} // a passed value's slot -> the slot it is passed to
	for i := range m.steps {
		st := &m.steps[i]
		if st.passThrough && !st.passShared && len(st.out) == 1 && st.out[0] >= 0 && st.in[st.passIn] >= 0 {
			next[st.in[st.passIn]] = st.out[0]
		}
	}
	if len(next) == 0 {
		return
	}
	for i := range m.steps {
		st := &m.steps[i]
		if st.passThrough {
			continue
		}
		for k, s := range st.out {
			at := s
			for n, ok := next[at]; ok && s >= 0; n, ok = next[at] {
				at = n
			}
			if at == s {
				continue
			}
			if st.headerAt == nil {
				st.headerAt = make([]int, len(st.out))
				for j := range st.headerAt {
					st.headerAt[j] = -1
				}
			}
			st.headerAt[k] = at
		}
	}
}

// fuse fuses the pairs above in the graph m.steps holds (see fuseGraphs).
func (m *Model) fuse(opts LoadOptions) {
	if opts.NoFuse {
		return
	}
	limit := opts.MaxModelBytes
	if limit == 0 {
		limit = onnx.DefaultMaxModelBytes
	} else if limit < 0 {
		limit = 1<<63 - 1
	}
	readers, producer, consts := m.dataflow()
	// constIn is input k of st: the constant, nil when absent; ok false
	// when it is computed or overridable.
	constIn := func(st *step, k int) (*tensor.Tensor, bool) {
		if k >= len(st.in) || st.in[k] < 0 {
			return nil, true
		}
		t, ok := consts[st.in[k]]
		return t, ok
	}
	// soleAt returns the step producing input k of st when st is its only
	// reader.
	soleAt := func(st *step, k int) *step {
		if len(st.in) <= k || st.in[k] < 0 {
			return nil
		}
		x := st.in[k]
		if readers[x] != 1 || producer[x] < 0 {
			return nil
		}
		return &m.steps[producer[x]]
	}
	sole := func(st *step) *step { return soleAt(st, 0) }
	// origin follows absorbed steps back to the node that computes their
	// value (a Conv through its folded BatchNormalization and bias Add).
	origin := func(p *step) *step {
		for p != nil && p.passThrough {
			if p = soleAt(p, p.passIn); p != nil && (p.node == nil || len(p.out) != 1) {
				return nil
			}
		}
		return p
	}
	for i := range m.steps {
		st := &m.steps[i]
		n := st.node
		if n == nil || n.Domain != "" || st.schema == nil || len(st.out) != 1 {
			continue
		}
		if n.OpType == "Add" && len(st.in) == 2 {
			// A bias: the producer's output plus a constant, in either order.
			folded := false
			for k := range 2 {
				c, ok := constIn(st, 1-k)
				p := origin(soleAt(st, k))
				if !ok || c == nil || p == nil || p.node == nil || p.schema == nil || len(p.out) != 1 {
					continue
				}
				w, okw := constIn(p, 1)
				b, okb := constIn(p, 2)
				if !okw || !okb || w == nil {
					continue
				}
				bytes := ops.FoldBias(p.node, n, w, b, c, func(bytes int64) error {
					if bytes > limit-m.packed {
						return fmt.Errorf("%w: folded bias of %d bytes would pass the model's %d", ops.ErrLimit, m.packed+bytes, limit)
					}
					return nil
				})
				if bytes > 0 {
					m.packed += bytes
					st.passThrough, st.passIn, st.into = true, k, p
					m.fusions++
					folded = true
					break
				}
			}
			if !folded {
				m.fuseResidual(i, readers, producer, consts, origin, soleAt)
			}
			continue
		}
		p := sole(st)
		if p == nil || p.node == nil || p.schema == nil || len(p.out) != 1 {
			continue
		}
		switch n.OpType {
		case "BatchNormalization":
			if p.node.OpType != "Conv" || p.passThrough {
				continue
			}
			w, okw := constIn(p, 1)
			b, okb := constIn(p, 2)
			var params [4]*tensor.Tensor
			ok := okw && okb && w != nil
			for k := range params {
				var okp bool
				params[k], okp = constIn(st, k+1)
				ok = ok && okp
			}
			if !ok {
				continue
			}
			bytes := ops.FoldBatchNorm(p.node, n, w, b, params, func(bytes int64) error {
				if bytes > limit-m.packed {
					return fmt.Errorf("%w: folded weights of %d bytes would pass the model's %d", ops.ErrLimit, m.packed+bytes, limit)
				}
				return nil
			})
			if bytes > 0 {
				m.packed += bytes
				st.passThrough, st.into = true, p
				m.fusions++
			}
		case "Conv":
			m.fusePad(st, p, readers, producer, consts)
		case "Relu", "LeakyRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Clip":
			if p = origin(p); p == nil || p.node == nil || len(p.out) != 1 { // through a folded BatchNormalization or bias
				continue
			}
			var in []tensor.Value
			ok := true
			for k := 1; k < len(st.in); k++ {
				t, okc := constIn(st, k)
				ok = ok && okc
				if t != nil {
					in = append(in, t)
				} else {
					in = append(in, nil)
				}
			}
			if ok && ops.FuseActivation(p.node, n, in) {
				st.passThrough, st.into = true, p
				m.fusions++
			}
		}
	}
}

// fusePad folds p, a Pad whose only reader is st, a Conv, into the Conv's
// pads when the pair is exactly the Conv with wider pads (ops.FusePad:
// constant mode, value +0, non-negative pads on the spatial axes only,
// auto_pad NOTSET, not depthwise); the Pad's pads, constant_value and
// axes must be constants, or computed from constants alone by the
// data-movement nodes markConstants folds, or Split (tf2onnx writes the
// pads as a Concat of the parts of a constant). In a run that fuses, the Pad passes its input
// through and the Conv pads it itself, without the padded copy: the same
// bits as the pair unfused. The Pad's input may have other readers
// (passShared).
func (m *Model) fusePad(st, p *step, readers, producer []int, consts map[int]*tensor.Tensor) {
	if p.node.OpType != "Pad" || p.passThrough || p.chain != nil || len(p.implicit) != 0 || len(p.in) == 0 || p.in[0] < 0 {
		return
	}
	var in []*tensor.Tensor
	for k := 1; k < len(p.in); k++ {
		var t *tensor.Tensor
		if s := p.in[k]; s >= 0 {
			if t = m.constantOf(s, producer, consts, 4); t == nil {
				return
			}
		}
		in = append(in, t)
	}
	var w *tensor.Tensor
	if len(st.in) > 1 && st.in[1] >= 0 {
		w = consts[st.in[1]]
	}
	if ops.FusePad(p.node, st.node, in, w) {
		p.passThrough, p.passIn, p.into = true, 0, st
		p.passShared = readers[p.in[0]] > 1
		m.fusions++
	}
}

// constantOf returns the value of slot s when it is a constant (consts) or
// the output of a foldable data-movement node or a Split over such values
// (tf2onnx's pads: a Concat of a constant's Split), at most depth nodes
// deep, computed as markConstants computes it; nil otherwise.
func (m *Model) constantOf(s int, producer []int, consts map[int]*tensor.Tensor, depth int) *tensor.Tensor {
	if t, ok := consts[s]; ok {
		return t
	}
	if depth == 0 || producer[s] < 0 {
		return nil
	}
	st := &m.steps[producer[s]]
	n := st.node
	if n == nil || n.Domain != "" || !(foldable[n.OpType] || n.OpType == "Split") || st.schema == nil || len(st.implicit) != 0 {
		return nil
	}
	at := slices.Index(st.out, s)
	if at < 0 {
		return nil
	}
	in := make([]tensor.Value, len(st.in))
	for k, x := range st.in {
		if x < 0 {
			continue
		}
		t := m.constantOf(x, producer, consts, depth-1)
		if t == nil {
			return nil
		}
		in[k] = t
	}
	out, err := st.schema.Run(&ops.Options{MaxTensorBytes: maxFoldedBytes}, n, in)
	if err != nil || len(out) != len(st.out) {
		return nil
	}
	t, _ := out[at].(*tensor.Tensor)
	return t
}

// fuseResidual fuses the Add of step i (two computed inputs) into the
// Conv or MatMul that computes one of them when the Add is that output's
// only reader and the other input, R, is computed before the product runs
// (a residual block's shortcut, a transformer's residual stream): the
// product adds R to its output as its epilogue (ops.FuseResidual) and the
// Add passes the product's output through.
func (m *Model) fuseResidual(i int, readers, producer []int, consts map[int]*tensor.Tensor, origin func(*step) *step, soleAt func(*step, int) *step) {
	st := &m.steps[i]
	for k := range 2 {
		r := st.in[1-k]
		if r < 0 || st.in[k] < 0 || r == st.in[k] {
			continue
		}
		if _, isConst := consts[r]; isConst {
			continue
		}
		// The Conv, through a folded BatchNormalization or bias.
		p := origin(soleAt(st, k))
		if p == nil || p.node == nil || (p.node.OpType != "Conv" && p.node.OpType != "MatMul") || p.schema == nil || len(p.out) != 1 || p.residual != 0 || len(p.in) > ops.ResidualInput || len(p.implicit) != 0 {
			continue
		}
		conv := -1
		for j := range m.steps {
			if &m.steps[j] == p {
				conv = j
			}
		}
		if pr := producer[r]; conv < 0 || pr >= conv {
			continue // R is computed after the Conv runs
		}
		if ops.FuseResidual(p.node, st.node) {
			p.residual = r + 1
			st.passThrough, st.passIn, st.into = true, k, p
			m.fusions++
			return
		}
	}
}

// Fusions is the number of nodes the model absorbed into others at load
// (see LoadOptions.NoFuse); runs on the fast engine under the ONNX profile
// skip their work.
func (m *Model) Fusions() int {
	if m == nil {
		return 0
	}
	return m.fusions
}

// setFuse sets whether the run applies the model's fusions, for the
// kernels too (runenv.Env.Fuse).
func (r *runState) setFuse(on bool) {
	r.fuse = on
	runenv.Bind(&r.opt, runenv.Env{Ctx: r.ctx, Alloc: r.alloc, Headers: &r.hdr, Charge: r.charge, Scope: r, Fuse: on})
}

// passInput runs a step absorbed by fusion: its output is its input
// passIn.
func (st *step) passInput(r *runState) {
	x := st.in[st.passIn]
	if st.passShared {
		// Other steps read x too: the header stays with it.
		if s := st.out[0]; s >= 0 {
			r.vals[s] = r.vals[x]
		}
		return
	}
	if s := st.out[0]; s >= 0 {
		r.vals[s] = r.vals[x]
		// The header goes with the value: x's only reader is st, so no
		// one else holds it (see passHeaders).
		r.headers[s] = r.headers[x]
	}
	r.headers[x] = nil
}

// dataflow returns what the load-time fusions read of the model's graph:
// how many readers each value slot has (a graph output and a subgraph's
// implicit read count as readers), the step producing each slot (-1 for
// inputs and initializers), and the constant initializers that no graph
// input may override, by slot.
func (m *Model) dataflow() (readers, producer []int, consts map[int]*tensor.Tensor) {
	readers = make([]int, m.numSlots)
	producer = make([]int, m.numSlots)
	for i := range producer {
		producer[i] = -1
	}
	for i := range m.steps {
		st := &m.steps[i]
		for _, s := range st.in {
			if s >= 0 {
				readers[s]++
			}
		}
		for _, s := range st.implicit {
			readers[s]++
		}
		for _, s := range st.out {
			if s >= 0 {
				producer[s] = i
			}
		}
	}
	for _, s := range m.outSlots {
		readers[s]++
	}
	overridable := make(map[int]bool, len(m.inputSlots))
	for _, s := range m.inputSlots {
		overridable[s] = true
	}
	consts = make(map[int]*tensor.Tensor, len(m.consts))
	for _, c := range m.consts {
		if t, ok := c.value.(*tensor.Tensor); ok && !overridable[c.slot] {
			consts[c.slot] = t
		}
	}
	// A Constant node's value is as constant as an initializer: exporters
	// (PyTorch's among them) write a LayerNorm's exponent and epsilon so.
	// So is an Identity's copy of a constant: torch.onnx.export writes
	// one for each initializer it deduplicates (the equal weights and
	// biases of the LayerNorms of an encoder's layers). The steps run in
	// order, so a copy of a copy is seen too.
	for i := range m.steps {
		st := &m.steps[i]
		if len(st.out) != 1 || st.out[0] < 0 {
			continue
		}
		if t := constantValue(st.node); t != nil {
			consts[st.out[0]] = t
		} else if t := identityOf(st, consts); t != nil {
			consts[st.out[0]] = t
		}
	}
	return readers, producer, consts
}

// extraIns is the inputs a run may pass a step beyond its own: the
// residual of a Conv or MatMul that fused its Add.
func (st *step) extraIns() int {
	if st.residual > 0 {
		return ops.ResidualInput + 1 - len(st.in)
	}
	return 0
}

// identityOf returns the constant that st copies when st is an Identity
// of one, nil otherwise.
func identityOf(st *step, consts map[int]*tensor.Tensor) *tensor.Tensor {
	if st.node == nil || st.node.Domain != "" || st.node.OpType != "Identity" || len(st.in) != 1 || st.in[0] < 0 {
		return nil
	}
	return consts[st.in[0]]
}
