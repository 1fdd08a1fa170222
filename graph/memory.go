package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/onnxshape/onnxshape/internal/header"
	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/internal/storage"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// A run's memory: every value is let go right after the last node that
// reads it, so a run holds at once only what is still to be read. Storage
// is counted once however many values share it (a Reshape is a view of its
// input) and freed, or given back to the Pool, when the last value holding
// it goes. MaxRunBytes caps the bytes held plus what the running node asks
// for through the budget (ops.Options.Charge) it hands the kernels.

// storageKey identifies the storage of a tensor: the address of its first
// element. Views share their base's storage whole (tensor.Reshape), so two
// tensors share storage exactly when their keys are equal.
type storageKey = unsafe.Pointer

// storageOf returns the key of t's storage (nil when t holds nothing) and
// the bytes it takes: the element bytes, and for strings a 16-byte header
// per element, as ops charges them, plus the characters.
func storageOf(t *tensor.Tensor) (storageKey, int64) {
	if t.DataType() == tensor.String {
		s := t.Strings()
		if len(s) == 0 {
			return nil, 0
		}
		return unsafe.Pointer(unsafe.SliceData(s)), 16*int64(len(s)) + int64(t.ByteLen())
	}
	b := t.Bytes()
	if len(b) == 0 {
		return nil, 0
	}
	return unsafe.Pointer(unsafe.SliceData(b)), int64(len(b))
}

// planMemory finds, once at load, the step after which each value is
// dead, the offsets of the steps' input lists in a run's arena, and the
// storage that belongs to the model.
func (m *Model) planMemory() {
	kept := make([]bool, m.numSlots)
	for _, s := range m.inputSlots {
		kept[s] = true
	}
	for _, c := range m.consts {
		kept[c.slot] = true
	}
	for _, s := range m.outSlots {
		kept[s] = true
	}
	planReleases(m.steps, func(s int) bool { return !kept[s] }, m.numSlots)
	m.numIns = 0
	m.forEachStep(func(st *step) {
		st.inAt = m.numIns
		m.numIns += len(st.in)
		m.maxOuts = max(m.maxOuts, len(st.out))
	})

	m.fixed = map[storageKey]struct{}{}
	for _, c := range m.consts {
		m.addFixed(c.value)
	}
	m.forEachStep(func(st *step) {
		for _, a := range st.node.Attrs {
			if a.Tensor != nil {
				m.addFixed(a.Tensor)
			}
		}
	})
}

// forEachStep calls fn on every step of the model and of its subgraphs.
func (m *Model) forEachStep(fn func(*step)) {
	for i := range m.steps {
		fn(&m.steps[i])
	}
	for _, b := range m.bodies {
		for i := range b.steps {
			fn(&b.steps[i])
		}
	}
}

func (m *Model) addFixed(v tensor.Value) {
	forEachTensor(v, func(t *tensor.Tensor) {
		if k, _ := storageOf(t); k != nil {
			m.fixed[k] = struct{}{}
		}
	})
}

// forEachTensor calls fn on every tensor v holds.
func forEachTensor(v tensor.Value, fn func(*tensor.Tensor)) {
	switch v := v.(type) {
	case *tensor.Tensor:
		fn(v)
	case *tensor.Sequence:
		for _, t := range v.Items {
			fn(t)
		}
	case *tensor.Optional:
		if v.Value != nil {
			forEachTensor(v.Value, fn)
		}
	}
}

// runState is the state of one run: the values by slot and the storage
// the run created and still holds.
type runState struct {
	m      *Model
	ctx    context.Context
	opt    ops.Options
	engine Engine
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
	// spares is small storage of the run's allocator that no value
	// holds; fresh, the storage it made during the running node, not yet
	// claimed by an output (see holdTensor).
	spares [][]byte
	fresh  []storageKey

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
	// sharedThreads is set when the caller leaves Threads at 0: each
	// node then takes its share of the cores among the runs under way.
	sharedThreads bool
}

// holding is one piece of storage a run created.
type holding struct {
	refs  int
	bytes int64
	buf   []byte // for the Pool; nil for strings
	// spare is set for storage the run's own allocator made (see
	// runState.allocate): once no value holds it, no one can, and a later
	// node may have it.
	spare bool
}

