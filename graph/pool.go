package graph

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
	"weak"

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
	// free holds released storage by size, at most maxFreePerSize each.
	free map[int][][]byte
	// lent is the storage the pool allocated and has not had back, with
	// the number of handed-out tensors (see held) that hold it: storage
	// goes back into free only when a run lets it go and no caller holds
	// it, so an input or a constant never does. Weak pointers, so that
	// storage dropped without Release is still collected, and its entry
	// cannot match storage allocated later.
	lent map[weak.Pointer[byte]]int
	// held counts the outputs runs handed to the caller and the caller
	// has not released, by tensor (a run may hand out one tensor twice).
	held map[weak.Pointer[tensor.Tensor]]int
	// sweepAt is the size of lent or held at which entries of collected
	// objects are next swept out.
	sweepAt int
	// alloc is p.allocate, bound once for ops.Options.Alloc.
	alloc func(size int) []byte
	// fresh counts the bytes of storage allocated new rather than
	// recycled: what the pool has cost the heap.
	fresh int64
}

// maxFreePerSize bounds what the pool keeps of one size: enough for the
// tensors of a few runs, not a leak when shapes vary.
const maxFreePerSize = 16

// NewPool returns an empty pool. The zero Pool is ready to use as well.
func NewPool() *Pool {
	p := &Pool{}
	p.init()
	return p
}

// init fills in the maps of a zero Pool; p.mu is held or p is new.
func (p *Pool) init() {
	if p.free == nil {
		p.free = map[int][][]byte{}
		p.lent = map[weak.Pointer[byte]]int{}
		p.held = map[weak.Pointer[tensor.Tensor]]int{}
		p.sweepAt = 1024
	}
}

// allocator returns the pool's ops.Options.Alloc.
func (p *Pool) allocator() func(size int) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.alloc == nil {
		p.alloc = p.allocate
	}
	return p.alloc
}

func storageWeak(b []byte) weak.Pointer[byte] { return weak.Make(unsafe.SliceData(b)) }

// allocate returns size bytes of 8-byte aligned storage, recycled if it can.
func (p *Pool) allocate(size int) []byte {
	if size == 0 {
		return []byte{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	var b []byte
	if list := p.free[size]; len(list) > 0 {
		b = list[len(list)-1]
		list[len(list)-1] = nil
		p.free[size] = list[:len(list)-1]
	} else {
		words := make([]uint64, (size-1)/8+1)
		b = unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), size)
		p.fresh += int64(size)
	}
	p.lent[storageWeak(b)] = 0
	p.sweep()
	return b
}

// sweep drops the entries of collected storage and tensors once the maps
// have doubled since the last sweep; p.mu is held.
func (p *Pool) sweep() {
	if len(p.lent)+len(p.held) < p.sweepAt {
		return
	}
	for k := range p.lent {
		if k.Value() == nil {
			delete(p.lent, k)
		}
	}
	for k := range p.held {
		if k.Value() == nil {
			delete(p.held, k)
		}
	}
	p.sweepAt = 2 * max(len(p.lent)+len(p.held), 512)
}

// recycle takes back storage a run let go: into free if the pool lent it
// and no handed-out tensor holds it.
func (p *Pool) recycle(b []byte) {
	if len(b) == 0 {
		return
	}
	key := storageWeak(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	if holders, ok := p.lent[key]; !ok || holders > 0 {
		return
	}
	delete(p.lent, key)
	if list := p.free[cap(b)]; len(list) < maxFreePerSize {
		p.free[cap(b)] = append(list, b[:cap(b)])
	}
}

// handOut records the values in the slots outs of vals as the caller's.
func (p *Pool) handOut(vals []tensor.Value, outs []int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	for _, s := range outs {
		forEachTensor(vals[s], func(t *tensor.Tensor) {
			p.held[weak.Make(t)]++
			if t.DataType() == tensor.String || len(t.Bytes()) == 0 {
				return
			}
			if key := storageWeak(t.Bytes()); p.lentHas(key) {
				p.lent[key]++
			}
		})
	}
	p.sweep()
}

func (p *Pool) lentHas(key weak.Pointer[byte]) bool {
	_, ok := p.lent[key]
	return ok
}

// ErrNotHeld is wrapped by Release's error for a value the pool did not
// hand out, or has had back already.
var ErrNotHeld = errors.New("not an output the pool handed out and still lends")

// Release gives back outputs of runs with this pool, for later runs.
// Neither these values nor any tensor sharing their storage (a Reshape of
// them, say) may be used afterwards. Storage the pool did not allocate (an
// output that is the caller's own input, or an initializer) is left alone.
// A nil value, a value no run with this pool handed out, or one already
// released is an error wrapping ErrNotHeld, and then nothing is released.
func (p *Pool) Release(values ...tensor.Value) error {
	if p == nil {
		return errors.New("graph: Release on a nil Pool")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	// Check everything first, so that an error leaves the pool as it was.
	var tensors []*tensor.Tensor
	for i, v := range values {
		if err := checkValue(v); err != nil {
			return fmt.Errorf("graph: Release: value #%d %w", i, err)
		}
		forEachTensor(v, func(t *tensor.Tensor) { tensors = append(tensors, t) })
	}
	want := map[weak.Pointer[tensor.Tensor]]int{}
	for _, t := range tensors {
		k := weak.Make(t)
		if want[k]++; want[k] > p.held[k] {
			return fmt.Errorf("graph: Release: %s: %w", t.Describe(), ErrNotHeld)
		}
	}
	for _, t := range tensors {
		k := weak.Make(t)
		if p.held[k]--; p.held[k] == 0 {
			delete(p.held, k)
		}
		if t.DataType() == tensor.String || len(t.Bytes()) == 0 {
			continue
		}
		b := t.Bytes()
		key := storageWeak(b)
		holders, ok := p.lent[key]
		if !ok {
			continue
		}
		if holders > 1 {
			p.lent[key] = holders - 1
			continue
		}
		delete(p.lent, key)
		if list := p.free[cap(b)]; len(list) < maxFreePerSize {
			p.free[cap(b)] = append(list, b[:cap(b)])
		}
	}
	return nil
}
