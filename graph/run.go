package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/onnxshape/onnxshape/internal/header"
	"github.com/onnxshape/onnxshape/internal/memlimit"
	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// A run's lifecycle, in the order of this file: Run checks the options;
// startRun makes the run's state (its budget under MaxRunBytes, its arena
// of slots, the pool it draws on); setInputs checks and holds the inputs;
// each step runs its node (runStep: its inputs gathered, the kernel, a
// prepared replay or the reference engine called, its outputs held, the
// values it read last let go); endRun hands the outputs to the caller and
// gives the rest back to the pool, or abandon does when the run failed.
// How values are held and let go is memory.go; the storage a Pool lends is
// pool.go; subgraph bodies (If, Loop, Scan) run through the same state
// (subgraph.go).

// DefaultMaxRunBytes is the most the default cap on a run's live bytes
// can be (see DefaultRunCap).
const DefaultMaxRunBytes = 4 << 30

var defaultRunCap = sync.OnceValue(func() int64 { return runCapWithin(memlimit.Process().Bytes) })

// RunOptions are the settings of one run: the profile, the size limits,
// the core count, the storage pool and the engine. A nil *RunOptions means
// the defaults. The run's context is Run's argument.
type RunOptions struct {
	// Profile selects ONNX or SONNX rules (see ops.Profile).
	Profile ops.Profile
	// MaxTensorBytes caps the storage of any one tensor a node creates
	// (0 means ops.DefaultMaxTensorBytes; negative means no cap).
	MaxTensorBytes int64
	// Threads caps the cores a node uses. 0 shares the cores between the
	// runs under way: each node takes GOMAXPROCS divided by the number of
	// runs, at least one.
	Threads int
	// MaxRunBytes caps the live bytes of the run: the storage of the tensors
	// the run has created and still holds, together with what the running
	// node asks for, outputs and scratch (0 means DefaultRunCap(): 4 GiB,
	// or less where the process may use less memory;
	// negative means no cap). A value is let go right after the last node
	// that reads it; the caller's inputs, the initializers and views (such
	// as Reshape's output, which shares its input's storage) cost nothing.
	// A node that would pass the cap is refused before it allocates.
	MaxRunBytes int64
	// Pool, when set, provides the storage of the tensors the run creates
	// and takes each intermediate back right after its last reader. The
	// outputs stay the caller's until Pool.Release. Without one, the model
	// still keeps the storage of a run's intermediates for its next run
	// (at most 256 MiB, or a quarter of MaxRunBytes, per run under way), so
	// a model run in a loop allocates little more than its outputs; a Pool
	// recycles the outputs as well.
	Pool *Pool
	// Engine selects the fast or the reference kernels (see Engine).
	Engine Engine
	// Outputs, when not empty, are the values the run returns instead of the
	// graph's outputs: any value of the model's graph by name, an
	// intermediate one, an input or an initializer (Model.ValueNames lists
	// them). The run then executes only the nodes they depend on, needs
	// only the inputs those read, and keeps only what is still to be read
	// or returned.
	Outputs []string
	// Times, when set, is given the wall time of each node the run runs
	// (see NodeTimes); runs may share one.
	Times *NodeTimes

	// charge, when set (by tests, through export_test.go), is told every
	// charge of the run before the run's own cap checks it.
	charge func(int64) error
}

// DefaultRunCap is the cap on a run's live bytes that RunOptions.MaxRunBytes
// 0 means: DefaultMaxRunBytes, or less when the process may use less
// memory than twice that. The memory the process may use is the smallest
// of its cgroup's limit (v2 memory.max, v1 memory.limit_in_bytes), its
// address-space limit (RLIMIT_AS, `ulimit -v`, less the address space it
// already holds) and GOMEMLIMIT, read once (package internal/memlimit);
// the cap leaves headroom in it (see runCapWithin). An explicit
// MaxRunBytes is used as given.
func DefaultRunCap() int64 { return defaultRunCap() }

