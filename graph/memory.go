package graph

import (
	"context"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/onnxshape/onnxshape/internal/header"
	"github.com/onnxshape/onnxshape/internal/storage"
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
		m.numIns += len(st.in) + st.extraIns()
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
		if st.constant != nil {
			m.addFixed(st.constant) // folded at load (constants.go)
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
	case *tensor.Map:
		fn(v.Keys)
		fn(v.Values)
	case *tensor.MapSequence:
		for _, m := range v.Items {
			fn(m.Keys)
			fn(m.Values)
		}
	}
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

// A run recycles the storage of its intermediates itself: a chain of
// small tensors would otherwise spend much of its time allocating and
// collecting them, or taking the Pool's lock, and a model run in a loop
// without a Pool would allocate (and the collector free) every
// intermediate of every run. Only storage the run's allocator made
// (itself, or from the Pool) and that no value holds any more is kept, in
// the run state, which the model keeps for its next run (dropped with it,
// or by the collector when the model has more states than runs under way):
// at most maxSpares pieces of at most maxSpareBytes each, and without a
// Pool larger pieces too, at most maxLargeSpares of them holding at most
// maxLargeSpareBytes together (a quarter of the run's cap when that is
// less), the oldest let go first to make room. With a Pool, large storage
// goes back to the Pool instead. Storage from a Pool stays lent while it
// is a spare: when a later run hands it out as an output, the Pool knows
// it and takes it back on Release.
const (
	maxSpares          = 16
	maxSpareBytes      = 64 << 10
	maxLargeSpares     = 64
	maxLargeSpareBytes = 256 << 20
)

// allocate is the run's ops.Options.Alloc: storage comes from the spares
// when one has the size, else from the Pool when there is one.
func (r *runState) allocate(size int) []byte {
	if size == 0 {
		return []byte{}
	}
	var b []byte
	for i, s := range r.spares {
		if len(s) == size {
			b = s
			r.removeSpare(i)
			break
		}
	}
	switch {
	case b != nil:
		storage.Recycled(b)
	case r.poolAlloc != nil:
		b = r.poolAlloc(size)
	default:
		b = storage.Aligned(size)
	}
	r.fresh = append(r.fresh, unsafe.Pointer(&b[0]))
	return b
}

// spare keeps b, storage of the run's allocator that no value holds, and
// reports whether it did.
func (r *runState) spare(b []byte) bool {
	n := int64(len(b))
	if n <= maxSpareBytes {
		if len(r.spares)-r.largeSpares >= maxSpares {
			return false
		}
		r.spares = append(r.spares, b)
		return true
	}
	limit := min(maxLargeSpareBytes, r.cap/4)
	if r.poolAlloc != nil || n > limit {
		return false
	}
	for r.largeSpares >= maxLargeSpares || r.spareBytes+n > limit {
		r.removeSpare(slices.IndexFunc(r.spares, func(s []byte) bool { return len(s) > maxSpareBytes }))
	}
	r.spares = append(r.spares, b)
	r.largeSpares++
	r.spareBytes += n
	return true
}

// removeSpare takes the spare at i out of the list, keeping the others in
// the order they came.
func (r *runState) removeSpare(i int) {
	if n := int64(len(r.spares[i])); n > maxSpareBytes {
		r.largeSpares--
		r.spareBytes -= n
	}
	r.spares = slices.Delete(r.spares, i, i+1)
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
	case *tensor.Map, *tensor.MapSequence:
		forEachTensor(v, r.holdTensor)
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
	// Storage the running node's allocator made (fresh) is neither the
	// model's nor the caller's: the two maps are asked only about other
	// storage (a view of an initializer, an input passed on).
	fresh := -1
	if t.DataType() != tensor.String {
		fresh = slices.Index(r.fresh, k)
	}
	if fresh < 0 {
		if r.shapeHit != nil && r.cached(k) {
			return // the shape cache's (shapecache.go)
		}
		if len(r.foreign) > 0 && r.isForeign(k) {
			return // a kernel's, counted until its body's exit (subgraph.go)
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
	}
	h := holding{refs: 1, bytes: n}
	if t.DataType() != tensor.String {
		h.buf = t.Bytes()
		if fresh >= 0 {
			h.spare = true
			r.fresh[fresh] = nil
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
	case *tensor.Map, *tensor.MapSequence:
		forEachTensor(v, r.dropTensor)
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
