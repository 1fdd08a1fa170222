package graph

import (
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Values computed from the inputs' shapes alone, cached per set of input
// dims. An exported transformer (torch.onnx.export) computes its reshapes'
// targets at every run: Shape -> Gather -> Unsqueeze -> Concat -> Reshape,
// Range for the positions, Equal and Where over shapes, some 250 tiny
// nodes in a 384-node BERT. Their values depend only on the dims of the
// graph inputs and on constants, so a run of the fast engine under the
// ONNX rules that returns the graph's outputs (not RunOptions.Outputs)
// computes them once per distinct set of input dims, keeps a copy of the
// ones that the rest of the graph reads, and the next runs with the same
// dims store those in their slots and skip the nodes (planShapes decides
// which at load). LoadOptions.NoFuse, the reference engine and the SONNX
// profile run every node.
//
// A value qualifies, at load and strictly, when it is (valueKnown):
//   - a constant: a non-overridable initializer or a Constant node;
//   - Shape or Size of a value whose shape is a function of the inputs'
//     dims (shapeKnown): a graph input, a constant, or the output of an
//     operator whose output shapes are functions of its inputs' shapes
//     (shapeOps), the inputs that give a shape by their contents
//     (Reshape's shape, Slice's starts...) being qualifying values. An
//     operator not listed (NonZero, Unique, anything with a subgraph)
//     makes a shape no one knows, and so does an unknown domain;
//   - the output of an exact operator (pureOps: data movement,
//     comparisons, Where, and arithmetic that IEEE rounds exactly or that
//     is on integers) over qualifying values.
//
// A node is skipped when every output of it qualifies and none is a graph
// output (the caller may write into an output), it is in the main graph,
// and load-time fusion left it alone. The cache holds the values skipped
// nodes make that a node that runs reads (or a subgraph reads by name),
// copied: the run's own storage goes back to its spares or Pool. Bounds:
// maxShapeEntries sets of dims, each value at most maxShapeValueBytes
// (the node of a larger one runs, with the skippable nodes it reads from:
// shapeEntry.run), the bytes held counted by Model.ShapeCacheBytes. A run
// whose cap on one tensor is below a tensor the skipped nodes make runs
// them all, so that the cap refuses it as before. Entries are immutable
// once published (an atomic pointer to a list copied on write, under a
// mutex), so concurrent runs read them without a lock.

const (
	// maxShapeEntries is the most sets of input dims a model caches.
	maxShapeEntries = 8
	// maxShapeValueBytes bounds one cached value: shapes, not activations.
	maxShapeValueBytes = 4 << 10
)

// shapeOps are the operators whose output shapes are functions of their
// inputs' shapes, their attributes, and of the contents of the inputs at
// the positions listed (Reshape's shape...), each only when present.
var shapeOps = map[string][]int{
	// Elementwise and broadcasting.
	"Abs": nil, "Neg": nil, "Relu": nil, "Sigmoid": nil, "Tanh": nil, "Erf": nil, "Sqrt": nil,
	"Exp": nil, "Log": nil, "Reciprocal": nil, "Floor": nil, "Ceil": nil, "Round": nil, "Sign": nil,
	"Not": nil, "Cast": nil, "CastLike": nil, "Identity": nil, "Softmax": nil, "LogSoftmax": nil,
	"Gelu": nil, "LeakyRelu": nil, "Elu": nil, "HardSigmoid": nil, "HardSwish": nil, "Softplus": nil,
	"Clip": nil, "Sin": nil, "Cos": nil, "IsNaN": nil, "IsInf": nil,
	"Add": nil, "Sub": nil, "Mul": nil, "Div": nil, "Pow": nil, "Mod": nil, "Max": nil, "Min": nil,
	"Equal": nil, "Less": nil, "Greater": nil, "LessOrEqual": nil, "GreaterOrEqual": nil,
	"And": nil, "Or": nil, "Xor": nil, "Where": nil, "PRelu": nil,
	// Products and normalizations.
	"MatMul": nil, "Gemm": nil, "LayerNormalization": nil, "BatchNormalization": nil,
	// Movement and shapes.
	"Transpose": nil, "Flatten": nil, "Shape": nil, "Size": nil, "Gather": nil, "Concat": nil,
	"Reshape": {1}, "Expand": {1}, "Slice": {1, 2, 3, 4}, "Squeeze": {1}, "Unsqueeze": {1},
	"ConstantOfShape": {0}, "Range": {0, 1, 2}, "Tile": {1},
	"ReduceSum": {1}, "ReduceMean": {1}, "ReduceMax": {1}, "ReduceMin": {1}, "ReduceProd": {1},
}

// pureOps are the operators whose outputs are exact functions of their
// inputs' contents: data movement, comparisons and selection, and
// arithmetic IEEE rounds exactly (or on integers), the same bits at every
// call whatever the threads. Pow, Exp and the like are left out.
var pureOps = map[string]bool{
	"Shape": true, "Size": true, "Identity": true, "Cast": true, "Gather": true, "Unsqueeze": true,
	"Squeeze": true, "Concat": true, "Slice": true, "Reshape": true, "Expand": true,
	"ConstantOfShape": true, "Range": true, "Flatten": true, "Transpose": true,
	"Equal": true, "Less": true, "Greater": true, "LessOrEqual": true, "GreaterOrEqual": true,
	"Not": true, "And": true, "Or": true, "Xor": true, "Where": true,
	"Add": true, "Sub": true, "Mul": true, "Div": true, "Neg": true, "Abs": true, "Min": true,
	"Max": true, "Sqrt": true, "Floor": true, "Ceil": true,
}

// shapePlan is what planShapes decided at load.
type shapePlan struct {
	// keys are the slots of the graph inputs (overridable initializers
	// included) whose dims key the cache.
	keys []int
	// skip marks, by step position, the steps a hit skips; at[pos] and
	// at[pos+1] bound the step's values to store in kept.
	skip []bool
	at   []int
	// kept are the slots of the values a hit stores, in step order.
	kept []int
	// producer is the position of the step making each slot, -1 for
	// inputs and initializers.
	producer []int
	steps    []step // the model's, read only

	mu      sync.Mutex // serializes publishing
	entries atomic.Pointer[[]*shapeEntry]
	bytes   atomic.Int64
}

// shapeEntry is one set of input dims and the kept values it gives, in
// plan.kept's order. It never changes once published.
type shapeEntry struct {
	dims [][]int
	vals []tensor.Value
	// largest is the bytes of the largest tensor a skipped step made:
	// a run whose cap on one tensor is below it runs every node, as the
	// kernels would refuse that tensor.
	largest int64
	// run marks, by step position, the skippable steps that run anyway
	// under these dims: those making a value too large to keep, and the
	// skippable steps their inputs come from; nil when none.
	run []bool
	// buf is the storage of vals, one piece: a run's accounting tells
	// it from the run's own by address (runState.cached).
	buf []byte
}

// planShapes finds the steps whose values are functions of the inputs'
// dims and constants (see above); m.shapes stays nil when there are none.
func (m *Model) planShapes(opts LoadOptions) {
	if opts.NoFuse || len(m.steps) == 0 {
		return
	}
	shapeKnown := make([]bool, m.numSlots)
	valueKnown := make([]bool, m.numSlots)
	overridable := make([]bool, m.numSlots)
	var keys []int
	for _, s := range m.inputSlots {
		overridable[s] = true
		shapeKnown[s] = true
		keys = append(keys, s)
	}
	slices.Sort(keys)
	for _, c := range m.consts {
		if _, ok := c.value.(*tensor.Tensor); ok {
			shapeKnown[c.slot] = true
			valueKnown[c.slot] = !overridable[c.slot]
		}
	}
	returned := make([]bool, m.numSlots)
	for _, s := range m.outSlots {
		returned[s] = true
	}
	p := &shapePlan{keys: keys, skip: make([]bool, len(m.steps)), at: make([]int, len(m.steps)+1)}
	skipped := 0
	for pos := range m.steps {
		st := &m.steps[pos]
		shapes, values := stepKnows(st, shapeKnown, valueKnown)
		for _, s := range st.out {
			if s >= 0 {
				shapeKnown[s], valueKnown[s] = shapes, values
			}
		}
		if !values || st.passThrough || st.chain != nil || st.residual > 0 || st.headerAt != nil || st.branches {
			continue
		}
		for _, s := range st.out {
			if s >= 0 && returned[s] {
				values = false
			}
		}
		if values {
			p.skip[pos] = true
			skipped++
		}
	}
	if skipped == 0 {
		return
	}
	// Keep what a step that runs reads of a skipped one.
	producer := make([]int, m.numSlots)
	for i := range producer {
		producer[i] = -1
	}
	read := make([]bool, m.numSlots)
	for pos := range m.steps {
		st := &m.steps[pos]
		if !p.skip[pos] {
			for _, s := range st.in {
				if s >= 0 {
					read[s] = true
				}
			}
			for _, s := range st.implicit {
				read[s] = true
			}
			if st.residual > 0 {
				read[st.residual-1] = true
			}
		}
		for _, s := range st.out {
			if s >= 0 {
				producer[s] = pos
			}
		}
	}
	for pos := range m.steps {
		p.at[pos] = len(p.kept)
		if !p.skip[pos] {
			continue
		}
		for _, s := range m.steps[pos].out {
			if s >= 0 && read[s] {
				p.kept = append(p.kept, s)
			}
		}
	}
	p.at[len(m.steps)] = len(p.kept)
	p.producer = producer
	p.steps = m.steps
	p.entries.Store(new([]*shapeEntry))
	m.shapes = p
}

// stepKnows reports whether st's outputs have shapes that are functions
// of the inputs' dims (shapes) and contents that are too (values).
func stepKnows(st *step, shapeKnown, valueKnown []bool) (shapes, values bool) {
	n := st.node
	if n == nil || n.Domain != "" || len(st.implicit) > 0 || st.branches {
		return false, false
	}
	if st.constant != nil || constantValue(n) != nil {
		return true, true
	}
	contents, ok := shapeOps[n.OpType]
	if !ok {
		return false, false
	}
	shapes, values = true, pureOps[n.OpType]
	for k, s := range st.in {
		if s < 0 {
			continue
		}
		if !shapeKnown[s] || slices.Contains(contents, k) && !valueKnown[s] {
			shapes = false
		}
		if !valueKnown[s] {
			values = false
		}
	}
	if n.OpType == "Shape" || n.OpType == "Size" {
		values = shapes
	}
	return shapes, shapes && values
}

// shapeCaching reports whether the run r may use m's shape cache: the
// fast engine under the ONNX rules, a cap on one tensor that the cached
// values pass, not a MemoryPlan's run (which lists every node).
func (m *Model) shapeCaching(r *runState) bool {
	if m.shapes == nil || r.engine != EngineFast || r.opt.Profile != ops.ProfileONNX || r.plan != nil {
		return false
	}
	limit := r.tensorCap()
	return limit < 0 || limit >= maxShapeValueBytes
}

// tensorCap is the run's cap on one tensor's bytes; negative: none.
func (r *runState) tensorCap() int64 {
	if r.opt.MaxTensorBytes == 0 {
		return ops.DefaultMaxTensorBytes
	}
	return r.opt.MaxTensorBytes
}

// lookup returns the entry for the dims of the run's inputs, nil when
// there is none or when limit, the run's cap on one tensor, is below a
// tensor its skipped steps make; ok is false when the inputs cannot key
// one (a sequence).
func (p *shapePlan) lookup(vals []tensor.Value, limit int64) (e *shapeEntry, ok bool) {
	for _, s := range p.keys {
		if _, ok := vals[s].(*tensor.Tensor); !ok {
			return nil, false
		}
	}
	for _, e := range *p.entries.Load() {
		if e.matches(p.keys, vals) {
			if limit >= 0 && e.largest > limit {
				return nil, false
			}
			return e, true
		}
	}
	return nil, true
}

func (e *shapeEntry) matches(keys []int, vals []tensor.Value) bool {
	for i, s := range keys {
		if !slices.Equal(e.dims[i], vals[s].(*tensor.Tensor).Shape()) {
			return false
		}
	}
	return true
}

// full reports whether the cache takes no more entries.
func (p *shapePlan) full() bool { return len(*p.entries.Load()) >= maxShapeEntries }

// skips reports whether a run under e skips the step at pos.
func (p *shapePlan) skips(e *shapeEntry, pos int) bool {
	return p.skip[pos] && (e.run == nil || !e.run[pos])
}

// store puts the values the skipped step at pos leaves for the others in
// their slots.
func (p *shapePlan) store(e *shapeEntry, pos int, vals []tensor.Value) {
	for i := p.at[pos]; i < p.at[pos+1]; i++ {
		vals[p.kept[i]] = e.vals[i]
	}
}

// shapeBuilder collects, during a run that missed, the input dims and a
// copy of each kept value, made as soon as its step has run: the run
// reuses the value's storage and header once its last reader is done.
type shapeBuilder struct {
	dims   [][]int
	pieces []shapePiece
	words  []uint64 // the copies' storage, each piece 8-byte aligned
	ok     bool
	// largest is shapeEntry.largest.
	largest int64
}

// shapePiece is one kept value in shapeBuilder.words; fits is false for
// one too large (or of strings) to keep.
type shapePiece struct {
	dt    tensor.DataType
	shape []int
	at, n int // bytes
	fits  bool
}

// newBuilder starts collecting for a run whose inputs are in vals.
func (p *shapePlan) newBuilder(vals []tensor.Value) *shapeBuilder {
	b := &shapeBuilder{dims: make([][]int, len(p.keys)), pieces: make([]shapePiece, 0, len(p.kept)), ok: true}
	for i, s := range p.keys {
		b.dims[i] = slices.Clone(vals[s].(*tensor.Tensor).Shape())
	}
	return b
}

// collect copies the kept values the step at pos made.
func (p *shapePlan) collect(b *shapeBuilder, pos int, vals []tensor.Value) {
	for _, s := range p.steps[pos].out {
		if s < 0 {
			continue
		}
		if t, ok := vals[s].(*tensor.Tensor); ok && t != nil {
			b.largest = max(b.largest, int64(t.ByteLen()))
		}
	}
	for i := p.at[pos]; i < p.at[pos+1]; i++ {
		t, ok := vals[p.kept[i]].(*tensor.Tensor)
		if !ok || t == nil {
			b.ok = false // not a tensor: keep nothing
			b.pieces = append(b.pieces, shapePiece{})
			continue
		}
		n := t.ByteLen()
		if t.DataType() == tensor.String || n > maxShapeValueBytes {
			b.pieces = append(b.pieces, shapePiece{})
			continue
		}
		at := 8 * len(b.words)
		b.words = append(b.words, make([]uint64, (n+7)/8)...)
		if n > 0 {
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&b.words[0])), 8*len(b.words))[at:], t.Bytes())
		}
		b.pieces = append(b.pieces, shapePiece{dt: t.DataType(), shape: slices.Clone(t.Shape()), at: at, n: n, fits: true})
	}
}