// runCapWithin is the default run cap under a memory limit of limit bytes:
// a quarter of it, at most 256 MiB, is kept for the runtime, the model and
// its initializers, and half of the rest for the run, since between two
// collections Go's heap grows to twice the bytes it holds (GOGC=100).
// Under a limit of 4 GiB that is 1.875 GiB (under a 4 GiB `ulimit -v`,
// less since memlimit counts what the process already holds).
func runCapWithin(limit int64) int64 {
	reserve := min(limit/4, 256<<20)
	return max(min(int64(DefaultMaxRunBytes), (limit-reserve)/2), 1)
}

// Run runs the model on inputs (by graph input name) and returns its
// outputs (Result: by name, Names in the model's order). Inputs are never
// modified; outputs may share storage with inputs or initializers
// (Identity, Reshape and the like return views), so treat them as
// read-only too. ctx is checked before each node
// and by long kernels; a cancelled run returns ctx's error in a NodeError.
func (m *Model) Run(ctx context.Context, inputs map[string]tensor.Value, o *RunOptions) (Result, error) {
	return m.run(ctx, inputs, o, nil)
}

// run is Run, recording the live bytes of each step into plan when it is
// not nil.
func (m *Model) run(ctx context.Context, inputs map[string]tensor.Value, o *RunOptions, plan *MemoryPlan) (_ Result, err error) {
	if m == nil || m.proto == nil {
		return Result{}, errNotLoaded
	}
	if m.unsupported != nil {
		return Result{}, m.unsupported
	}
	if ctx == nil {
		ctx = context.Background()
	}
	r := m.startRun(ctx, o, plan)
	defer func() {
		if err != nil { // what the failed run created goes back
			r.abandon()
		}
		m.endRun(r)
	}()
	if o != nil && len(o.Outputs) > 0 {
		sel, err := m.selectValues(o.Outputs)
		if err != nil {
			return Result{}, err
		}
		if r.fuse {
			r.setFuse(false) // a value asked for may be one that fusion changes
		}
		return m.runSelection(r, inputs, sel)
	}
	if err := r.setInputs(inputs, m.inputs); err != nil {
		return Result{}, err
	}
	if err := m.checkProfileInputs(&r.opt, inputs); err != nil {
		return Result{}, err
	}
	r.borrowHeaders(m.outSlots)

	// The values computed from the inputs' dims alone (shapecache.go):
	// stored from the cache on a hit, collected for it on a miss.
	var build *shapeBuilder
	if m.shapeCaching(r) {
		if e, ok := m.shapes.lookup(r.vals, r.tensorCap()); e != nil {
			r.shapeHit = e
		} else if ok && !m.shapes.full() {
			build = m.shapes.newBuilder(r.vals)
		}
	}
	for pos := range m.steps {
		st := &m.steps[pos]
		if err := ctx.Err(); err != nil {
			return Result{}, st.fail(err)
		}
		if r.shapeHit != nil && m.shapes.skips(r.shapeHit, pos) {
			m.shapes.store(r.shapeHit, pos, r.vals)
			r.release(st.release)
			continue
		}
		if err := r.step(pos, st); err != nil {
			return Result{}, err
		}
		// Here the node has run: its outputs are in r.vals[st.out[k]].
		if err := m.checkDeclared(&r.opt, st, r.vals); err != nil {
			return Result{}, err
		}
		if build != nil && m.shapes.skip[pos] {
			m.shapes.collect(build, pos, r.vals)
		}
		r.release(st.release)
	}
	if build != nil {
		m.shapes.publish(build)
	}
	// A cancellation during the last node is not a success either.
	if err := ctx.Err(); err != nil {
		if len(m.steps) == 0 {
			return Result{}, fmt.Errorf("the run of a model without nodes stopped: %w", err)
		}
		return Result{}, m.steps[len(m.steps)-1].fail(err)
	}

	out := make([]tensor.Value, len(m.outSlots))
	for i, s := range m.outSlots {
		out[i] = r.vals[s]
	}
	if r.pool != nil {
		r.pool.handOut(m.poolID, r.vals, m.outSlots, r.headers)
	}
	return newResult(m.outNames, m.outIndex, out), nil
}

