package graph

// Subgraphs: the bodies of If, Loop, Scan and SequenceMap. A body is
// compiled once, at Load, into steps like the model's own: its values get
// slots in the same numbering as the model's, so that a name it reads from
// an enclosing graph is resolved to that graph's slot once, and a run of
// the body looks values up by slot as the model's nodes do. The run of a
// body happens within the run of the node that calls it (ops.Subgraph.Run
// finds the run's state through the Options the kernel received): the
// same engine, context, caps and storage accounting, and the body's values
// are let go right after their last reader in the body.
//
// Storage crossing the body's boundary (the values it is given and the
// values it returns) is counted while the body holds it but never
// recycled: the kernel that called the body may still hold it.

import (
	"errors"
	"fmt"
	"slices"
	"unsafe"

	"github.com/onnxshape/onnxshape/internal/header"
	"github.com/onnxshape/onnxshape/internal/nodeproto"
	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// MaxSubgraphDepth is the deepest nesting of subgraphs (a Loop's body
// holding an If whose branch holds a Scan...) that Load accepts.
const MaxSubgraphDepth = 256

// scope is the names a graph's nodes can read: its own values, then those
// of the graphs enclosing it.
type scope struct {
	names  map[string]int // the graph's own values, by name
	parent *scope
	// free records the names read from enclosing graphs, with their slots.
	free    map[string]int
	freeSeq []string // free's names in the order first read
}

// lookup returns the slot of the value name visible from s.
func (s *scope) lookup(name string) (int, bool) {
	if slot, ok := s.names[name]; ok {
		return slot, true
	}
	if s.parent == nil {
		return 0, false
	}
	slot, ok := s.parent.lookup(name)
	if ok {
		if _, seen := s.free[name]; !seen {
			if s.free == nil {
				s.free = map[string]int{}
			}
			s.free[name] = slot
			s.freeSeq = append(s.freeSeq, name)
		}
	}
	return slot, ok
}

// depthError is the error of subgraphs nested deeper than
// MaxSubgraphDepth, a limit.
type depthError struct{}

func (*depthError) Error() string {
	return fmt.Sprintf("subgraphs nest deeper than %d levels", MaxSubgraphDepth)
}

func (*depthError) Unwrap() error { return ErrLimit }

// body is a compiled subgraph.
type body struct {
	m     *Model
	name  string
	steps []step
	in    []int // the formal inputs' slots
	// optional holds, per formal input declared optional, what it holds
	// ("" for the others): a value that is not an optional is given to
	// the body as an optional holding it, as a Loop carries a sequence
	// into an input declared optional(seq(...)).
	optional []string
	out      []int // the formal outputs' slots (maybe of enclosing graphs)
	// exit lists the slots the body lets go when it returns: its inputs
	// and its own values that are outputs; exitIn, for each, the input
	// it is (-1 for an output).
	exit, exitIn []int
	sg           *ops.Subgraph
	// id is the body's place in Model.bodies: a run keeps the list of
	// its outputs there (runState.bodyOut).
	id int
	// made marks, per formal output, one that a step of the body makes
	// (not an input, an initializer or a value of an enclosing graph).
	made []bool
	// heirs, for an If's branch, are the If's output slots, one per
	// formal output (-1: unused): the header of an output the body made
	// passes to the If's slot when the body returns, and back to the
	// body's slot when it runs again, so that the step making it reuses
	// it as the main graph's steps do (headers.go), while no one outside
	// the run holds it.
	heirs []int
}

// compileBody compiles the graph attribute g of a node in the graph whose
// names parent holds, at nesting depth depth (1 for a body of a model's
// node), and returns it with the names it reads from enclosing graphs.
func (m *Model) compileBody(g *pb.GraphProto, parent *scope, opsets map[string]int, baseDir string, depth int) (*body, []string, []int, error) {
	if depth > MaxSubgraphDepth {
		return nil, nil, nil, &depthError{}
	}
	b := &body{m: m, name: g.GetName()}
	sc := &scope{names: map[string]int{}, parent: parent}
	newSlot := func(name string) int {
		sc.names[name] = m.numSlots
		m.numSlots++
		return m.numSlots - 1
	}
	for _, sp := range g.GetSparseInitializer() {
		return nil, nil, nil, &kindError{fmt.Errorf("subgraph %q: sparse initializer %q: sparse tensors are not supported", b.name, sp.GetValues().GetName()), ErrUnsupported}
	}
	consts := map[int]bool{}
	for i, tp := range g.GetInitializer() {
		name := tp.GetName()
		if name == "" {
			return nil, nil, nil, fmt.Errorf("subgraph %q: initializer #%d has no name", b.name, i)
		}
		if _, dup := sc.names[name]; dup {
			return nil, nil, nil, fmt.Errorf("subgraph %q: initializer %q is defined twice", b.name, name)
		}
		t, err := onnx.TensorFromProto(tp, baseDir)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("subgraph %q: initializer %q: %w", b.name, name, err)
		}
		s := newSlot(name)
		consts[s] = true
		m.consts = append(m.consts, slotValue{s, t})
	}
	inputs := map[string]bool{}
	for i, vi := range g.GetInput() {
		name := vi.GetName()
		if name == "" || inputs[name] {
			return nil, nil, nil, fmt.Errorf("subgraph %q: input #%d %q has no name or is declared twice", b.name, i, name)
		}
		inputs[name] = true
		b.in = append(b.in, newSlot(name)) // an input hides an initializer of its name
		opt := ""
		if ot := vi.GetType().GetOptionalType(); ot != nil {
			opt = onnx.DescribeType(ot.GetElemType())
		}
		b.optional = append(b.optional, opt)
	}
	nodes := g.GetNode()
	producer := make(map[string]int, len(nodes))
	for i, np := range nodes {
		for _, name := range np.GetOutput() {
			if name == "" {
				continue
			}
			if _, ok := sc.names[name]; ok {
				return nil, nil, nil, nodeError(np, i, 0, fmt.Errorf("output %q of subgraph %q is already defined in it", name, b.name))
			}
			newSlot(name)
			producer[name] = i
		}
	}
	steps, err := m.compileNodes(nodes, sc, producer, opsets, baseDir, depth)
	if err != nil {
		return nil, nil, nil, err
	}
	b.steps = steps
	types := make([]tensor.DataType, 0, len(g.GetOutput()))
	for i, vi := range g.GetOutput() {
		s, ok := sc.lookup(vi.GetName())
		if !ok {
			return nil, nil, nil, fmt.Errorf("subgraph %q: output #%d %q is produced by no node, input or initializer", b.name, i, vi.GetName())
		}
		b.out = append(b.out, s)
		dt := tensor.Undefined
		if tt := vi.GetType().GetTensorType(); tt != nil && tensor.DataType(tt.GetElemType()).Valid() {
			dt = tensor.DataType(tt.GetElemType())
		}
		types = append(types, dt)
	}

	// The body's own values die after their last reader in it, except its
	// inputs, initializers and outputs, let go when it returns.
	own := make(map[int]bool, len(sc.names))
	for _, s := range sc.names {
		own[s] = true
	}
	kept := map[int]bool{}
	for _, s := range b.in {
		kept[s] = true
	}
	for s := range consts {
		kept[s] = true
	}
	for _, s := range b.out {
		kept[s] = true
	}
	planReleases(b.steps, func(s int) bool { return own[s] && !kept[s] }, 0)
	seen := map[int]bool{}
	for i, s := range append(append([]int{}, b.in...), b.out...) {
		if own[s] && !consts[s] && !seen[s] {
			seen[s] = true
			b.exit = append(b.exit, s)
			in := -1
			if i < len(b.in) {
				in = i
			}
			b.exitIn = append(b.exitIn, in)
		}
	}
	made := map[int]bool{}
	for i := range b.steps {
		for _, s := range b.steps[i].out {
			if s >= 0 {
				made[s] = true
			}
		}
	}
	b.made = make([]bool, len(b.out))
	for i, s := range b.out {
		b.made[i] = made[s] && !slices.Contains(b.out[:i], s)
	}
	b.sg = &ops.Subgraph{Inputs: len(b.in), Outputs: len(b.out), OutputTypes: types, Run: b.run, Done: b.done}
	b.id = len(m.bodies)
	m.bodies = append(m.bodies, b)
	free := make([]int, len(sc.freeSeq))
	for i, name := range sc.freeSeq {
		free[i] = sc.free[name]
	}
	return b, sc.freeSeq, free, nil
}

