package graph

import (
	"github.com/onnxshape/onnxshape/tensor"
)

// A kernel's outputs get back the headers they had in the run before.
// Storage already comes back (the spares, the Pool); a header is the
// other allocation of every output, and a chain of small nodes makes one
// at every node. runState.headers keeps, by slot, the header the slot's
// value had, while nothing outside the run can reach it: no graph output
// holds it and no kernel has kept it in its outputs (a kernel that
// returns its input as it is, or in a sequence or an optional, keeps
// it: see forgetKept). Before a step's kernel runs, lendHeaders offers
// it its outputs' headers; the tensors the kernel creates (ops' outputs,
// through runenv.Headers.Wrap) take one of the same type and shape,
// pointed at the new storage (header.Rewrap), or a new one; keepHeaders
// then keeps those that are the step's outputs. A kernel that runs a
// subgraph (If, Loop, Scan) keeps none: the body's steps lend and keep
// their own in between.

// lendHeaders offers st's kernel the headers its outputs had in the run
// before, and records what it makes.
func (r *runState) lendHeaders(st *step) {
	h := &r.hdr
	clear(h.Lend)
	h.Lend = h.Lend[:0]
	for _, s := range st.out {
		if s >= 0 && r.headers[s] != nil {
			h.Lend = append(h.Lend, r.headers[s])
			r.headers[s] = nil // lent: if not taken back, let go
		}
	}
	for _, s := range st.headerAt {
		if s >= 0 && r.headers[s] != nil {
			h.Lend = append(h.Lend, r.headers[s])
			r.headers[s] = nil
		}
	}
	clear(h.Made)
	h.Made = h.Made[:0]
	h.On = true
	r.lending = st
}

// keepHeaders keeps, once st's kernel has run and its outputs are in
// their slots, the headers the kernel made that are st's outputs as they
// are. An output that is not a tensor (a sequence, an optional) may hold
// one of them, so a step with such an output keeps none; so does a step
// whose kernel ran a subgraph, whose steps lent in between (r.lending is
// then no longer st), and a header two outputs hold.
func (r *runState) keepHeaders(st *step) {
	keep := r.lending == st && len(r.hdr.Made) > 0
	for _, s := range st.out {
		if s >= 0 {
			if _, ok := r.vals[s].(*tensor.Tensor); !ok {
				keep = false
			}
		}
	}
	if keep {
		for _, s := range st.out {
			if s < 0 {
				continue
			}
			t := r.vals[s].(*tensor.Tensor)
			if st.madeHere(r, t) && st.outputsHolding(r.vals, t) == 1 {
				r.headers[s] = t
			}
		}
	}
	r.stopLending()
}

// madeHere reports whether the running step's kernel made t (Wrap).
func (st *step) madeHere(r *runState, t *tensor.Tensor) bool {
	for _, m := range r.hdr.Made {
		if m == t {
			return true
		}
	}
	return false
}

// outputsHolding counts st's outputs whose value is t.
func (st *step) outputsHolding(vals []tensor.Value, t *tensor.Tensor) int {
	n := 0
	for _, s := range st.out {
		if s >= 0 && vals[s] == tensor.Value(t) {
			n++
		}
	}
	return n
}

// stopLending ends a step's lending, keeping nothing more.
func (r *runState) stopLending() {
	h := &r.hdr
	r.lending, h.On = nil, false
	clear(h.Made)
	h.Made = h.Made[:0]
	clear(h.Lend)
	h.Lend = h.Lend[:0]
}

// forgetKept lets go of the kept headers of the values in slots (a
// step's inputs) that a kernel kept in its outputs out: an output that
// is the input as it is, or any output that is not a tensor, which may
// hold it; all of them when all is set (a kernel that failed, or ran a
// subgraph).
func (r *runState) forgetKept(slots []int, out []tensor.Value, all bool) {
	for _, s := range slots {
		if s < 0 || r.headers[s] == nil {
			continue
		}
		if all || holdsHeader(out, r.headers[s]) {
			r.headers[s] = nil
		}
	}
}

// holdsHeader reports whether out may hold h.
func holdsHeader(out []tensor.Value, h *tensor.Tensor) bool {
	for _, v := range out {
		switch v := v.(type) {
		case nil:
		case *tensor.Tensor:
			if v == h {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// keepBranchHeaders keeps, once an If (st) has run, the headers its branch
// passed to st's output slots (body.heirs) that are those outputs as they
// are, each held by one output only.
func (st *step) keepBranchHeaders(r *runState) {
	for _, s := range st.out {
		if s < 0 || r.headers[s] == nil {
			continue
		}
		if h := r.headers[s]; r.vals[s] != tensor.Value(h) || st.outputsHolding(r.vals, h) != 1 {
			r.headers[s] = nil
		}
	}
}

// dropBranchHeaders lets go of the headers a branch passed to the output
// slots of st, an If that failed.
func (st *step) dropBranchHeaders(r *runState) {
	if !st.branches {
		return
	}
	for _, s := range st.out {
		if s >= 0 {
			r.headers[s] = nil
		}
	}
}