// runState is the state of one run: the values by slot and the storage
// the run created and still holds.
type runState struct {
	m      *Model
	ctx    context.Context
	opt    ops.Options
	engine Engine
	// fuse is whether the run applies the model's load-time fusions.
	fuse   bool
	vals   []tensor.Value // by slot
	ins    []tensor.Value // the arena of the steps' input lists
	pool   *Pool
	cap    int64
	charge func(int64) error // r.chargeNode, bound once per state
	user   func(int64) error // RunOptions.charge, a test's hook, if any
	alloc  func(int) []byte  // r.allocate, bound once per state
	// poolAlloc is the Pool's allocator, which r.allocate asks when no
	// spare fits; nil without a Pool.
	poolAlloc func(int) []byte
	// spares is storage of the run's allocator that no value holds,
	// oldest first, largeSpares of them above maxSpareBytes, together
	// spareBytes; fresh, the storage it made during the running node, not
	// yet claimed by an output (see holdTensor).
	spares      [][]byte
	largeSpares int
	spareBytes  int64
	fresh       []storageKey
	// escaped is storage the run's allocator made that a body returned
	// and nothing in the run holds any more, newest last, at most
	// maxSpares pieces of at most maxSpareBytes: a kernel's
	// Subgraph.Done makes it a spare again.
	// escaping is the body's outputs' storage while its run ends.
	escaped, escaping [][]byte
	// lentHeaders are headers of body outputs a kernel may give back,
	// the next to write at lentNext (subgraph.go), cleared at the end of
	// the run.
	lentHeaders [maxLentHeaders]lentHeader
	lentNext    int
	// known is what the run found of the storage kernels handed bodies,
	// the next to write at knownNext (subgraph.go), cleared at the end
	// of the run.
	known     [maxKnownKeys]knownKey
	knownNext int

	// owned is the storage the run created, with the number of tensors
	// in live values that hold it; external is the storage of the
	// caller's inputs, which the run neither counts nor releases.
	owned    storageSet
	external map[storageKey]struct{}
	live     int64 // bytes of owned
	pending  int64 // bytes the running node has charged
	// base is what the nodes running a subgraph (an If, a Loop...) had
	// charged when their body started: counted until they end.
	base    int64
	peak    int64 // most of live+pending so far
	peakPos int   // position of the step that reached peak
	pos     int   // position of the running step
	plan    *MemoryPlan
	// headers holds, by slot, the tensor header a prepared step made for
	// the slot's value, kept for the same step of the next run on this
	// state to reuse: only while no graph output and no kernel other than
	// a prepared one has seen it, so nothing outside the run can hold it
	// (see step.runPrepared).
	headers []*tensor.Tensor
	// returned are the slots of the values a selective run returns
	// (RunOptions.Outputs), the caller's like the outputs'.
	returned []int
	// reuse and outs are a prepared step's argument lists, sized for
	// the step with the most outputs.
	reuse []*tensor.Tensor
	outs  []tensor.Value
	// hdr makes the running kernel's headers, lending it those of the
	// step that lends, lending (headers.go; runenv.Env.Headers).
	hdr     runenv.Headers
	lending *step
	// bodyOut holds, by body (body.id), the list a run of the body
	// returns its outputs in, made once per state.
	bodyOut [][]tensor.Value
	// bodyHeld holds, by body, which of its inputs it holds through
	// owned while it runs (body.runSteps); foreign, the storage the
	// running bodies were handed that the run counts but does not hold
	// (subgraph.go), the innermost body's last.
	bodyHeld [][]bool
	foreign  []foreignStorage
	// sharedThreads is set when the caller leaves Threads at 0: each
	// node then takes its share of the cores among the runs under way.
	sharedThreads bool
	// shapeHit is the shape cache's entry for the run's input dims
	// (shapecache.go); nil: the run computes every value.
	shapeHit *shapeEntry
	// times records the run's steps for RunOptions.Times; nil: no timing.
	// timesBuf is its storage, kept with the state.
	times, timesBuf *runTimes
}