// compileNodes prepares the nodes of one graph, whose names sc holds and
// whose node outputs producer maps to their node, and returns them in an
// order that runs producers first, counting what their subgraphs read.
func (m *Model) compileNodes(nodes []*pb.NodeProto, sc *scope, producer map[string]int, opsets map[string]int, baseDir string, depth int) ([]step, error) {
	steps := make([]step, len(nodes))
	var implicit [][]string
	for i, np := range nodes {
		st, names, err := m.prepareNode(np, i, opsets, sc, baseDir, depth)
		if err != nil {
			return nil, err
		}
		steps[i] = st
		if len(names) > 0 {
			if implicit == nil {
				implicit = make([][]string, len(nodes))
			}
			implicit[i] = names
		}
	}
	order, err := nodeproto.SortWith(nodes, producer, implicit)
	if err != nil {
		return nil, err
	}
	sorted := make([]step, 0, len(steps))
	for _, i := range order {
		sorted = append(sorted, steps[i])
	}
	return sorted, nil
}

// planReleases adds to each step the slots for which it is the last
// reader (or the producer no step reads) among those for which mine holds.
// numSlots, when positive, bounds the slots the steps use (the model's own
// graph, where a slice beats a map); 0 for a subgraph's few.
func planReleases(steps []step, mine func(int) bool, numSlots int) {
	var lastS []int       // slot -> position+1 of the last step to touch it
	var lastM map[int]int // the same, for a subgraph
	if numSlots > 0 {
		lastS = make([]int, numSlots)
	} else {
		lastM = map[int]int{}
	}
	touch := func(s, pos int) {
		if lastS != nil {
			lastS[s] = pos
		} else {
			lastM[s] = pos
		}
	}
	for pos, st := range steps {
		for _, s := range st.out {
			if s >= 0 {
				touch(s, pos+1)
			}
		}
		for _, s := range st.in {
			if s >= 0 {
				touch(s, pos+1)
			}
		}
		for _, s := range st.implicit {
			touch(s, pos+1)
		}
	}
	add := func(s, pos int) {
		if pos > 0 && mine(s) {
			steps[pos-1].release = append(steps[pos-1].release, s)
		}
	}
	for s, pos := range lastS {
		add(s, pos)
	}
	for s, pos := range lastM {
		add(s, pos)
	}
}