// publish makes what b collected a new entry, unless the cache is full
// or has one for the same dims already.
func (p *shapePlan) publish(b *shapeBuilder) {
	if !b.ok || len(b.pieces) != len(p.kept) {
		return
	}
	e := &shapeEntry{dims: b.dims, vals: make([]tensor.Value, len(b.pieces)), largest: b.largest}
	if len(b.words) > 0 {
		e.buf = unsafe.Slice((*byte)(unsafe.Pointer(&b.words[0])), 8*len(b.words))
	}
	for i, pc := range b.pieces {
		if !pc.fits {
			if e.run == nil {
				e.run = make([]bool, len(p.skip))
			}
			e.run[p.producer[p.kept[i]]] = true
			continue
		}
		var piece []byte
		if pc.n > 0 {
			piece = e.buf[pc.at : pc.at+pc.n : pc.at+pc.n]
		}
		c, err := tensor.Wrap(pc.dt, pc.shape, piece)
		if err != nil {
			return
		}
		e.vals[i] = c
	}
	if e.run != nil {
		// A step that runs needs its inputs: the skippable steps they
		// come from run too (producers come first, so one pass back).
		for pos := len(p.skip) - 1; pos >= 0; pos-- {
			if !e.run[pos] {
				continue
			}
			for _, s := range p.steps[pos].in {
				if s >= 0 {
					if q := p.producer[s]; q >= 0 && p.skip[q] {
						e.run[q] = true
					}
				}
			}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	old := *p.entries.Load()
	if len(old) >= maxShapeEntries {
		return
	}
	for _, o := range old {
		if slices.EqualFunc(o.dims, e.dims, slices.Equal) {
			return // a concurrent run published these dims first
		}
	}
	next := append(slices.Clip(old), e)
	p.entries.Store(&next)
	p.bytes.Add(int64(len(e.buf)))
}

// cached reports whether k is the storage of the cache entry the run
// uses: the model's, never counted or released by the run.
func (r *runState) cached(k storageKey) bool {
	if r.shapeHit == nil || len(r.shapeHit.buf) == 0 {
		return false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(r.shapeHit.buf)))
	a := uintptr(k)
	return a >= base && a < base+uintptr(len(r.shapeHit.buf))
}

// ShapeCacheBytes is the storage the model holds for the values it
// computed from its inputs' dims (see shapecache.go): at most
// maxShapeEntries sets of them. It is the model's, like PackedBytes, and
// no run's.
func (m *Model) ShapeCacheBytes() int64 {
	if m == nil || m.shapes == nil {
		return 0
	}
	return m.shapes.bytes.Load()
}

// ShapeCachedSteps is the number of steps a run whose input dims the
// model has seen skips (see shapecache.go).
func (m *Model) ShapeCachedSteps() int {
	if m == nil || m.shapes == nil {
		return 0
	}
	n := 0
	for _, s := range m.shapes.skip {
		if s {
			n++
		}
	}
	return n
}
