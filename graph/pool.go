package graph

import (
	"sync"
	"unsafe"
	"weak"

	"github.com/onnxshape/onnxshape/tensor"
)

// Pool recycles tensor storage between runs, so that a model run in a loop
// allocates (and the garbage collector frees) nothing once it is warm. Give
// it to Run in RunOptions.Pool: the run's intermediate tensors go back to the
// pool when the run ends, and the outputs when the caller is done with them
// and calls Release. A Pool is safe for concurrent use.
type Pool struct {
	mu sync.Mutex
	// free holds released storage by size, at most maxFreePerSize each.
	free map[int][][]byte
	// lent marks the storage the pool handed out and has not had back:
	// only those go back into free, so an input or a constant never does.
	// Weak pointers, so that an output dropped without Release is still
	// collected, and its entry cannot match storage allocated later.
	lent map[weak.Pointer[byte]]bool
	// sweepAt is the size of lent at which entries of collected storage
	// are next swept out.
	sweepAt int
}

// maxFreePerSize bounds what the pool keeps of one size: enough for the
// tensors of a few runs, not a leak when shapes vary.
const maxFreePerSize = 16

// NewPool returns an empty pool.
func NewPool() *Pool {
	return &Pool{free: map[int][][]byte{}, lent: map[weak.Pointer[byte]]bool{}, sweepAt: 1024}
}

// alloc returns size bytes of 8-byte aligned storage, recycled if it can.
func (p *Pool) alloc(size int) []byte {
	if size == 0 {
		return []byte{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var b []byte
	if list := p.free[size]; len(list) > 0 {
		b = list[len(list)-1]
		p.free[size] = list[:len(list)-1]
	} else {
		words := make([]uint64, (size-1)/8+1)
		b = unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), size)
	}
	p.lent[weak.Make(unsafe.SliceData(b))] = true
	if len(p.lent) >= p.sweepAt {
		for k := range p.lent {
			if k.Value() == nil {
				delete(p.lent, k)
			}
		}
		p.sweepAt = 2 * max(len(p.lent), 512)
	}
	return b
}

// Release hands the storage of values back to the pool for later runs.
// Neither these values nor any tensor sharing their storage (a Reshape of
// them, say) may be used afterwards. Storage the pool did not provide, and
// storage already released, is left alone.
func (p *Pool) Release(values ...tensor.Value) {
	p.release(values, nil)
}

// release puts back the storage of values, except storage that one of keep
// shares.
func (p *Pool) release(values []tensor.Value, keep []tensor.Value) {
	kept := map[weak.Pointer[byte]]bool{}
	for _, v := range keep {
		for _, t := range tensorsOf(v) {
			if b := t.Bytes(); len(b) > 0 {
				kept[weak.Make(unsafe.SliceData(b))] = true
			}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, v := range values {
		for _, t := range tensorsOf(v) {
			b := t.Bytes()
			if len(b) == 0 || t.DataType() == tensor.String {
				continue
			}
			key := weak.Make(unsafe.SliceData(b))
			if !p.lent[key] || kept[key] {
				continue
			}
			delete(p.lent, key)
			if list := p.free[cap(b)]; len(list) < maxFreePerSize {
				p.free[cap(b)] = append(list, b[:cap(b)])
			}
		}
	}
}