// startRun returns a run state for m, recycled when it can be.
func (m *Model) startRun(ctx context.Context, o *RunOptions, plan *MemoryPlan) *runState {
	r := m.idle.Swap(nil)
	if r == nil {
		r, _ = m.runs.Get().(*runState)
	}
	if r == nil {
		r = &runState{m: m, vals: make([]tensor.Value, m.numSlots), ins: make([]tensor.Value, m.numIns),
			external: map[storageKey]struct{}{},
			headers:  make([]*tensor.Tensor, m.numSlots), reuse: make([]*tensor.Tensor, m.maxOuts), outs: make([]tensor.Value, m.maxOuts)}
		r.charge = r.chargeNode
		r.alloc = r.allocate
	}
	r.ctx, r.plan, r.cap, r.pool, r.user = ctx, plan, defaultRunCap(), nil, nil
	runenv.Reset(&r.opt)
	if o != nil {
		r.opt.Profile, r.opt.MaxTensorBytes, r.opt.Threads = o.Profile, o.MaxTensorBytes, o.Threads
		r.user = o.charge
		switch {
		case o.MaxRunBytes < 0:
			r.cap = math.MaxInt64
		case o.MaxRunBytes > 0:
			r.cap = o.MaxRunBytes
		}
		if o.Pool != nil {
			r.pool = o.Pool
			r.poolAlloc = o.Pool.allocator()
		}
	}
	r.engine = o.engine()
	if o != nil && o.Times != nil {
		r.startTimes(o.Times)
	}
	r.sharedThreads = r.opt.Threads == 0
	activeRuns.Add(1)
	r.setFuse(m.fusions > 0 && r.engine == EngineFast && r.opt.Profile == ops.ProfileONNX)
	return r
}

// setInputs stores the initializers and the caller's inputs in their slots.
func (r *runState) setInputs(inputs map[string]tensor.Value, required []ValueInfo) error {
	m := r.m
	for _, c := range m.consts {
		r.vals[c.slot] = c.value
	}
	for name, v := range inputs {
		s, ok := m.inputSlots[name]
		if !ok {
			return inputError(name, fmt.Errorf("the model has no input %q", name))
		}
		if err := checkValue(v); err != nil {
			return inputError(name, fmt.Errorf("input %q %w", name, err))
		}
		if typ := m.inputTypes[name]; typ != nil {
			if err := onnx.ValueMatchesType(v, typ); err != nil {
				return inputError(name, fmt.Errorf("input %q: %w", name, err))
			}
		}
		r.vals[s] = v
		forEachTensor(v, func(t *tensor.Tensor) {
			if k, _ := storageOf(t); k != nil {
				r.external[k] = struct{}{}
			}
		})
	}
	for _, in := range required {
		if _, ok := inputs[in.Name]; !ok {
			return inputError(in.Name, fmt.Errorf("input %q (%s) is not given", in.Name, in.Describe()))
		}
	}
	return nil
}

// borrowHeaders takes from the run's Pool the headers of the outputs in
// slots that the caller released: the step that makes the slot's value
// is lent its header as it is lent an intermediate's (headers.go), so
// that a warm pooled run makes no new header for its outputs either, nor
// a weak pointer to hand them out.
func (r *runState) borrowHeaders(slots []int) {
	if r.pool == nil {
		return
	}
	for _, s := range slots {
		if r.headers[s] == nil {
			r.headers[s] = r.pool.spareHeader(r.m.poolID, s)
		}
	}
}

