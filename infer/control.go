package infer

import (
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// Control flow and sequences: If and Loop infer their bodies in a scope
// that sees the enclosing graph's values; sequences carry the type and
// shape of their items.

func init() {
	register(ifRule, "If")
	register(loopRule, "Loop")
	register(scanRule, "Scan")
	register(sequenceMapRule, "SequenceMap")
	register(sequenceConstructRule, "SequenceConstruct")
	register(sequenceEmptyRule, "SequenceEmpty")
	register(sequenceItemRule, "SequenceAt")
	register(sequenceSameRule, "SequenceInsert", "SequenceErase")
	register(sequenceLengthRule, "SequenceLength")
	register(splitToSequenceRule, "SplitToSequence")
	register(concatFromSequenceRule, "ConcatFromSequence")
	register(optionalRule, "Optional")
	register(sequenceItemRule, "OptionalGetElement")
	register(boolScalarRule, "OptionalHasElement")
}

// merge returns what two possible values of one output have in common:
// the dimensions they agree on, fresh symbols where they differ.
func (c *call) merge(a, b *Value) *Value {
	if a == nil || b == nil {
		return &Value{}
	}
	out := &Value{Kind: a.Kind, Type: a.Type}
	if a.Type != b.Type {
		out.Type = tensor.Undefined
	}
	if a.Rank() < 0 || a.Rank() != b.Rank() {
		return out
	}
	out.Ranked = true
	for i, d := range a.Shape {
		if d.Equal(b.Shape[i]) {
			out.Shape = append(out.Shape, d)
		} else {
			out.Shape = append(out.Shape, c.fresh())
		}
	}
	return out
}

// subgraph infers body with its inputs set to args (by position; those
// beyond args keep their declared types) and returns its outputs.
func (c *call) subgraph(body *pb.GraphProto, args []*Value) []*Value {
	sc := &scope{parent: c.scope, vals: map[string]*Value{}}
	for _, tp := range body.GetInitializer() {
		sc.vals[tp.GetName()] = c.e.initializer(tp)
	}
	for i, vi := range body.GetInput() {
		v := c.e.fromType(vi.GetType())
		if i < len(args) && args[i] != nil {
			a := *args[i]
			if a.Type == tensor.Undefined {
				a.Type = v.Type
			}
			v = &a
		}
		sc.vals[vi.GetName()] = v
	}
	c.e.runGraph(body, sc, "subgraph of "+c.np.GetName()+": ", nil)
	outs := make([]*Value, len(body.GetOutput()))
	for i, vi := range body.GetOutput() {
		v, ok := sc.lookup(vi.GetName())
		if !ok || v == nil {
			v = c.e.fromType(vi.GetType())
		}
		outs[i] = v
	}
	return outs
}

// ifRule: the branch a known condition takes (the other, which never runs,
// is not inferred), or what both branches agree on, each inferred as a
// branch that may not run (see Note).
func ifRule(c *call, in []*Value) ([]*Value, error) {
	thenG, elseG := c.subgraphs["then_branch"], c.subgraphs["else_branch"]
	if thenG == nil || elseG == nil {
		return nil, c.errorf("branches", "If needs then_branch and else_branch")
	}
	if cond := input(in, 0); cond != nil && len(cond.Elems) == 1 {
		if b, ok := cond.Elems[0].Value(); ok {
			if b != 0 {
				return c.subgraph(thenG, nil), nil
			}
			return c.subgraph(elseG, nil), nil
		}
	}
	a, b := c.mayRun("then_branch", thenG), c.mayRun("else_branch", elseG)
	if len(a) != len(b) {
		return nil, c.errorf("branches", "the branches have %d and %d outputs", len(a), len(b))
	}
	out := make([]*Value, len(a))
	for i := range a {
		out[i] = c.merge(a[i], b[i])
	}
	return out, nil
}

// mayRun infers the If branch attr, body, whose condition is not known: a
// declaration it contradicts is a Note naming the branch.
func (c *call) mayRun(attr string, body *pb.GraphProto) []*Value {
	name, _ := nodeIdentity(c.np, c.index)
	c.e.undecided = append(c.e.undecided, name+"'s "+attr)
	defer func() { c.e.undecided = c.e.undecided[:len(c.e.undecided)-1] }()
	return c.subgraph(body, nil)
}

// loopRule: the loop-carried values keep what their initial values and
// the body's results agree on; each scan output gains a leading axis of
// the trip count (M when the loop has no condition, a fresh symbol
// otherwise).
func loopRule(c *call, in []*Value) ([]*Value, error) {
	body := c.subgraphs["body"]
	if body == nil {
		return nil, c.errorf("body", "Loop needs a body")
	}
	carried := []*Value{}
	if len(in) > 2 {
		carried = in[2:]
	}
	// The body sees its first iteration's condition (true while it runs)
	// and the loop-carried values without their contents, which change
	// from one iteration to the next. Their shapes may change too (a
	// value that grows by a Concat each trip): when the body gives a
	// carried value another shape than it was given, the body is inferred
	// again with the dimensions that changed made fresh symbols, then, if
	// that is not stable either, with those values of unknown shape; so
	// what the body's values are inferred to be holds in every iteration,
	// not only the first. The body is inferred at most three times.
	cond := ranked(tensor.Bool, []graph.Dim{})
	cond.Elems = []graph.Dim{graph.Const(1)}
	args := []*Value{ranked(tensor.Int64, []graph.Dim{}), cond}
	for _, v := range carried {
		if v != nil {
			v = same(v)
		}
		args = append(args, v)
	}
	free := map[string]bool{} // the symbols a widening made: any value
	var res []*Value
	for round := 0; ; round++ {
		res = c.subgraph(body, args)
		if len(res) < 1+len(carried) {
			return nil, c.errorf("body", "the body has %d outputs for %d loop-carried values", len(res), len(carried))
		}
		stable := true
		for i := range carried {
			a, r := args[2+i], res[1+i]
			if a == nil || covers(a, r, free) {
				continue
			}
			stable = false
			if round == 0 {
				args[2+i] = c.widen(a, r, free)
			} else {
				args[2+i] = &Value{Kind: a.Kind, Type: a.Type}
			}
		}
		if stable || round == 2 {
			break
		}
	}
	// The loop runs M times when nothing can stop it early: no condition,
	// or one that starts true and that the body keeps true.
	trips := c.fresh()
	alwaysTrue := func(v *Value) bool {
		if v == nil || len(v.Elems) != 1 {
			return false
		}
		b, ok := v.Elems[0].Value()
		return ok && b != 0
	}
	if m := input(in, 0); m != nil && len(m.Elems) == 1 && (input(in, 1) == nil || (alwaysTrue(input(in, 1)) && alwaysTrue(res[0]))) {
		trips = m.Elems[0]
	}
	var out []*Value
	for i, v := range carried {
		out = append(out, c.merge(v, res[1+i]))
	}
	for _, s := range res[1+len(carried):] {
		if s.Rank() < 0 {
			out = append(out, Unknown(s.Type))
			continue
		}
		out = append(out, ranked(s.Type, append([]graph.Dim{trips}, s.Shape...)))
	}
	return out, nil
}

// sequenceMapRule: each output is a sequence of what the body gives for
// one item of the sequence inputs (the tensor inputs passed whole); the
// items' shapes are what every item's has in common, as the body sees an
// item with the sequence's common shape.
func sequenceMapRule(c *call, in []*Value) ([]*Value, error) {
	body := c.subgraphs["body"]
	if body == nil {
		return nil, c.errorf("body", "SequenceMap needs a body")
	}
	args := make([]*Value, len(in))
	for i, v := range in {
		if v == nil {
			continue
		}
		a := same(v)
		if a.Kind == graph.KindSequence {
			a.Kind = graph.KindTensor
			a.Elems = nil
		}
		args[i] = a
	}
	res := c.subgraph(body, args)
	out := make([]*Value, len(res))
	for i, v := range res {
		o := &Value{Kind: graph.KindSequence}
		if v != nil {
			o = same(v)
			o.Kind = graph.KindSequence
			o.Elems = nil
		}
		out[i] = o
	}
	return out, nil
}

// scanRule: the states keep their shapes; each scan output gains the
// sequence length as its axis (0 unless scan_output_axes says).
func scanRule(c *call, in []*Value) ([]*Value, error) {
	body := c.subgraphs["body"]
	if body == nil {
		return nil, c.errorf("body", "Scan needs a body")
	}
	m := int(c.int("num_scan_inputs", 0))
	if c.version() < 9 {
		return c.scan8(body, in, m)
	}
	n := len(in) - m
	if n < 0 || m < 1 {
		return nil, c.errorf("num_scan_inputs", "num_scan_inputs %d for %d inputs", m, len(in))
	}
	inAxes, _ := c.ints("scan_input_axes")
	outAxes, _ := c.ints("scan_output_axes")
	args := append([]*Value{}, in[:n]...)
	seq := c.fresh()
	for j, v := range in[n:] {
		if v.Rank() < 1 {
			args = append(args, Unknown(typeOf(in, n+j)))
			continue
		}
		axis := 0
		if c.version() >= 9 && j < len(inAxes) {
			k, err := c.normAxis(inAxes[j], v.Rank())
			if err != nil {
				return nil, err
			}
			axis = k
		}
		seq = v.Shape[axis]
		slice := same(v)
		slice.Shape = append(append([]graph.Dim{}, v.Shape[:axis]...), v.Shape[axis+1:]...)
		args = append(args, slice)
	}
	res := c.subgraph(body, args)
	var out []*Value
	for i := 0; i < n && i < len(res); i++ {
		out = append(out, c.merge(in[i], res[i]))
	}
	for j, s := range res[min(n, len(res)):] {
		if s.Rank() < 0 {
			out = append(out, Unknown(s.Type))
			continue
		}
		axis := 0
		if j < len(outAxes) {
			k, err := c.normAxis(outAxes[j], s.Rank()+1)
			if err != nil {
				return nil, err
			}
			axis = k
		}
		shape := append(append(append([]graph.Dim{}, s.Shape[:axis]...), seq), s.Shape[axis:]...)
		out = append(out, ranked(s.Type, shape))
	}
	return out, nil
}

// scan8: Scan-8's inputs are sequence_lens then [batch, sequence, ...]
// tensors; the body sees one batch item and one step.
func (c *call) scan8(body *pb.GraphProto, in []*Value, m int) ([]*Value, error) {
	if len(in) > 0 {
		in = in[1:]
	}
	n := len(in) - m
	if n < 0 || m < 1 {
		return nil, c.errorf("num_scan_inputs", "num_scan_inputs %d for %d inputs", m, len(in))
	}
	batch, seq := c.fresh(), c.fresh()
	var args []*Value
	for i, v := range in {
		drop := 1
		if i >= n {
			drop = 2
		}
		if v.Rank() < drop {
			args = append(args, Unknown(typeOf(in, i)))
			continue
		}
		batch = v.Shape[0]
		if i >= n {
			seq = v.Shape[1]
		}
		args = append(args, ranked(v.Type, append([]graph.Dim{}, v.Shape[drop:]...)))
	}
	res := c.subgraph(body, args)
	var out []*Value
	for i, s := range res {
		lead := []graph.Dim{batch}
		if i >= n {
			lead = append(lead, seq)
		}
		if s.Rank() < 0 {
			out = append(out, Unknown(s.Type))
			continue
		}
		out = append(out, ranked(s.Type, append(lead, s.Shape...)))
	}
	return out, nil
}

func sequenceConstructRule(c *call, in []*Value) ([]*Value, error) {
	if len(in) == 0 {
		return []*Value{{Kind: graph.KindSequence}}, nil
	}
	item := same(in[0])
	for _, v := range in[1:] {
		item = c.merge(item, v)
	}
	item.Kind = graph.KindSequence
	return []*Value{item}, nil
}

func sequenceEmptyRule(c *call, in []*Value) ([]*Value, error) {
	return []*Value{{Kind: graph.KindSequence, Type: tensor.DataType(c.int("dtype", int64(tensor.Float)))}}, nil
}

// sequenceItemRule: an item of a sequence (or the value of an optional).
func sequenceItemRule(c *call, in []*Value) ([]*Value, error) {
	out := same(input(in, 0))
	out.Kind = graph.KindTensor
	return []*Value{out}, nil
}

func sequenceSameRule(c *call, in []*Value) ([]*Value, error) {
	s := same(input(in, 0))
	if c.node.OpType == "SequenceInsert" {
		item := same(input(in, 1))
		item.Kind = graph.KindSequence
		s = c.merge(s, item)
	}
	s.Kind = graph.KindSequence
	return []*Value{s}, nil
}

func sequenceLengthRule(c *call, in []*Value) ([]*Value, error) {
	return []*Value{ranked(tensor.Int64, []graph.Dim{})}, nil
}

func splitToSequenceRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	out := same(x)
	out.Kind = graph.KindSequence
	if x.Rank() < 0 {
		return []*Value{out}, nil
	}
	axis, err := c.normAxis(c.int("axis", 0), x.Rank())
	if err != nil {
		return nil, err
	}
	split := input(in, 1)
	switch {
	case split == nil && c.int("keepdims", 1) == 0:
		out.Shape = append(append([]graph.Dim{}, x.Shape[:axis]...), x.Shape[axis+1:]...)
	case split == nil:
		out.Shape[axis] = graph.Const(1)
	case split.Rank() == 0 && len(split.Elems) == 1:
		out.Shape[axis] = split.Elems[0]
	default:
		out.Shape[axis] = c.fresh()
	}
	return []*Value{out}, nil
}