// errNoRun is the error of a body run outside a run of its model.
var errNoRun = errors.New("a subgraph of a model runs only within a run of that model")

// run runs the body on in within the run opt belongs to.
func (b *body) run(opt *ops.Options, in []tensor.Value) ([]tensor.Value, error) {
	r, ok := runenv.ScopeOf(opt).(*runState)
	if !ok || r == nil || r.m != b.m {
		return nil, errNoRun
	}
	if len(in) != len(b.in) {
		return nil, fmt.Errorf("subgraph %q takes %d inputs, got %d", b.name, len(b.in), len(in))
	}
	for i, v := range in {
		if v == nil || isNilValue(v) {
			return nil, fmt.Errorf("subgraph %q: input %d is missing", b.name, i)
		}
	}
	if b.heirs != nil {
		b.takeHeaders(r)
	}
	// The kernel's charges so far stay counted while the body runs.
	outer := r.pending
	r.base += outer
	r.pending = 0
	r.clearFresh()
	out, err := b.runSteps(r, in)
	r.clearFresh()
	r.base -= outer
	r.pending = outer
	return out, err
}

// runSteps is run once the kernel's charges are set aside.
func (b *body) runSteps(r *runState, in []tensor.Value) ([]tensor.Value, error) {
	if r.bodyOut == nil {
		r.bodyOut = make([][]tensor.Value, len(b.m.bodies))
		r.bodyHeld = make([][]bool, len(b.m.bodies))
	}
	held := r.bodyHeld[b.id]
	if len(held) != len(b.in) {
		held = make([]bool, len(b.in))
		r.bodyHeld[b.id] = held
	}
	frame := len(r.foreign)
	for i, s := range b.in {
		v := in[i]
		if b.optional[i] != "" {
			if _, ok := v.(*tensor.Optional); !ok {
				v = &tensor.Optional{Value: v, ElemType: b.optional[i]}
			}
		}
		r.vals[s] = v
		held[i] = r.holdForeign(v)
	}
	var err error
	for pos := range b.steps {
		st := &b.steps[pos]
		if err = r.ctx.Err(); err != nil {
			err = st.fail(err)
			break
		}
		if err = r.runStep(st, false); err != nil {
			break
		}
		r.release(st.release)
	}
	var out []tensor.Value
	if err == nil {
		// The list is the run's, reused by the next run of the body: the
		// kernel reads it before it runs the body again (ops.Subgraph).
		if out = r.bodyOut[b.id]; len(out) != len(b.out) {
			out = make([]tensor.Value, len(b.out))
			r.bodyOut[b.id] = out
		}
		for i, s := range b.out {
			out[i] = r.vals[s]
			r.escape(out[i])
			if h := r.headers[s]; h != nil && b.made[i] && out[i] == tensor.Value(h) {
				switch {
				case b.heirs != nil && b.heirs[i] >= 0:
					r.headers[b.heirs[i]] = h // the If's output, as it is
				case b.heirs == nil:
					r.noteLentHeader(h, b.id, s)
				}
			}
			r.headers[s] = nil // the kernel's now
		}
	}
	for k, s := range b.exit {
		// An input only the body's foreign storage or the model's or
		// the caller's holds (held false) has nothing to let go.
		if i := b.exitIn[k]; i < 0 || held[i] {
			r.drop(r.vals[s])
		}
		r.vals[s] = nil
		if h := r.headers[s]; h != nil {
			header.Detach(h)
		}
	}
	r.popForeign(frame)
	// The outputs' storage the run made that nothing in the run holds now
	// is the kernel's alone: it may give it back (body.done). Only pieces
	// a spare could be: what the run keeps uncounted stays within the
	// spares' bound.
	for _, buf := range r.escaping {
		if len(buf) > maxSpareBytes || r.owned.find(unsafe.Pointer(unsafe.SliceData(buf))) >= 0 {
			continue
		}
		if len(r.escaped) >= maxSpares {
			r.escaped[0] = nil
			r.escaped = slices.Delete(r.escaped, 0, 1)
		}
		r.escaped = append(r.escaped, buf)
	}
	for i := range r.escaping {
		r.escaping[i] = nil
	}
	r.escaping = r.escaping[:0]
	if err != nil {
		// The body's values left behind go with the run's failure: clear
		// them so that a later body run starts clean.
		for pos := range b.steps {
			for _, s := range b.steps[pos].out {
				if s >= 0 && r.vals[s] != nil {
					r.drop(r.vals[s])
					r.vals[s] = nil
				}
			}
		}
		return nil, err
	}
	return out, nil
}

