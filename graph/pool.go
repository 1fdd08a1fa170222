package graph

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
	"weak"

	"github.com/onnxshape/onnxshape/internal/header"
	"github.com/onnxshape/onnxshape/internal/storage"
	"github.com/onnxshape/onnxshape/tensor"
)

// Pool recycles tensor storage between runs, so that a model run in a loop
// allocates (and the garbage collector frees) nothing once it is warm. Give
// it to Run in RunOptions.Pool: a run gives each intermediate tensor back
// right after its last reader, and the outputs come back when the caller is
// done with them and calls Release. A Pool is safe for concurrent use.
//
// An output stays the caller's until it is released: feeding it to another
// run, with this pool or another, never recycles it. Release only takes
// what a run with this pool handed out, once each.
type Pool struct {
	mu sync.Mutex
	// sizes holds, by size in bytes, the released storage of that size
	// and the counts of it lent (see sizeClass): one map lookup for a
	// piece lent or given back.
	sizes map[int]*sizeClass
	// lent is the storage the pool allocated and has not had back, by
	// address, with the number of handed-out values (see held) that hold
	// it: storage goes back into free only when a run lets it go and no
	// caller holds it, so an input or a constant never does. Each entry
	// keeps a weak pointer, so that storage dropped without Release is
	// still collected, and an entry whose storage was collected cannot
	// match storage allocated later at the same address.
	lent map[uintptr]lentStorage
	// held counts the outputs runs handed to the caller and the caller
	// has not released, by the address of the value (a run may hand out
	// one value twice), weakly as well.
	held map[uintptr]heldValue
	// sweepAt is the size of lent and held at which entries of collected
	// objects are next swept out.
	sweepAt int
	// alloc is p.allocate, bound once for the kernels' allocator (runenv.Env.Alloc).
	alloc func(size int) []byte
	// fresh counts the bytes of storage allocated new rather than
	// recycled: what the pool has cost the heap.
	fresh int64
	// headers keeps the header of a released output that the run made
	// itself, by the model and the slot that made it, for that slot's
	// next run with the pool: its held entry stays (count 0), so that
	// handing it out again registers no new weak pointer. At most
	// maxSpareHeaders of them.
	headers map[headerKey]*tensor.Tensor
}

// headerKey is an output slot of a model (Model.poolID).
type headerKey struct {
	model uint64
	slot  int
}

// maxSpareHeaders bounds the released output headers a pool keeps.
const maxSpareHeaders = 256

// sizeClass is the pool's storage of one size: free holds released
// pieces, at most maxFreePerSize, or as many as were ever lent at once
// when that is more (see keeps); lent counts the pieces lent now and
// mostLent the most lent at once.
type sizeClass struct {
	free           []lentStorage
	lent, mostLent int
}

// class returns the sizeClass of size, made when new; p.mu is held.
func (p *Pool) class(size int) *sizeClass {
	c := p.sizes[size]
	if c == nil {
		c = &sizeClass{}
		p.sizes[size] = c
	}
	return c
}

// lentStorage is storage the pool allocated.
type lentStorage struct {
	buf     []byte // nil in lent: the weak pointer stands for it
	weak    weak.Pointer[byte]
	size    int // the bytes of buf
	holders int // handed-out values holding it
}

// heldValue is an output handed to the caller, weakly: one of the five.
type heldValue struct {
	tensor   weak.Pointer[tensor.Tensor]
	sequence weak.Pointer[tensor.Sequence]
	optional weak.Pointer[tensor.Optional]
	maps     weak.Pointer[tensor.Map]
	mapSeq   weak.Pointer[tensor.MapSequence]
	count    int
	// made, for a tensor the run made itself in its own header (see
	// runState.headers), is the output slot it was made for: the
	// header comes back to that slot once released.
	made  headerKey
	reuse bool
}

// is reports whether the held value is v (and so not collected).
func (h heldValue) is(v tensor.Value) bool {
	switch v := v.(type) {
	case *tensor.Tensor:
		return h.tensor.Value() == v
	case *tensor.Sequence:
		return h.sequence.Value() == v
	case *tensor.Optional:
		return h.optional.Value() == v
	case *tensor.Map:
		return h.maps.Value() == v
	case *tensor.MapSequence:
		return h.mapSeq.Value() == v
	}
	return false
}

func (h heldValue) collected() bool {
	return h.tensor.Value() == nil && h.sequence.Value() == nil && h.optional.Value() == nil &&
		h.maps.Value() == nil && h.mapSeq.Value() == nil
}