// runSelection is run for the values sel names: the nodes they need, in
// order, each value let go after its last reader in the selection.
func (m *Model) runSelection(r *runState, inputs map[string]tensor.Value, sel *selection) (Result, error) {
	r.returned = sel.slots
	if err := r.setInputs(inputs, sel.inputs); err != nil {
		return Result{}, err
	}
	if err := m.checkProfileInputs(&r.opt, inputs); err != nil {
		return Result{}, err
	}
	r.borrowHeaders(sel.slots)
	for i, pos := range sel.steps {
		st := &m.steps[pos]
		if err := r.ctx.Err(); err != nil {
			return Result{}, st.fail(err)
		}
		if err := r.step(pos, st); err != nil {
			return Result{}, err
		}
		if err := m.checkDeclared(&r.opt, st, r.vals); err != nil {
			return Result{}, err
		}
		r.release(sel.release[i])
	}
	if err := r.ctx.Err(); err != nil {
		if len(sel.steps) == 0 {
			return Result{}, fmt.Errorf("the run stopped: %w", err)
		}
		return Result{}, m.steps[sel.steps[len(sel.steps)-1]].fail(err)
	}
	out := make([]tensor.Value, len(sel.slots))
	for i, s := range sel.slots {
		out[i] = r.vals[s]
	}
	if r.pool != nil {
		r.pool.handOut(m.poolID, r.vals, sel.slots, r.headers)
	}
	return newResult(sel.names, sel.index, out), nil
}

// step runs st, the model's step at position pos, and counts the storage
// of its outputs.
func (r *runState) step(pos int, st *step) error {
	r.pos = pos
	if r.times != nil {
		return r.timedStep(pos, st)
	}
	return r.runStep(st, true)
}

// runStep runs st, a step of the model (top) or of a subgraph, and counts
// the storage of its outputs.
func (r *runState) runStep(st *step, top bool) error {
	r.pending = 0
	clear(r.fresh)
	r.fresh = r.fresh[:0]
	if r.sharedThreads && top {
		// A body's nodes keep the share of the node that runs the body.
		r.opt.Threads = sharedThreads(activeRuns.Load())
	}
	if err := st.run(r, r.ins[st.inAt:st.inAt+len(st.in)+st.extraIns()]); err != nil {
		// A kernel stopped by a cancellation reports the context's error.
		if cerr := r.ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			if ne, ok := err.(*NodeError); ok {
				err = ne.Err
			}
			return st.fail(fmt.Errorf("%w (%v)", cerr, err))
		}
		return err
	}
	clear(r.ins[st.inAt : st.inAt+len(st.in)+st.extraIns()])
	for _, s := range st.out {
		if s >= 0 {
			r.hold(r.vals[s])
		}
	}
	// Outputs a kernel made without charging them (small ones such as
	// Shape's) count now.
	if r.live+r.base > r.cap {
		return st.fail(fmt.Errorf("%w: the run's cap is %d bytes and its outputs bring the live bytes to %d", ops.ErrLimit, r.cap, r.live+r.base))
	}
	r.notePeak(r.live + r.base)
	if top && r.plan != nil {
		r.plan.Steps = append(r.plan.Steps, StepMemory{Index: st.index, Node: st.node.Name, Op: opName(st.node),
			Needs: r.pending, Live: r.live})
	}
	return nil
}