// takeHeaders moves to the body's output slots the headers its outputs
// had as the If's outputs in the run before (see body.heirs).
func (b *body) takeHeaders(r *runState) {
	for i, s := range b.out {
		h := b.heirs[i]
		if h < 0 || r.headers[h] == nil {
			continue
		}
		if b.made[i] && r.headers[s] == nil {
			r.headers[s] = r.headers[h]
		}
		r.headers[h] = nil
	}
}

// clearFresh forgets the storage the running node's allocator made: what
// crosses a body's boundary is never a spare.
func (r *runState) clearFresh() {
	for i := range r.fresh {
		r.fresh[i] = nil // a loop: a few, cheaper than clear's call
	}
	r.fresh = r.fresh[:0]
}

// holdForeign counts the storage of a value a kernel hands a body, which
// the run must never recycle: the kernel may hold it still. It reports
// whether the body's exit must drop the value: a tensor whose storage the
// run held already (its holding is counted once more), or any value not
// a tensor. A tensor of storage the run does not hold, not the model's
// or the caller's, is foreign: its bytes count in the run's live bytes
// from here to the body's exit (runState.foreign), with no holding to
// look up or let go in between.
func (r *runState) holdForeign(v tensor.Value) bool {
	if t, ok := v.(*tensor.Tensor); ok {
		return r.holdForeignTensor(t) // no closure for the common case
	}
	forEachTensor(v, func(t *tensor.Tensor) { r.holdForeignTensor(t) })
	return true
}

func (r *runState) holdForeignTensor(t *tensor.Tensor) bool {
	k, n := storageOf(t)
	if k == nil {
		return false
	}
	if i := r.owned.find(k); i >= 0 {
		r.owned.entries[i].refs++
		return true
	}
	if r.isForeign(k) || r.notCounted(k) {
		return false
	}
	r.live += n
	r.foreign = append(r.foreign, foreignStorage{k, n})
	return false
}

// foreignStorage is storage a kernel handed a body that the run counts
// but does not hold (runState.foreign).
type foreignStorage struct {
	k     storageKey
	bytes int64
}

// isForeign reports whether k is the storage of a value a kernel handed
// a body now running. Such storage outlives the body's values: a value
// of the body that views it (an Identity of an input) holds nothing, and
// its bytes are counted until the body's exit, whatever its values do.
func (r *runState) isForeign(k storageKey) bool {
	for i := range r.foreign {
		if r.foreign[i].k == k {
			return true
		}
	}
	return false
}

// popForeign ends the foreign storage of the body whose run began with
// frame entries in r.foreign.
func (r *runState) popForeign(frame int) {
	for _, f := range r.foreign[frame:] {
		r.live -= f.bytes
	}
	clear(r.foreign[frame:])
	r.foreign = r.foreign[:frame]
}

// maxKnownKeys bounds runState.known.
const maxKnownKeys = 8

// knownKey is the storage of a value a kernel handed a body, with whether
// it is the model's or the caller's (and so not counted).
type knownKey struct {
	k     storageKey
	fixed bool
}

