// GatherElements picks one element of data for every element of indices,
// along one axis: for axis 0 of a 3-D tensor, output[i][j][k] =
// data[indices[i][j][k]][j][k]. The output has the shape of indices.
//
// Versions: 11 and 13 (13 adds bfloat16). Any element type.
//
// Rules: [axis] axis in [-r, r-1]; [rank] data has rank >= 1;
// [indices-type] indices are int32 or int64; [indices-shape] indices have
// data's rank, and no dim longer than data's off the axis (ONNX leaves it
// undefined: an index there would address no element); [indices] every
// index lies in [-d, d-1] for the axis's dim d; [size] the output fits the
// size limit.

package ops

import (
	"errors"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("GatherElements", []int{11, 13}, [2]int{2, 2}, [2]int{1, 1}, gatherElementsNode)
	declareAttrs("GatherElements", AttrSpec{Name: "axis", Type: AttrInt})
}

// GatherElementsOptions are GatherElements' attributes; the zero value is
// ONNX's default.
type GatherElementsOptions struct {
	// Axis is the axis indexed, in [-r, r-1].
	Axis int
}

// GatherElements returns the elements of data that indices select along
// o.Axis (ONNX GatherElements, version 13).
func GatherElements(data, indices *tensor.Tensor, o GatherElementsOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"GatherElements", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return gatherElements(opt, op, data, indices, o.Axis)
}

func gatherElementsNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	data, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	indices, err := n.requiredInput(in, 1, "indices")
	if err != nil {
		return nil, err
	}
	axis, err := n.intAttr("axis", 0, "axis")
	if err != nil {
		return nil, err
	}
	y, err := gatherElements(opt, n.op(), data, indices, axis)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// elementsAxis normalises the axis of GatherElements and ScatterElements.
func elementsAxis(op opRef, data *tensor.Tensor, axis int) (int, error) {
	if data.Rank() == 0 {
		return 0, op.errorf("rank", "data must have rank >= 1, got a scalar")
	}
	a, ok := normalizeAxis(int64(axis), data.Rank())
	if !ok {
		return 0, op.errorf("axis", "axis %d outside [%d, %d]", axis, -data.Rank(), data.Rank()-1)
	}
	return a, nil
}

func gatherElements(opt *Options, op opRef, data, indices *tensor.Tensor, axis int) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	a, err := elementsAxis(op, data, axis)
	if err != nil {
		return nil, err
	}
	if a == data.Rank()-1 && data.DataType() != tensor.String {
		if y, ok, err := gatherElementsLast(opt, op, data, indices); ok || err != nil {
			return y, err
		}
	}
	at, err := alongAxisTargets(opt, op, data, indices, a)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, data.DataType(), indices.Shape())
	if err != nil {
		return nil, err
	}
	movement.GatherCopy(y, 0, data, at)
	return y, nil
}

// gatherElementsLast is GatherElements along the last axis when the
// indices' leading dims equal data's (the common case): a tight loop per
// row, the index read in place and checked as it is used, rows across the
// cores, without the list of targets. ok is false where it does not apply.
// On a bad index it falls back to alongAxisTargets, which reports the
// first one as it always has.
func gatherElementsLast(opt *Options, op opRef, data, indices *tensor.Tensor) (y *tensor.Tensor, ok bool, err error) {
	ds, is := data.Shape(), indices.Shape()
	if len(is) != len(ds) {
		return nil, false, nil
	}
	for d := range len(ds) - 1 {
		if is[d] != ds[d] {
			return nil, false, nil
		}
	}
	if dt := indices.DataType(); dt != tensor.Int32 && dt != tensor.Int64 {
		return nil, false, nil
	}
	y, err = opt.newOverwritten(op, data.DataType(), is)
	if err != nil {
		return nil, true, err
	}
	if y.Len() == 0 {
		return y, true, nil
	}
	nd, ni := ds[len(ds)-1], is[len(is)-1]
	rows := y.Len() / ni
	db, yb := data.Bytes(), y.Bytes()
	switch data.DataType().Size() {
	case 1:
		err = gatherLastIdx(opt, indices, asElems[uint8](yb), asElems[uint8](db), rows, ni, nd)
	case 2:
		err = gatherLastIdx(opt, indices, asElems[uint16](yb), asElems[uint16](db), rows, ni, nd)
	case 4:
		err = gatherLastIdx(opt, indices, asElems[uint32](yb), asElems[uint32](db), rows, ni, nd)
	case 8:
		err = gatherLastIdx(opt, indices, asElems[uint64](yb), asElems[uint64](db), rows, ni, nd)
	default:
		err = gatherLastIdx(opt, indices, asElems[[2]uint64](yb), asElems[[2]uint64](db), rows, ni, nd)
	}
	switch {
	case errors.Is(err, errGatherIndex):
		return nil, false, nil // alongAxisTargets names the bad index
	case err != nil:
		return nil, true, op.wrap("cancelled", err, "run stopped")
	}
	return y, true, nil
}

