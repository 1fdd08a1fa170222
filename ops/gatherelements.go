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