// run runs one node under r's engine, reading its inputs from r.vals into
// in (one slot per input) and storing its outputs in r.vals. A panic in
// the kernel becomes a *NodeError with a *PanicError.
//
// Under the fast engine and the ONNX rules, a data-movement node runs
// prepared (see ops.Prepared) when its inputs fit the shapes it was last
// prepared for, its outputs in headers the run made last time when no one
// else can hold them (see runState.headers).
func (st *step) run(r *runState, in []tensor.Value) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.stopLending()
			r.forgetKept(st.in, nil, true)
			err = st.fail(&PanicError{Value: p})
		}
	}()
	vals := r.vals
	for k, s := range st.in {
		in[k] = nil
		if s >= 0 {
			in[k] = vals[s]
		}
	}
	if st.residual > 0 {
		// A Conv or MatMul that fused its residual Add: the residual follows its
		// inputs in a run that fuses, and is absent otherwise.
		for k := len(st.in); k < ops.ResidualInput; k++ {
			in[k] = nil
		}
		in[ops.ResidualInput] = vals[st.residual-1]
		if !r.fuse {
			in = in[:len(st.in)]
		}
	}
	if st.chain != nil && r.fuse {
		return st.runChain(r, in)
	}
	if st.passThrough && r.fuse {
		st.passInput(r)
		return nil
	}
	if c := st.constant; c != nil && r.engine != EngineReference && r.opt.Profile == ops.ProfileONNX && r.constantFits(c) {
		if s := st.out[0]; s >= 0 {
			vals[s] = c
		}
		return nil
	}
	fast := r.engine != EngineReference && r.opt.Profile == ops.ProfileONNX && st.prepared != nil
	prepare := fast
	if fast {
		if p := st.prepared.Load(); p.Fits(in) {
			if p.Replays() {
				return st.runPrepared(r, p, in)
			}
			prepare = false // declined for these inputs: the kernel runs
		}
	}
	var out []tensor.Value
	if !st.branches {
		r.lendHeaders(st)
	}
	if prepare {
		var p *ops.Prepared
		if out, p, err = st.schema.Prepare(&r.opt, st.node, in); p != nil {
			st.prepared.Store(p)
		}
	} else {
		kernel, kerr := st.kernel(r.engine, r.opt.Profile)
		if kerr != nil {
			r.stopLending()
			r.forgetKept(st.in, nil, true)
			return st.fail(kerr)
		}
		out, err = kernel(&r.opt, st.node, in)
	}
	// A kernel may keep an input's header in its outputs: that input's
	// header is no longer the run's to reuse.
	r.forgetKept(st.in, out, err != nil || r.lending != st)
	if st.residual > 0 {
		r.forgetKept([]int{st.residual - 1}, out, err != nil || r.lending != st)
	}
	if err != nil {
		r.stopLending()
		st.dropBranchHeaders(r)
		return st.fail(err)
	}
	for k, s := range st.out {
		if s < 0 {
			continue
		}
		if k >= len(out) || out[k] == nil || isNilValue(out[k]) {
			r.stopLending()
			st.dropBranchHeaders(r)
			return st.fail(&kindError{fmt.Errorf("the kernel produced no output #%d", k), ErrInternal})
		}
		vals[s] = out[k]
	}
	if st.branches {
		st.keepBranchHeaders(r)
	}
	r.keepHeaders(st)
	return nil
}

// runPrepared runs the step's prepared node p on in. Each output gets the
// header this step made for its slot in the run before, when that one
// reached no one outside the run. A prepared node's outputs are headers of
// their own (never an input passed through: see ops.Prepared), so each
// slot's header is reachable only through that slot.
func (st *step) runPrepared(r *runState, p *ops.Prepared, in []tensor.Value) error {
	reuse, out := r.reuse[:len(st.out)], r.outs[:len(st.out)]
	for k, s := range st.out {
		reuse[k] = nil
		if s >= 0 {
			reuse[k] = r.headers[s]
		}
	}
	err := runenv.RunPrepared(p, &r.opt, in, reuse, out)
	clear(reuse)
	if err != nil {
		clear(out)
		return st.fail(err)
	}
	for k, s := range st.out {
		y := out[k]
		out[k] = nil
		if s < 0 {
			continue
		}
		r.vals[s] = y
		r.headers[s], _ = y.(*tensor.Tensor)
	}
	return nil
}

