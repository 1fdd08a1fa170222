package graph

import (
	"fmt"
	"slices"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// fuseQDQ finds, after the other fusions, each quantized convolution
// written in QDQ form (torch.onnx's and onnxruntime's static int8
// networks):
//
//	DequantizeLinear(x) -> Conv(DequantizeLinear(W), DequantizeLinear(B)) [-> Relu] -> QuantizeLinear
//
// with W and B constants, and the Conv runs it as one int8 convolution
// (ops.FuseQDQ states when and how: int32 sums, exact, requantized as
// QuantizeLinear rounds). Unlike the other fusions this one changes bits:
// an output may differ by one quantum from the float chain's where that
// falls next to a rounding boundary, as onnxruntime's does. LoadOptions
// ExactQDQ (or NoFuse) keeps the chain as written.
//
// Each float value in between must have the next node as its only reader.
// In a run that fuses, the DequantizeLinear nodes pass their 8-bit inputs
// through to the Conv, and the Relu and the QuantizeLinear pass the
// Conv's 8-bit output on; the packed int8 weights count with the model's
// (PackedBytes, under MaxModelBytes).
func (m *Model) fuseQDQ(opts LoadOptions) {
	if opts.NoFuse || opts.ExactQDQ {
		return
	}
	limit := opts.MaxModelBytes
	if limit == 0 {
		limit = onnx.DefaultMaxModelBytes
	} else if limit < 0 {
		limit = 1<<63 - 1
	}
	readers, producer, consts := m.dataflow()
	// soleAt is the step computing input k of st when st is its only
	// reader, not yet absorbed, of the default domain and of one output.
	soleAt := func(st *step, k int, op string) *step {
		if k >= len(st.in) || st.in[k] < 0 || readers[st.in[k]] != 1 || producer[st.in[k]] < 0 {
			return nil
		}
		p := &m.steps[producer[st.in[k]]]
		if p.node == nil || p.node.Domain != "" || p.node.OpType != op || p.schema == nil || len(p.out) != 1 ||
			p.chain != nil || len(p.implicit) != 0 || p.residual != 0 {
			return nil
		}
		return p
	}
	// constant is input k of st when it is a constant (or computed from
	// constants at load, as markConstants does); absent is nil, true.
	constant := func(st *step, k int) (*tensor.Tensor, bool) {
		if k >= len(st.in) || st.in[k] < 0 {
			return nil, true
		}
		t := m.constantOf(st.in[k], producer, consts, 4)
		return t, t != nil
	}
	m.passSameTypeCasts(readers, producer, consts)
	for i := range m.steps {
		q := &m.steps[i]
		if q.node == nil || q.node.Domain != "" || q.node.OpType != "QuantizeLinear" || q.passThrough || q.chain != nil || len(q.out) != 1 {
			continue
		}
		// Q's input: a Relu (fused into the Conv already, or not) or the Conv.
		var relu *step
		c := soleAt(q, 0, "Relu")
		if c != nil {
			relu = c
			if c.passThrough {
				c = c.into
			} else {
				c = soleAt(c, 0, "Conv")
			}
		} else if c = soleAt(q, 0, "Conv"); c != nil && c.passThrough {
			c = nil
		}
		if c == nil || c.node == nil || c.node.OpType != "Conv" || c.passThrough || len(c.in) < 2 {
			continue
		}
		dx, dw, db := soleAt(c, 0, "DequantizeLinear"), soleAt(c, 1, "DequantizeLinear"), (*step)(nil)
		if dx == nil || dw == nil || dx.passThrough || dw.passThrough {
			continue
		}
		if x := dx.in[0]; readers[x] > 1 && !m.readAtOrAfter(x, c, producer) {
			// dx would pass on a value that the run lets go before the Conv
			// reads it (its header stays with x, see passShared).
			continue
		}
		if len(c.in) > 2 && c.in[2] >= 0 {
			if db = soleAt(c, 2, "DequantizeLinear"); db == nil || db.passThrough {
				continue
			}
		}
		var spec ops.QDQ
		ok := true
		get := func(st *step, k int) *tensor.Tensor {
			t, okc := constant(st, k)
			ok = ok && okc
			return t
		}
		spec.DX, spec.XScale, spec.XZero = dx.node, get(dx, 1), get(dx, 2)
		spec.DW, spec.W, spec.WScale, spec.WZero = dw.node, get(dw, 0), get(dw, 1), get(dw, 2)
		if db != nil {
			spec.DB, spec.B, spec.BScale, spec.BZero = db.node, get(db, 0), get(db, 1), get(db, 2)
		}
		spec.Q, spec.YScale, spec.YZero = q.node, get(q, 1), get(q, 2)
		if relu != nil {
			spec.Relu = relu.node
		}
		if !ok {
			continue
		}
		bytes, fused := ops.FuseQDQ(c.node, spec, func(bytes int64) error {
			if bytes > limit-m.packed {
				return fmt.Errorf("%w: packed int8 weights of %d bytes would pass the model's %d", ops.ErrLimit, m.packed+bytes, limit)
			}
			return nil
		})
		if !fused {
			continue
		}
		m.packed += bytes
		for _, d := range []*step{dx, dw, db} {
			if d != nil {
				_, isConst := consts[d.in[0]]
				d.passThrough, d.passIn, d.into = true, 0, c
				d.passShared = isConst || readers[d.in[0]] > 1 || producer[d.in[0]] < 0
				m.fusions++
			}
		}
		if relu != nil && !relu.passThrough {
			relu.passThrough, relu.passIn, relu.into = true, 0, c
			m.fusions++
		}
		q.passThrough, q.passIn, q.into = true, 0, c
		m.fusions++
	}
	for i := range m.steps {
		m.fuseQDQAdd(&m.steps[i], readers, producer, consts, soleAt, constant)
		m.fuseQDQPool(&m.steps[i], readers, producer, consts, soleAt, constant)
	}
}

// fuseQDQPool makes, when q is its QuantizeLinear, the chain
//
//	DequantizeLinear(x) -> MaxPool -> QuantizeLinear
//
// of one scale and zero point run the MaxPool on the 8-bit x
// (ops.FuseQDQPool: exact), on fuseQDQ's terms: the DequantizeLinear
// passes x through and the QuantizeLinear the MaxPool's 8-bit output.
func (m *Model) fuseQDQPool(q *step, readers, producer []int, consts map[int]*tensor.Tensor, soleAt func(*step, int, string) *step, constant func(*step, int) (*tensor.Tensor, bool)) {
	if q.node == nil || q.node.Domain != "" || q.node.OpType != "QuantizeLinear" || q.passThrough || q.chain != nil || len(q.out) != 1 {
		return
	}
	p := soleAt(q, 0, "MaxPool")
	if p == nil || p.passThrough || len(p.in) != 1 {
		return
	}
	d := soleAt(p, 0, "DequantizeLinear")
	if d == nil || d.passThrough {
		return
	}
	if x := d.in[0]; readers[x] > 1 && !m.readAtOrAfter(x, p, producer) {
		return // see fuseQDQ
	}
	ok := true
	get := func(st *step, k int) *tensor.Tensor {
		t, okc := constant(st, k)
		ok = ok && okc
		return t
	}
	spec := ops.QDQ{DX: d.node, Q: q.node}
	spec.XScale, spec.XZero = get(d, 1), get(d, 2)
	spec.YScale, spec.YZero = get(q, 1), get(q, 2)
	if !ok || !ops.FuseQDQPool(p.node, spec) {
		return
	}
	_, isConst := consts[d.in[0]]
	d.passThrough, d.passIn, d.into = true, 0, p
	d.passShared = isConst || readers[d.in[0]] > 1 || producer[d.in[0]] < 0
	q.passThrough, q.passIn, q.into = true, 0, p
	m.fusions += 2
}

// fuseQDQAdd fuses, when q is its QuantizeLinear, the chain
//
//	DequantizeLinear(a) + DequantizeLinear(b) [-> Relu] -> QuantizeLinear
//
// into the Add as one int8 addition (ops.FuseQDQAdd), on fuseQDQ's terms:
// each float value in between read by the next node only; the
// DequantizeLinear nodes then pass their 8-bit inputs through to the Add
// and the Relu and the QuantizeLinear pass its 8-bit output on.
func (m *Model) fuseQDQAdd(q *step, readers, producer []int, consts map[int]*tensor.Tensor, soleAt func(*step, int, string) *step, constant func(*step, int) (*tensor.Tensor, bool)) {
	if q.node == nil || q.node.Domain != "" || q.node.OpType != "QuantizeLinear" || q.passThrough || q.chain != nil || len(q.out) != 1 {
		return
	}
	var relu *step
	a := soleAt(q, 0, "Relu")
	if a != nil {
		if a.passThrough {
			return
		}
		relu, a = a, soleAt(a, 0, "Add")
	} else {
		a = soleAt(q, 0, "Add")
	}
	if a == nil || a.passThrough || len(a.in) != 2 {
		return
	}
	da, db := soleAt(a, 0, "DequantizeLinear"), soleAt(a, 1, "DequantizeLinear")
	if da == nil || db == nil || da == db || da.passThrough || db.passThrough {
		return
	}
	for _, d := range []*step{da, db} {
		if x := d.in[0]; readers[x] > 1 && !m.readAtOrAfter(x, a, producer) {
			return // see fuseQDQ
		}
	}
	ok := true
	get := func(st *step, k int) *tensor.Tensor {
		t, okc := constant(st, k)
		ok = ok && okc
		return t
	}
	spec := ops.QDQAdd{DA: da.node, DB: db.node, Q: q.node}
	spec.AScale, spec.AZero = get(da, 1), get(da, 2)
	spec.BScale, spec.BZero = get(db, 1), get(db, 2)
	spec.YScale, spec.YZero = get(q, 1), get(q, 2)
	if relu != nil {
		spec.Relu = relu.node
	}
	if !ok || !ops.FuseQDQAdd(a.node, spec) {
		return
	}
	for _, d := range []*step{da, db} {
		_, isConst := consts[d.in[0]]
		d.passThrough, d.passIn, d.into = true, 0, a
		d.passShared = isConst || readers[d.in[0]] > 1 || producer[d.in[0]] < 0
		m.fusions++
	}
	for _, st := range []*step{relu, q} {
		if st != nil {
			st.passThrough, st.passIn, st.into = true, 0, a
			m.fusions++
		}
	}
}

// passSameTypeCasts makes each Cast of a QuantizeLinear's output to the
// type it already has (torch.onnx writes one between every QuantizeLinear
// and the DequantizeLinear after it) pass its input through in a run that
// fuses: it would copy it, bit for bit. The type is y_zero_point's (or
// output_dtype's), a constant; a Cast whose output the graph returns, or
// whose input other steps read too, keeps its copy.
func (m *Model) passSameTypeCasts(readers, producer []int, consts map[int]*tensor.Tensor) {
	for i := range m.steps {
		st := &m.steps[i]
		n := st.node
		if n == nil || n.Domain != "" || n.OpType != "Cast" || st.schema == nil || st.passThrough || st.chain != nil ||
			len(st.in) != 1 || st.in[0] < 0 || len(st.out) != 1 || st.out[0] < 0 || slices.Contains(m.outSlots, st.out[0]) {
			continue
		}
		x := st.in[0]
		if producer[x] < 0 {
			continue
		}
		q := &m.steps[producer[x]]
		if q.node == nil || q.node.Domain != "" || q.node.OpType != "QuantizeLinear" || len(q.in) < 3 || q.in[2] < 0 {
			continue
		}
		yz := m.constantOf(q.in[2], producer, consts, 4)
		to, err := n.Int("to", 0)
		if yz == nil || err != nil || int64(yz.DataType()) != to {
			continue
		}
		if od, err := q.node.Int("output_dtype", 0); err != nil || (od != 0 && od != to) {
			continue
		}
		if readers[x] != 1 {
			continue // the copy outlives x, which the run may let go first
		}
		st.passThrough, st.passIn, st.into = true, 0, q
		m.fusions++
	}
}

// readAtOrAfter reports whether value slot x is read by step c or a step
// after it, or is never let go by the graph's run (a graph output, or
// made by no step of the graph): a value that a shared pass-through step passes on to
// c is then alive when c reads it.
func (m *Model) readAtOrAfter(x int, c *step, producer []int) bool {
	if producer[x] < 0 || slices.Contains(m.outSlots, x) {
		return true
	}
	at := -1
	for i := range m.steps {
		if &m.steps[i] == c {
			at = i
		}
	}
	if at < 0 {
		return false
	}
	for i := at; i < len(m.steps); i++ {
		st := &m.steps[i]
		if slices.Contains(st.in, x) || slices.Contains(st.implicit, x) {
			return true
		}
	}
	return false
}