// valueAddress is the address of the object a value points to.
func valueAddress(v tensor.Value) uintptr {
	switch v := v.(type) {
	case *tensor.Tensor:
		return uintptr(unsafe.Pointer(v))
	case *tensor.Sequence:
		return uintptr(unsafe.Pointer(v))
	case *tensor.Optional:
		return uintptr(unsafe.Pointer(v))
	case *tensor.Map:
		return uintptr(unsafe.Pointer(v))
	case *tensor.MapSequence:
		return uintptr(unsafe.Pointer(v))
	}
	return 0
}

// maxFreePerSize bounds what the pool keeps of one size, unless more were
// lent at once: enough for the tensors of a few runs, not a leak when
// shapes vary.
const maxFreePerSize = 16

// keeps reports whether the pool keeps released storage of class c: a
// run that holds many pieces of one size at once (the 64 tensors of a
// SplitToSequence) finds them all again in the next run, while the pool
// never keeps more of a size than it once had lent together.
func (c *sizeClass) keeps() bool {
	n := len(c.free)
	return n < maxFreePerSize || n < c.mostLent
}

// lend records a piece of c as lent; p.mu is held.
func (c *sizeClass) lend() {
	c.lent++
	c.mostLent = max(c.mostLent, c.lent)
}

// NewPool returns an empty pool. The zero Pool is ready to use as well.
func NewPool() *Pool {
	p := &Pool{}
	p.init()
	return p
}

// init fills in the maps of a zero Pool; p.mu is held or p is new.
func (p *Pool) init() {
	if p.sizes == nil {
		p.sizes = map[int]*sizeClass{}
		p.lent = map[uintptr]lentStorage{}
		p.held = map[uintptr]heldValue{}
		p.headers = map[headerKey]*tensor.Tensor{}
		p.sweepAt = 1024
	}
}

// allocator returns the pool's allocator for the kernels (runenv.Env.Alloc).
func (p *Pool) allocator() func(size int) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.alloc == nil {
		p.alloc = p.allocate
	}
	return p.alloc
}

func addressOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// allocate returns size bytes of 8-byte aligned storage, recycled if it can.
func (p *Pool) allocate(size int) []byte {
	if size == 0 {
		return []byte{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	var s lentStorage
	c := p.class(size)
	if list := c.free; len(list) > 0 {
		s = list[len(list)-1]
		list[len(list)-1] = lentStorage{}
		c.free = list[:len(list)-1]
		storage.Recycled(s.buf)
	} else {
		s.buf = storage.Aligned(size)
		s.weak = weak.Make(&s.buf[0])
		s.size = size
		p.fresh += int64(size)
	}
	b := s.buf
	s.buf = nil
	p.lent[addressOf(b)] = s
	c.lend()
	p.sweep()
	return b
}

// lentAt returns the entry of the storage b, if the pool lent it.
func (p *Pool) lentAt(b []byte) (uintptr, lentStorage, bool) {
	if len(b) == 0 {
		return 0, lentStorage{}, false
	}
	addr := addressOf(b)
	s, ok := p.lent[addr]
	if !ok || s.weak.Value() != &b[0] {
		return 0, lentStorage{}, false
	}
	return addr, s, true
}

// sweep drops the entries of collected storage and values once the maps
// have doubled since the last sweep; p.mu is held.
func (p *Pool) sweep() {
	if len(p.lent)+len(p.held) < p.sweepAt {
		return
	}
	for k, s := range p.lent {
		if s.weak.Value() == nil {
			delete(p.lent, k)
			p.class(s.size).lent--
		}
	}
	for k, h := range p.held {
		if h.collected() {
			delete(p.held, k)
		}
	}
	p.sweepAt = 2 * max(len(p.lent)+len(p.held), 512)
}

// giveBack moves lent storage into free; p.mu is held.
func (p *Pool) giveBack(addr uintptr, s lentStorage, b []byte) {
	delete(p.lent, addr)
	c := p.class(s.size)
	c.lent--
	if c.keeps() {
		s.buf, s.holders = unsafe.Slice(unsafe.SliceData(b), s.size), 0 // the whole piece, whatever b shows of it
		c.free = append(c.free, s)
	}
}

// recycle takes back storage a run let go: into free if the pool lent it
// and no handed-out value holds it.
func (p *Pool) recycle(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if addr, s, ok := p.lentAt(b); ok && s.holders == 0 {
		p.giveBack(addr, s, b)
	}
}

// handOut records the values in the slots outs of vals as the caller's.
// headers are the run's headers by slot (runState.headers): an output
// that is its slot's header there is one the run made itself, whose
// header the pool may lend back to the slot once it is released.
func (p *Pool) handOut(model uint64, vals []tensor.Value, outs []int, headers []*tensor.Tensor) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	for _, slot := range outs {
		v := vals[slot]
		addr := valueAddress(v)
		h, ok := p.held[addr]
		if !ok || !h.is(v) {
			h = heldValue{}
			switch v := v.(type) {
			case *tensor.Tensor:
				h.tensor = weak.Make(v)
			case *tensor.Sequence:
				h.sequence = weak.Make(v)
			case *tensor.Optional:
				h.optional = weak.Make(v)
			case *tensor.Map:
				h.maps = weak.Make(v)
			case *tensor.MapSequence:
				h.mapSeq = weak.Make(v)
			}
		}
		if t, ok := v.(*tensor.Tensor); ok && headers[slot] == t && t.DataType() != tensor.String {
			h.made, h.reuse = headerKey{model, slot}, true
		} else if h.count == 0 {
			h.reuse = false
		}
		h.count++
		p.held[addr] = h
		forEachTensor(v, func(t *tensor.Tensor) {
			if t.DataType() == tensor.String {
				return
			}
			if addr, s, ok := p.lentAt(t.Bytes()); ok {
				s.holders++
				p.lent[addr] = s
			}
		})
	}
	p.sweep()
}

// spareHeader takes the header a released output of the model's slot
// left, or returns nil.
func (p *Pool) spareHeader(model uint64, slot int) *tensor.Tensor {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := headerKey{model, slot}
	t := p.headers[k]
	if t != nil {
		delete(p.headers, k)
	}
	return t
}

// ErrNotHeld is wrapped by Release's error for a value the pool did not
// hand out, or has had back already.
var ErrNotHeld = errors.New("not an output the pool handed out and still lends")

// Release gives back outputs of runs with this pool, for later runs.
// Neither these values nor any tensor sharing their storage (a Reshape of
// them, say) may be used afterwards. Storage the pool did not allocate (an
// output that is the caller's own input, or an initializer) is left alone.
// Each value must be one a run with this pool returned, released as many
// times as runs returned it: a nil value, another value, or one already
// released is an error wrapping ErrNotHeld, and then nothing is released.
func (p *Pool) Release(values ...tensor.Value) error {
	if p == nil {
		return errors.New("graph: Release on a nil Pool")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	// Check everything first, so that an error leaves the pool as it was.
	var want map[uintptr]int
	for i, v := range values {
		if isNilValue(v) || v == nil {
			return fmt.Errorf("graph: Release: value #%d is nil", i)
		}
		addr := valueAddress(v)
		h, ok := p.held[addr]
		n := 1
		switch {
		case len(values) > 16:
			if want == nil {
				want = map[uintptr]int{}
			}
			want[addr]++
			n = want[addr]
		default: // a few values: count the earlier ones without a map
			for _, u := range values[:i] {
				if valueAddress(u) == addr {
					n++
				}
			}
		}
		if !ok || !h.is(v) || n > h.count {
			return fmt.Errorf("graph: Release: value #%d, %s: %w", i, v.Describe(), ErrNotHeld)
		}
	}
	for _, v := range values {
		addr := valueAddress(v)
		h := p.held[addr]
		h.count--
		spare := h.count == 0 && h.reuse && (p.headers[h.made] != nil || len(p.headers) < maxSpareHeaders)
		switch {
		case spare:
			p.held[addr] = h // kept with its weak pointer for the header's next turn
		case h.count == 0:
			delete(p.held, addr)
		default:
			p.held[addr] = h
		}
		forEachTensor(v, func(t *tensor.Tensor) {
			if t.DataType() == tensor.String {
				return
			}
			b := t.Bytes()
			addr, s, ok := p.lentAt(b)
			if !ok {
				return
			}
			if s.holders > 1 {
				s.holders--
				p.lent[addr] = s
				return
			}
			p.giveBack(addr, s, b)
		})
		if spare {
			t := v.(*tensor.Tensor)
			header.Detach(t) // nothing reads it until a run rewraps it
			p.headers[h.made] = t
		}
	}
	return nil
}