// notCounted reports whether k, storage a kernel hands a body that the
// run does not hold, is the model's or the caller's. The answer for a key
// holds for the whole run: the model's storage and the caller's inputs
// live through it, so no other storage takes their address, and storage
// that is neither never becomes either. The run remembers the last
// maxKnownKeys answers (runState.known): a Loop or a Scan hands its body
// the same few pieces of storage at every iteration (its counters, the
// two buffers its carried values alternate between), which then cost no
// map lookup.
func (r *runState) notCounted(k storageKey) bool {
	for i := range r.known {
		if r.known[i].k == k {
			return r.known[i].fixed
		}
	}
	_, fixed := r.m.fixed[k]
	if !fixed && len(r.external) > 0 {
		_, fixed = r.external[k]
	}
	r.known[r.knownNext%maxKnownKeys] = knownKey{k, fixed}
	r.knownNext++
	return fixed
}

// escape marks the storage of a value a body returns as never to be
// recycled: the kernel that called the body holds it.
func (r *runState) escape(v tensor.Value) {
	if t, ok := v.(*tensor.Tensor); ok {
		r.escapeTensor(t) // no closure for the common case
		return
	}
	forEachTensor(v, r.escapeTensor)
}

func (r *runState) escapeTensor(t *tensor.Tensor) {
	k, _ := storageOf(t)
	if k == nil {
		return
	}
	if i := r.owned.find(k); i >= 0 {
		if e := &r.owned.entries[i]; e.spare && e.buf != nil {
			r.escaping = append(r.escaping, e.buf)
		}
		r.owned.entries[i].buf = nil
		r.owned.entries[i].spare = false
	}
}

// done is the body's ops.Subgraph.Done: storage of t that the run made
// and a body returned (runState.escaped) becomes a spare again, or goes
// back to the Pool.
func (b *body) done(opt *ops.Options, t *tensor.Tensor) {
	r, ok := runenv.ScopeOf(opt).(*runState)
	if !ok || r == nil || r.m != b.m || t == nil {
		return
	}
	k, _ := storageOf(t)
	if k == nil || t.DataType() == tensor.String {
		return
	}
	for i, buf := range r.escaped {
		if unsafe.Pointer(unsafe.SliceData(buf)) != k {
			continue
		}
		r.escaped = slices.Delete(r.escaped, i, i+1)
		if r.owned.find(k) >= 0 {
			return // held again (cannot happen while the kernel keeps Done's terms)
		}
		if !r.spare(buf) && r.pool != nil {
			r.pool.recycle(buf)
		}
		// Nothing in the run holds t's storage, so no value of the
		// run is t: its header may go back to the body's step too.
		r.takeBackHeader(b.id, t)
		return
	}
	// Storage the run did not make (a view of a value the kernel gave
	// the body, as the Loop's condition passed through an Identity): not
	// the run's to recycle, but when nothing in the run holds it, no
	// value of the run is t either, and its header may go back.
	if r.lentNext > 0 && r.owned.find(k) < 0 {
		r.takeBackHeader(b.id, t)
	}
}

// maxLentHeaders bounds runState.lentHeaders.
const maxLentHeaders = 16

// lentHeader is the header a step of a body made for its output slot,
// which the body returned to its kernel.
type lentHeader struct {
	t          *tensor.Tensor
	body, slot int
}

// noteLentHeader notes that the body returned h, the header the run made
// for slot, to its kernel: when the kernel gives it back (body.done), the
// step making slot reuses it, as a step of the model reuses the header of
// its output in the next run (headers.go). The last maxLentHeaders are
// kept, in a ring: a kernel gives back what a body returned one or two
// runs of the body before, or never.
func (r *runState) noteLentHeader(h *tensor.Tensor, body, slot int) {
	r.lentHeaders[r.lentNext%maxLentHeaders] = lentHeader{h, body, slot}
	r.lentNext++
}

// takeBackHeader gives t back to the slot whose step made it, when t is
// a header a run of body lent a kernel (noteLentHeader) and the slot has
// none: the kernel, by Subgraph.Done's terms, holds it no more, and the
// caller found that nothing in the run holds its storage.
func (r *runState) takeBackHeader(body int, t *tensor.Tensor) {
	// Newest first: a kernel gives back what the body returned lately.
	for j := range min(r.lentNext, maxLentHeaders) {
		h := &r.lentHeaders[(r.lentNext-1-j)%maxLentHeaders]
		if h.t != t || h.body != body {
			continue
		}
		if r.headers[h.slot] == nil {
			r.headers[h.slot] = t
		}
		*h = lentHeader{}
		return
	}
}
