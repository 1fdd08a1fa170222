package movement

import (
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