func gatherLastIdx[E any](opt *Options, indices *tensor.Tensor, y, data []E, rows, ni, nd int) error {
	if indices.DataType() == tensor.Int32 {
		v, _ := tensor.Data[int32](indices)
		return gatherLast(opt, v, y, data, rows, ni, nd)
	}
	v, _ := tensor.Data[int64](indices)
	return gatherLast(opt, v, y, data, rows, ni, nd)
}

// gatherLast sets y[r, j] = data[r, idx[r, j]] (a negative index counted
// from the end) for rows of ni indices and nd data elements, and reports
// errGatherIndex when an index lies outside [-nd, nd).
func gatherLast[I int32 | int64, E any](opt *Options, idx []I, y, data []E, rows, ni, nd int) error {
	return parallelRange(opt, rows, len(y), func(lo, hi int) error {
		for r := lo; r < hi; r++ {
			if !gatherRow(y[r*ni:][:ni], idx[r*ni:][:ni], data[r*nd:][:nd]) {
				return errGatherIndex
			}
		}
		return nil
	})
}

// gatherRow sets out[j] = src[ir[j]] (a negative index counted from the
// end) and reports false at an index outside [-len(src), len(src)). A
// function of its own, not inlined: in the closure of the row loop the
// compiler spilled the source's pointer and read it back every element.
//
//go:noinline
func gatherRow[I int32 | int64, E any](out []E, ir []I, src []E) bool {
	out = out[:len(ir)]
	n := int64(len(src))
	for j, x := range ir {
		k := int64(x)
		if k < 0 {
			k += n
		}
		if uint64(k) >= uint64(len(src)) {
			return false
		}
		out[j] = src[k]
	}
	return true
}

var errGatherIndex = errors.New("an index out of range")

// alongAxisTargets returns, for every element of indices (in row-major
// order), the flat element of data it addresses: its own position with the
// coordinate on axis replaced by its value. GatherElements reads those
// elements, ScatterElements writes them. indices must have data's rank and
// no longer dims than data off the axis ([indices-shape]); every value must
// lie in [-d, d) for the axis's dim d ([indices]). The index list is
// scratch of 8 bytes an element, charged first.
func alongAxisTargets(opt *Options, op opRef, data, indices *tensor.Tensor, axis int) ([]int64, error) {
	ds, is := data.Shape(), indices.Shape()
	if len(is) != len(ds) {
		return nil, op.errorf("indices-shape", "indices must have the rank of data (%d), got shape %v", len(ds), is)
	}
	for d := range ds {
		if d != axis && is[d] > ds[d] {
			return nil, op.errorf("indices-shape", "indices shape %v exceeds data shape %v on axis %d", is, ds, d)
		}
	}
	if dt := indices.DataType(); dt != tensor.Int32 && dt != tensor.Int64 {
		return nil, op.errorf("indices-type", "indices must be int32 or int64, got %v", dt)
	}
	if err := opt.checkSize(op, tensor.Int64, is); err != nil {
		return nil, err
	}
	if err := opt.charge(op, "index scratch", int64(indices.Len())*8); err != nil {
		return nil, err
	}
	at, err := indexList(op, indices, ds[axis], "indices", "indices")
	if err != nil {
		return nil, err
	}
	strides := make([]int, len(ds))
	n := 1
	for d := len(ds) - 1; d >= 0; d-- {
		strides[d] = n
		n *= ds[d]
	}
	// walk the indices' positions with an odometer, keeping the offset of
	// the position's non-axis coordinates in data
	pos := make([]int, len(is))
	off := 0
	for i := range at {
		at[i] = int64(off) + at[i]*int64(strides[axis])
		for d := len(is) - 1; d >= 0; d-- {
			pos[d]++
			if d != axis {
				off += strides[d]
			}
			if pos[d] < is[d] {
				break
			}
			if d != axis {
				off -= pos[d] * strides[d]
			}
			pos[d] = 0
		}
	}
	return at, nil
}