// fail wraps err as the step's NodeError.
func (st *step) fail(err error) *NodeError {
	return &NodeError{Node: st.node.Name, Index: st.index, Op: opName(st.node), Version: st.node.Version, Err: err}
}

// endRun clears r and keeps it for a later run; large maps are dropped
// rather than kept for ever.
func (m *Model) endRun(r *runState) {
	activeRuns.Add(-1)
	r.endTimes()
	if r.plan != nil && r.peak > 0 {
		r.plan.Peak, r.plan.PeakStep = r.peak, r.peakPos
	}
	for _, s := range m.outSlots {
		r.headers[s] = nil // the caller's now
	}
	for _, s := range r.returned {
		r.headers[s] = nil // the caller's too
	}
	r.returned = nil
	for _, h := range r.headers {
		if h != nil {
			header.Detach(h) // a failed run's values, released above
		}
	}
	clear(r.vals)
	clear(r.ins)
	for _, out := range r.bodyOut {
		clear(out)
	}
	r.owned.reset()
	clear(r.foreign)
	r.foreign = r.foreign[:0]
	clear(r.escaped)
	r.escaped = r.escaped[:0]
	if r.lentNext > 0 {
		r.lentHeaders, r.lentNext = [maxLentHeaders]lentHeader{}, 0
	}
	if r.knownNext > 0 {
		r.known, r.knownNext = [maxKnownKeys]knownKey{}, 0
	}
	if len(r.external) > 1024 {
		r.external = map[storageKey]struct{}{}
	} else {
		clear(r.external)
	}
	r.stopLending()
	r.ctx, r.plan, r.pool, r.user, r.poolAlloc, r.shapeHit = nil, nil, nil, nil, nil, nil
	runenv.Reset(&r.opt)
	r.live, r.pending, r.base, r.peak, r.peakPos, r.pos = 0, 0, 0, 0, 0, 0
	if !m.idle.CompareAndSwap(nil, r) {
		m.runs.Put(r)
	}
}

// abandon gives back all the storage of a failed run: it hands nothing
// to the caller.
func (r *runState) abandon() {
	if r.pool != nil {
		for _, h := range r.owned.entries {
			if h.buf != nil {
				r.pool.recycle(h.buf)
			}
		}
	}
	r.owned.reset()
	r.live = 0
}

func opName(n *ops.Node) string {
	if n.Domain != "" && n.Domain != "ai.onnx" {
		return n.Domain + "." + n.OpType
	}
	return n.OpType
}

// checkValue returns an error for a value no kernel can read: nil, a zero
// Tensor, a sequence holding nil, an optional holding one of those.
func checkValue(v tensor.Value) error {
	switch x := v.(type) {
	case nil:
		return errors.New("is nil")
	case *tensor.Tensor:
		if x == nil {
			return errors.New("is nil")
		}
		if !x.DataType().Valid() {
			return errors.New("is a zero Tensor: make tensors with tensor.New")
		}
	case *tensor.Sequence:
		if x == nil {
			return errors.New("is nil")
		}
		for i, t := range x.Items {
			if err := checkValue(t); err != nil {
				return fmt.Errorf("item %d %w", i, err)
			}
		}
	case *tensor.Optional:
		if x == nil {
			return errors.New("is nil")
		}
		if x.Value != nil {
			if err := checkValue(x.Value); err != nil {
				return fmt.Errorf("holds a value that %w", err)
			}
		}
	case *tensor.Map:
		return x.Check()
	case *tensor.MapSequence:
		return x.Check()
	}
	return nil
}

// isNilValue reports a typed nil pointer inside a Value.
func isNilValue(v tensor.Value) bool {
	switch x := v.(type) {
	case *tensor.Tensor:
		return x == nil
	case *tensor.Sequence:
		return x == nil
	case *tensor.Optional:
		return x == nil
	case *tensor.Map:
		return x == nil
	case *tensor.MapSequence:
		return x == nil
	}
	return false
}
