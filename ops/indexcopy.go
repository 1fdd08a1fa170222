package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

// Index-driven data movement, shared by the operators whose copies follow a
// list of flat element indices rather than strides (MaxPool's values follow
// its argmax, MaxUnpool scatters by its indices; Gather, GatherElements and
// ScatterElements are the same two loops). Like copyPlan, they are untyped:
// they dispatch once on the element's byte size, and strings are moved as
// strings. The caller checks every index beforehand: an index out of range
// is a bug, and panics like a slice access.

// gatherCopy sets dst[dstOff+i] = src[at[i]] for every i with at[i] >= 0;
// a negative index leaves its element of dst as it is. dst and src have one
// element type.
func gatherCopy(dst *tensor.Tensor, dstOff int, src *tensor.Tensor, at []int64) {
	if dst.DataType() == tensor.String {
		gatherElems(dst.Strings(), dstOff, src.Strings(), at)
		return
	}
	d, s := dst.Bytes(), src.Bytes()
	switch dst.DataType().Size() {
	case 1:
		gatherElems(d, dstOff, s, at)
	case 2:
		gatherElems(asElems[uint16](d), dstOff, asElems[uint16](s), at)
	case 4:
		gatherElems(asElems[uint32](d), dstOff, asElems[uint32](s), at)
	case 8:
		gatherElems(asElems[uint64](d), dstOff, asElems[uint64](s), at)
	case 16:
		gatherElems(asElems[[2]uint64](d), dstOff, asElems[[2]uint64](s), at)
	}
}

// scatterCopy sets dst[at[i]] = src[srcOff+i] for every i, in increasing i:
// where at holds an index twice, the last write wins. dst and src have one
// element type.
func scatterCopy(dst *tensor.Tensor, at []int64, src *tensor.Tensor, srcOff int) {
	if dst.DataType() == tensor.String {
		scatterElems(dst.Strings(), at, src.Strings(), srcOff)
		return
	}
	d, s := dst.Bytes(), src.Bytes()
	switch dst.DataType().Size() {
	case 1:
		scatterElems(d, at, s, srcOff)
	case 2:
		scatterElems(asElems[uint16](d), at, asElems[uint16](s), srcOff)
	case 4:
		scatterElems(asElems[uint32](d), at, asElems[uint32](s), srcOff)
	case 8:
		scatterElems(asElems[uint64](d), at, asElems[uint64](s), srcOff)
	case 16:
		scatterElems(asElems[[2]uint64](d), at, asElems[[2]uint64](s), srcOff)
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