// A run recycles the small storage of its intermediates itself: a chain of
// small tensors would otherwise spend much of its time allocating and
// collecting them, or taking the Pool's lock. Only storage the run's
// allocator made (itself, or from the Pool) and that no value holds any
// more is kept, at most maxSpares pieces of at most maxSpareBytes each, in
// the run state (dropped with it). Storage from a Pool stays lent while it
// is a spare: when a later run hands it out as an output, the Pool knows
// it and takes it back on Release.
const (
	maxSpares     = 16
	maxSpareBytes = 64 << 10
)

// allocate is the run's ops.Options.Alloc when the caller gives no Pool:
// small storage comes from the spares when one has the size.
func (r *runState) allocate(size int) []byte {
	if size == 0 {
		return []byte{}
	}
	var b []byte
	for i, s := range r.spares {
		if len(s) == size {
			b = s
			last := len(r.spares) - 1
			r.spares[i], r.spares[last] = r.spares[last], nil
			r.spares = r.spares[:last]
			break
		}
	}
	switch {
	case b != nil:
	case r.poolAlloc != nil:
		b = r.poolAlloc(size)
	default:
		b = storage.Aligned(size)
	}
	if size <= maxSpareBytes {
		r.fresh = append(r.fresh, unsafe.Pointer(&b[0]))
	}
	return b
}

