package movement

import (
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/tensor"
)

// Index-driven data movement, shared by the operators whose copies follow a
// list of flat element indices rather than strides (MaxPool's values follow
// its argmax, MaxUnpool scatters by its indices; Gather, GatherElements and
// ScatterElements are the same two loops). Like Plan, they are untyped:
// they dispatch once on the element's byte size, and strings are moved as
// strings. The caller checks every index beforehand: an index out of range
// is a bug, and panics like a slice access.

// GatherCopy sets dst[dstOff+i] = src[at[i]] for every i with at[i] >= 0;
// a negative index leaves its element of dst as it is. dst and src have one
// element type.
func GatherCopy(dst *tensor.Tensor, dstOff int, src *tensor.Tensor, at []int64) {
	if dst.DataType() == tensor.String {
		gatherElems(dst.Strings(), dstOff, src.Strings(), at)
		return
	}
	d, s := dst.Bytes(), src.Bytes()
	switch dst.DataType().Size() {
	case 1:
		gatherElems(d, dstOff, s, at)
	case 2:
		gatherElems(AsElems[uint16](d), dstOff, AsElems[uint16](s), at)
	case 4:
		gatherElems(AsElems[uint32](d), dstOff, AsElems[uint32](s), at)
	case 8:
		gatherElems(AsElems[uint64](d), dstOff, AsElems[uint64](s), at)
	case 16:
		gatherElems(AsElems[[2]uint64](d), dstOff, AsElems[[2]uint64](s), at)
	}
}

// ScatterCopy sets dst[at[i]] = src[srcOff+i] for every i, in increasing i:
// where at holds an index twice, the last write wins. dst and src have one
// element type.
func ScatterCopy(dst *tensor.Tensor, at []int64, src *tensor.Tensor, srcOff int) {
	if dst.DataType() == tensor.String {
		scatterElems(dst.Strings(), at, src.Strings(), srcOff)
		return
	}
	d, s := dst.Bytes(), src.Bytes()
	switch dst.DataType().Size() {
	case 1:
		scatterElems(d, at, s, srcOff)
	case 2:
		scatterElems(AsElems[uint16](d), at, AsElems[uint16](s), srcOff)
	case 4:
		scatterElems(AsElems[uint32](d), at, AsElems[uint32](s), srcOff)
	case 8:
		scatterElems(AsElems[uint64](d), at, AsElems[uint64](s), srcOff)
	case 16:
		scatterElems(AsElems[[2]uint64](d), at, AsElems[[2]uint64](s), srcOff)
	}
}

func gatherElems[E any](dst []E, dstOff int, src []E, at []int64) {
	d := dst[dstOff : dstOff+len(at)]
	for i, a := range at {
		if a >= 0 {
			d[i] = src[a]
		}
	}
}

func scatterElems[E any](dst []E, at []int64, src []E, srcOff int) {
	s := src[srcOff : srcOff+len(at)]
	for i, a := range at {
		dst[a] = s[i]
	}
}

// Copy copies src into dst (bytes, of one length), split across the run's
// cores in parts of whole cache lines when it is large enough to gain from
// it: the whole-tensor copy a scatter starts from.
func Copy(env Env, dst, src []byte) error {
	const line = 64
	n := len(src)
	return env.parts((n+line-1)/line, n/4, func(lo, hi int) {
		CopyBytes(dst[lo*line:min(hi*line, n)], src[lo*line:min(hi*line, n)])
	})
}

// ScatterBlocks copies block i of src (block elements of size bytes) to
// element offset at[i] of dst, for every i in increasing order. With
// distinct (no two blocks of at overlap) the order cannot matter, and the
// blocks are split across the run's cores when they are many bytes.
func ScatterBlocks(env Env, dst, src []byte, at []int64, size, block int, distinct bool) error {
	b := size * block
	scatter := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a := int(at[i]) * size
			CopyBytes(dst[a:a+b], src[i*b:(i+1)*b])
		}
	}
	if !distinct {
		env.Threads = 1 // in order
	}
	return env.parts(len(at), len(at)*b/4, scatter)
}

// parts runs f over [0, n) in parts across the run's cores from parallel's
// threshold on (work as parallel.Range counts it), checking the context
// after each; with one core, or little work, it runs f(0, n) directly
// (no closure handed to the pool).
func (e Env) parts(n, work int, f func(lo, hi int)) error {
	if parallel.Alone(e.threads(), n, work) {
		if err := e.cancelled(); err != nil {
			return err
		}
		f(0, n)
		return nil
	}
	return parallel.Range(e.Ctx, e.threads(), n, work, func(lo, hi int) error {
		f(lo, hi)
		return e.cancelled()
	})
}