func concatFromSequenceRule(c *call, in []*Value) ([]*Value, error) {
	s := input(in, 0)
	if s.Rank() < 0 {
		return []*Value{Unknown(typeOf(in, 0))}, nil
	}
	r := s.Rank()
	newAxis := c.int("new_axis", 0) == 1
	if newAxis {
		r++
	}
	axis, err := c.normAxis(c.int("axis", 0), r)
	if err != nil {
		return nil, err
	}
	out := ranked(s.Type, append([]graph.Dim{}, s.Shape...))
	if newAxis {
		out.Shape = append(append(append([]graph.Dim{}, s.Shape[:axis]...), c.fresh()), s.Shape[axis:]...)
	} else {
		out.Shape[axis] = c.fresh()
	}
	return []*Value{out}, nil
}

// optionalRule: an optional of the input, or, without one, of the type
// attribute.
func optionalRule(c *call, in []*Value) ([]*Value, error) {
	out := same(input(in, 0))
	if input(in, 0) == nil {
		for _, a := range c.np.GetAttribute() {
			if a.GetName() == "type" && a.GetTp() != nil {
				out = c.e.fromType(a.GetTp())
			}
		}
	}
	out.Kind = graph.KindOptional
	return []*Value{out}, nil
}

func boolScalarRule(c *call, in []*Value) ([]*Value, error) {
	return []*Value{ranked(tensor.Bool, []graph.Dim{})}, nil
}

// covers reports whether a, a loop-carried value the body was given,
// holds r, what the body gave back for it: a of unknown rank, or of r's
// rank with each dimension r's or a symbol of free.
func covers(a, r *Value, free map[string]bool) bool {
	if a.Rank() < 0 {
		return true
	}
	if r == nil || r.Rank() != a.Rank() {
		return false
	}
	for k, d := range a.Shape {
		if !d.Equal(r.Shape[k]) && !free[d.String()] {
			return false
		}
	}
	return true
}

// widen returns a with the dimensions r does not share made fresh symbols
// (recorded in free), or of unknown rank when r's rank differs.
func (c *call) widen(a, r *Value, free map[string]bool) *Value {
	if r == nil || r.Rank() != a.Rank() {
		return &Value{Kind: a.Kind, Type: a.Type}
	}
	out := same(a)
	for k, d := range a.Shape {
		if !d.Equal(r.Shape[k]) && !free[d.String()] {
			f := c.fresh()
			free[f.String()] = true
			out.Shape[k] = f
		}
	}
	return out
}