// spare keeps b, storage of the run's allocator that no value holds, and
// reports whether it did.
func (r *runState) spare(b []byte) bool {
	if len(r.spares) >= maxSpares {
		return false
	}
	r.spares = append(r.spares, b)
	return true
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
	r.opt = ops.Options{}
	if o != nil {
		r.opt = ops.Options{Profile: o.Profile, MaxTensorBytes: o.MaxTensorBytes, Threads: o.Threads}
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
	r.sharedThreads = r.opt.Threads == 0
	activeRuns.Add(1)
	runenv.Bind(&r.opt, runenv.Env{Ctx: ctx, Alloc: r.alloc, Charge: r.charge, Scope: r})
	return r
}

// endRun clears r and keeps it for a later run; large maps are dropped
// rather than kept for ever.
func (m *Model) endRun(r *runState) {
	activeRuns.Add(-1)
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
	r.owned.reset()
	if len(r.external) > 1024 {
		r.external = map[storageKey]struct{}{}
	} else {
		clear(r.external)
	}
	r.ctx, r.plan, r.pool, r.user, r.poolAlloc = nil, nil, nil, nil, nil
	r.opt = ops.Options{}
	r.live, r.pending, r.base, r.peak, r.peakPos, r.pos = 0, 0, 0, 0, 0, 0
	if !m.idle.CompareAndSwap(nil, r) {
		m.runs.Put(r)
	}
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

// chargeNode is the run's budget (ops.Options.Charge): the running node asks for
// bytes more, refused when the live bytes and all the node has asked for
// would pass the cap.
func (r *runState) chargeNode(bytes int64) error {
	if r.user != nil {
		if err := r.user(bytes); err != nil {
			return err
		}
	}
	if bytes > r.cap-r.live-r.base-r.pending {
		return fmt.Errorf("%w: the run's cap is %d bytes, %d bytes are live and the node needs %d", ops.ErrLimit, r.cap, r.live+r.base, r.pending+bytes)
	}
	r.pending += bytes
	r.notePeak(r.live + r.base + r.pending)
	return nil
}

func (r *runState) notePeak(bytes int64) {
	if bytes > r.peak {
		r.peak, r.peakPos = bytes, r.pos
	}
}

// step runs st, the model's step at position pos, and counts the storage
// of its outputs.
func (r *runState) step(pos int, st *step) error {
	r.pos = pos
	return r.runStep(st, true)
}

// runStep runs st, a step of the model (top) or of a subgraph, and counts
// the storage of its outputs.
func (r *runState) runStep(st *step, top bool) error {
	r.pending = 0
	clear(r.fresh)
	r.fresh = r.fresh[:0]
	if r.sharedThreads {
		r.opt.Threads = sharedThreads(activeRuns.Load())
	}
	if err := st.run(r, r.ins[st.inAt:st.inAt+len(st.in)]); err != nil {
		// A kernel stopped by a cancellation reports the context's error.
		if cerr := r.ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			if ne, ok := err.(*NodeError); ok {
				err = ne.Err
			}
			return st.fail(fmt.Errorf("%w (%v)", cerr, err))
		}
		return err
	}
	clear(r.ins[st.inAt : st.inAt+len(st.in)])
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

// release lets go of the values in slots, which no later step reads.
func (r *runState) release(slots []int) {
	for _, s := range slots {
		r.drop(r.vals[s])
		r.vals[s] = nil
		if h := r.headers[s]; h != nil {
			header.Detach(h) // kept for the next run, not holding the storage
		}
	}
}

// hold counts the storage of a new value: storage the run has not seen
// is new and adds its bytes; the model's and the caller's count for
// nothing.
func (r *runState) hold(v tensor.Value) {
	switch v := v.(type) {
	case *tensor.Tensor:
		r.holdTensor(v)
	case *tensor.Sequence:
		for _, t := range v.Items {
			r.holdTensor(t)
		}
	case *tensor.Optional:
		if v.Value != nil {
			r.hold(v.Value)
		}
	}
}

func (r *runState) holdTensor(t *tensor.Tensor) {
	if t == nil {
		return
	}
	k, n := storageOf(t)
	if k == nil {
		return
	}
	if i := r.owned.find(k); i >= 0 {
		r.owned.entries[i].refs++
		return
	}
	if len(r.m.fixed) > 0 {
		if _, ok := r.m.fixed[k]; ok {
			return
		}
	}
	if len(r.external) > 0 {
		if _, ok := r.external[k]; ok {
			return
		}
	}
	h := holding{refs: 1, bytes: n}
	if t.DataType() != tensor.String {
		h.buf = t.Bytes()
		if i := slices.Index(r.fresh, k); i >= 0 {
			h.spare = true
			r.fresh[i] = nil
		}
	}
	r.live += n
	r.owned.add(k, h)
}

// drop lets go of a value: storage no live value holds any more is freed,
// to the Pool when there is one.
func (r *runState) drop(v tensor.Value) {
	switch v := v.(type) {
	case *tensor.Tensor:
		r.dropTensor(v)
	case *tensor.Sequence:
		for _, t := range v.Items {
			r.dropTensor(t)
		}
	case *tensor.Optional:
		if v.Value != nil {
			r.drop(v.Value)
		}
	}
}

func (r *runState) dropTensor(t *tensor.Tensor) {
	if t == nil || r.owned.len() == 0 {
		return
	}
	k, _ := storageOf(t)
	i := r.owned.find(k)
	if i < 0 {
		return
	}
	h := &r.owned.entries[i]
	if h.refs--; h.refs > 0 {
		return
	}
	r.live -= h.bytes
	buf, spare := h.buf, h.spare
	r.owned.remove(i)
	if spare && r.spare(buf) {
		return
	}
	if r.pool != nil && buf != nil {
		r.pool.recycle(buf)
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

// MemoryPlan is the memory one run of a model takes, step by step.
type MemoryPlan struct {
	// Peak is the most bytes the run holds at once: the storage of the
	// values still to be read that the run created, plus what the
	// running node asks for (its outputs and scratch). The caller's
	// inputs and the initializers are not counted. RunOptions.MaxRunBytes
	// at or above Peak lets the run through.
	Peak int64
	// PeakStep is the position in Steps of the node running at the peak;
	// -1 when the run holds nothing.
	PeakStep int
	// Steps has one entry per node, in the order they run.
	Steps []StepMemory
}

// StepMemory is the memory of one node of a run.
type StepMemory struct {
	Index int    // the node's position in the model file
	Node  string // the node's name; may be empty
	Op    string // the operator, prefixed by its domain outside ai.onnx
	// Needs is the bytes the node charged: its new outputs and scratch.
	Needs int64
	// Live is the bytes the run holds once the node has run, before the
	// values it read last are let go.
	Live int64
}

// MemoryPlan runs the model once on zero-filled inputs and reports its
// memory. shapes gives the shape of each input by name; an input left out
// takes its declared shape, which must then be static. onnxshape has no
// static shape propagation, so the plan is measured, not inferred: the dry
// run allocates what a real one does (with o's caps and options, its Pool
// left out; nil means the defaults). The zero-filled inputs are the plan's
// own: each is refused before it is made when above o's cap on one tensor,
// and all of them together when above the run's cap (ErrLimit). The shapes of these operators' outputs depend only on input
// shapes and on constants, not on input values, except where a shape is
// itself an input (Reshape's shape, Pad's pads, ...): those inputs are
// zeros here, so give such models an initializer, not an input.
func (m *Model) MemoryPlan(ctx context.Context, shapes map[string][]int, o *RunOptions) (*MemoryPlan, error) {
	if m == nil || m.proto == nil {
		return nil, errNotLoaded
	}
	for name := range shapes {
		if _, ok := m.inputSlots[name]; !ok {
			return nil, inputError(name, fmt.Errorf("the model has no input %q", name))
		}
	}
	var ro RunOptions
	if o != nil {
		ro = *o
	}
	// The zero-filled inputs are the plan's own allocations: each is held
	// to the cap on one tensor and all of them to the run's cap before any
	// is made (a run's caller allocates its inputs; the plan does it here).
	tensorCap := (&ops.Options{MaxTensorBytes: ro.MaxTensorBytes}).TensorLimit()
	runCap := defaultRunCap()
	switch {
	case ro.MaxRunBytes < 0:
		runCap = math.MaxInt64
	case ro.MaxRunBytes > 0:
		runCap = ro.MaxRunBytes
	}
	shapesOf := make([][]int, len(m.inputs))
	var total int64
	for i, in := range m.inputs {
		shape, err := zeroShape(in, shapes[in.Name])
		if err != nil {
			return nil, inputError(in.Name, fmt.Errorf("input %q: %w", in.Name, err))
		}
		bytes, ok := inputBytes(in.Type.DataType, shape)
		if !ok || bytes > tensorCap {
			return nil, inputError(in.Name, fmt.Errorf("%w: input %q: a zero-filled %v of shape %v is above the limit of %d bytes on one tensor",
				ErrLimit, in.Name, in.Type.DataType, shape, tensorCap))
		}
		if total += bytes; total > runCap {
			return nil, inputError(in.Name, fmt.Errorf("%w: input %q: the zero-filled inputs take %d bytes up to it, above the run's limit of %d bytes",
				ErrLimit, in.Name, total, runCap))
		}
		shapesOf[i] = shape
	}
	inputs := make(map[string]tensor.Value, len(m.inputs))
	for i, in := range m.inputs {
		t, err := tensor.New(in.Type.DataType, shapesOf[i]...)
		if err != nil {
			return nil, inputError(in.Name, fmt.Errorf("input %q: %w", in.Name, err))
		}
		inputs[in.Name] = t
	}
	// Without a Pool: nothing of the dry run is handed out.
	ro.Pool = nil
	plan := &MemoryPlan{PeakStep: -1}
	if _, err := m.run(ctx, inputs, &ro, plan); err != nil {
		return nil, err
	}
	return plan, nil
}

// inputBytes is the storage a zero tensor of type dt and shape takes, as
// the run counts it (16 bytes a string); ok false when it overflows.
func inputBytes(dt tensor.DataType, shape []int) (int64, bool) {
	if slices.Contains(shape, 0) {
		return 0, true
	}
	n := int64(1)
	for _, d := range shape {
		if d < 0 {
			return 0, false
		}
		if n > math.MaxInt64/int64(d) {
			return 0, false
		}
		n *= int64(d)
	}
	size := int64(dt.Size())
	if dt == tensor.String {
		size = 16
	}
	if size != 0 && n > math.MaxInt64/size {
		return 0, false
	}
	return n * size, true
}

// zeroShape returns the shape of the zero tensor for a graph input of
// declared type vi and the given shape (nil: the declared one).
func zeroShape(vi ValueInfo, shape []int) ([]int, error) {
	tt := vi.Type
	if tt.Kind != KindTensor {
		return nil, fmt.Errorf("is %s, not a tensor: the plan needs tensor inputs", vi.Describe())
	}
	dt := tt.DataType
	if dt == tensor.Undefined {
		return nil, fmt.Errorf("has element type %d, which onnxshape does not know", vi.proto.GetTensorType().GetElemType())
	}
	if shape == nil {
		if !tt.Ranked {
			return nil, fmt.Errorf("has no declared shape: give one")
		}
		for i, d := range tt.Shape {
			n, known := d.Value()
			if !known || n > int64(^uint(0)>>1) {
				return nil, fmt.Errorf("dimension %d of %s is not static: give the shape", i, vi.Describe())
			}
			shape = append(shape, int(n))
		}
	}
	return shape, nil
}
