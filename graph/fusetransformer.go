package graph

import (
	"errors"
	"slices"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Load-time fusion of the elementwise chains of transformer exports
// (LoadOptions.NoFuse turns it off with the rest of fuse.go's fusions).
// fuseChains finds, in each graph (fuseGraphs), regions of Add, Sub, Mul, Div, Pow
// (by a constant), Tanh, Sigmoid, Erf, Sqrt, Reciprocal, Clip (with
// constant bounds), Relu, HardSigmoid and ReduceMean
// nodes that read one computed value X besides constants, whose values
// other than the last node's output (the sink's) no node outside the
// region reads: GELU with Erf and in its tanh form, with the Add of a
// Linear layer's bias before it, and LayerNorm and RMSNorm spelled out
// (ReduceMean, Sub, Pow, Sqrt, Div ...), and HardSwish spelled out
// (x * Clip(x + 3, 0, 6) / 6) with what follows it, among them. Where the largest such
// region reads two computed values (a LayerNorm of a residual Add), the
// largest part of it that reads one is taken. The sink then runs the
// region as one ops.Chain, one pass over X with the bits of the nodes run
// one by one (ops/fusedchain.go).
//
// As with fuse.go's pairs, no node leaves the graph. In a run that fuses
// (the fast engine, the ONNX profile, the graph's outputs asked for), each
// other node of the region passes one of its computed inputs through as
// its output, so that every value of the region is X's storage and the
// memory plan and traces keep the original nodes; the sink reads X from
// one of its inputs. When the chain does not take X at run time (not
// float32, a constant that does not broadcast along X's last axis), the
// sink runs the region's nodes one by one itself, and their errors name
// each node as when unfused; the chain's own errors (a cap, a
// cancellation) name the sink and list the fused nodes.

// chainFusion is a step's part in a fused chain.
type chainFusion struct {
	// passIn is, for a step inside the region, the input it passes
	// through; for the sink, the input holding X.
	passIn int
	// chain, steps (the region's steps in order, the sink last) and root
	// (X's slot) are the sink's.
	chain *ops.Chain
	steps []*step
	root  int
	// gated marks a sink whose chain, X*act(X), X's Conv applies as its
	// epilogue for float32 X (fuseGated): the sink then passes X through.
	gated bool
}

var chainOps = map[string]bool{"Add": true, "Sub": true, "Mul": true, "Div": true, "Pow": true, "Tanh": true, "Sigmoid": true, "Erf": true,
	"Sqrt": true, "Reciprocal": true, "ReduceMean": true, "Clip": true, "Relu": true, "HardSigmoid": true}

// fuseChains marks the model's fused chains (see above).
func (m *Model) fuseChains(opts LoadOptions) {
	if opts.NoFuse {
		return
	}
	readers, producer, consts := m.dataflow()
	taken := make([]bool, len(m.steps))
	chainable := func(i int) bool {
		st := &m.steps[i]
		n := st.node
		return !taken[i] && n != nil && n.Domain == "" && chainOps[n.OpType] && st.schema != nil && !st.passThrough &&
			st.chain == nil && len(st.out) == 1 && st.out[0] >= 0 && len(st.implicit) == 0 && keepsDims(n) && constBounds(st, consts)
	}
	for sink := len(m.steps) - 1; sink >= 0; sink-- {
		if !chainable(sink) {
			continue
		}
		// grow returns the largest region ending at sink whose values
		// only the region reads, not taking in the producer of stop, and
		// the values it reads from outside (its roots).
		grow := func(stop int) (region map[int]bool, roots []int) {
			region = map[int]bool{sink: true}
			inside := map[int]int{} // reads of a computed value by the region
			addReads := func(i int) {
				for _, s := range m.steps[i].in {
					if _, c := consts[s]; s >= 0 && !c {
						inside[s]++
					}
				}
			}
			addReads(sink)
			for changed := true; changed; {
				changed = false
				for _, v := range sortedKeys(inside) {
					p := producer[v]
					if v == stop || p < 0 || region[p] || !chainable(p) || readers[v] != inside[v] {
						continue
					}
					region[p] = true
					addReads(p)
					changed = true
				}
			}
			for _, v := range sortedKeys(inside) {
				if p := producer[v]; p < 0 || !region[p] {
					roots = append(roots, v)
				}
			}
			return region, roots
		}
		region, roots := grow(-1)
		if len(roots) != 1 {
			// The largest region reads two computed values (a LayerNorm
			// of a residual Add's sum): keep the largest part of it that
			// reads one, stopping at one of its values.
			var best map[int]bool
			bestRoot := -1
			for _, v := range sortedKeys(valuesOf(m, region)) {
				if r, rs := grow(v); len(rs) == 1 && len(r) > len(best) {
					best, bestRoot = r, rs[0]
				}
			}
			region, roots = best, []int{bestRoot}
		}
		if len(region) < 2 {
			continue
		}
		root := roots[0]
		steps := sortedKeys(region)
		pos := make(map[int]int, len(steps)) // a region value's slot: its node's place + 1
		for k, i := range steps {
			pos[m.steps[i].out[0]] = k + 1
		}
		nodes := make([]*ops.Node, len(steps))
		args := make([][]ops.ChainArg, len(steps))
		passIn := make([]int, len(steps))
		for k, i := range steps {
			st := &m.steps[i]
			nodes[k] = st.node
			passIn[k] = -1
			for j, s := range st.in {
				var a ops.ChainArg
				if t, c := consts[s]; c {
					a.Const = t
				} else if s < 0 {
					a.Value = ops.ChainAbsent
				} else if s == root {
					a.Value = 0
				} else {
					a.Value = pos[s]
				}
				if s >= 0 && a.Const == nil && passIn[k] < 0 {
					passIn[k] = j
				}
				args[k] = append(args[k], a)
			}
		}
		chain, ok := ops.NewChain(nodes, args)
		if !ok || slices.Contains(passIn, -1) {
			continue
		}
		for k, i := range steps {
			taken[i] = true
			m.steps[i].chain = &chainFusion{passIn: passIn[k]}
			if i != sink {
				m.steps[i].into = &m.steps[sink]
			}
		}
		ptrs := make([]*step, len(steps))
		for k, i := range steps {
			ptrs[k] = &m.steps[i]
		}
		m.steps[sink].chain = &chainFusion{passIn: passIn[len(steps)-1], chain: chain, steps: ptrs, root: root}
		m.fusions += len(steps) - 1
	}
}

// keepsDims reports whether n, when a ReduceMean, keeps its reduced axis
// (a chain takes no other): a region does not grow into one it would
// then refuse whole.
func keepsDims(n *ops.Node) bool {
	if n.OpType != "ReduceMean" {
		return true
	}
	k, err := n.Int("keepdims", 1)
	return err == nil && k == 1
}

// constBounds reports whether st, when a Clip, has constant bounds or
// none (a chain takes no other): a region does not grow into one it would
// then refuse whole.
func constBounds(st *step, consts map[int]*tensor.Tensor) bool {
	if st.node.OpType != "Clip" {
		return true
	}
	for _, s := range st.in[1:] {
		if _, c := consts[s]; s >= 0 && !c {
			return false
		}
	}
	return true
}

// valuesOf returns the values that the steps of region read.
func valuesOf(m *Model, region map[int]bool) map[int]bool {
	vals := map[int]bool{}
	for i := range region {
		for _, s := range m.steps[i].in {
			if s >= 0 {
				vals[s] = true
			}
		}
	}
	return vals
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// runChain runs st's part of its chain in a run that fuses: a step inside
// passes its input through, the sink runs the chain on X (in, its inputs).
func (st *step) runChain(r *runState, in []tensor.Value) error {
	c := st.chain
	x := st.in[c.passIn]
	if c.chain == nil {
		r.headers[x] = nil // the output keeps the header
		r.vals[st.out[0]] = r.vals[x]
		return nil
	}
	if c.gated && gatedPasses(in[c.passIn]) {
		r.headers[x] = nil // the output keeps the header
		r.vals[st.out[0]] = r.vals[x]
		return nil
	}
	if t, ok := in[c.passIn].(*tensor.Tensor); ok {
		r.lendHeaders(st)
		y, handled, err := c.chain.Run(&r.opt, t)
		if err != nil || !handled {
			r.stopLending()
		}
		if err != nil {
			r.forgetKept(st.in, nil, true)
			return st.fail(err)
		}
		if handled {
			r.forgetKept(st.in, []tensor.Value{y}, false)
			r.vals[st.out[0]] = y
			r.keepHeaders(st)
			return nil
		}
	}
	r.forgetKept(st.in, nil, true)
	return st.runChainNodes(r, in[c.passIn])
}

// runChainNodes runs the chain's nodes one by one from X, as the graph
// would unfused, for an X the chain does not take.
func (st *step) runChainNodes(r *runState, x tensor.Value) error {
	c := st.chain
	local := map[int]tensor.Value{c.root: x}
	var in []tensor.Value
	var out []tensor.Value
	for _, s := range c.steps {
		in = in[:0]
		for _, slot := range s.in {
			var v tensor.Value
			if slot >= 0 {
				var ok bool
				if v, ok = local[slot]; !ok {
					v = r.vals[slot]
				}
			}
			in = append(in, v)
		}
		kernel, err := s.kernel(r.engine, r.opt.Profile)
		if err != nil {
			return s.fail(err)
		}
		if out, err = kernel(&r.opt, s.node, in); err != nil {
			return s.fail(err)
		}
		if len(out) == 0 || out[0] == nil || isNilValue(out[0]) {
			return s.fail(&kindError{errors.New("the kernel produced no output #0"), ErrInternal})
		}
		local[s.out[0]] = out[0]
	}
	r.vals[st.out[0]] = out[0]
	return nil
}
