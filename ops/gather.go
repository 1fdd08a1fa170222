// Gather picks slices of data along one axis: for indices of shape q and
// data of shape [d0 .. d(r-1)], the output has shape
// d[:axis] + q + d[axis+1:], and output[i.., j.., k..] =
// data[i.., indices[j..], k..].
//
// Versions: 1, 11 and 13. 11 allows negative indices (counted from the end
// of the axis) and 13 adds bfloat16; onnxshape reads negative indices at
// every version, as onnxruntime does. Any element type.
//
// Rules: [axis] axis in [-r, r-1]; [rank] data has rank >= 1 (an axis must
// exist); [indices-type] indices are int32 or int64; [indices] every index
// lies in [-d, d-1] for the axis's dim d (ONNX: "an error if any of the
// index values are out of bounds"); [size] the output fits the size limit.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Gather", []int{1, 11, 13}, [2]int{2, 2}, [2]int{1, 1}, gatherNode)
	declareAttrs("Gather", AttrSpec{Name: "axis", Type: AttrInt})
}

// GatherOptions are Gather's attributes; the zero value is ONNX's default.
type GatherOptions struct {
	// Axis is the axis indexed, in [-r, r-1].
	Axis int
}

// Gather returns the slices of data that indices (int32 or int64) select
// along o.Axis (ONNX Gather, version 13).
func Gather(data, indices *tensor.Tensor, o GatherOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Gather", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return gatherAxis(opt, op, data, indices, o.Axis)
}

func gatherNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
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
	y, err := gatherAxis(opt, n.op(), data, indices, axis)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// gatherShape returns the output shape of Gather, and the axis normalised.
func gatherShape(op opRef, data, indices []int, axis int) ([]int, int, error) {
	if len(data) == 0 {
		return nil, 0, op.errorf("rank", "data must have rank >= 1, got a scalar")
	}
	a, ok := normalizeAxis(int64(axis), len(data))
	if !ok {
		return nil, 0, op.errorf("axis", "axis %d outside [%d, %d]", axis, -len(data), len(data)-1)
	}
	out := make([]int, 0, len(data)-1+len(indices))
	out = append(out, data[:a]...)
	out = append(out, indices...)
	return append(out, data[a+1:]...), a, nil
}

func gatherAxis(opt *Options, op opRef, data, indices *tensor.Tensor, axis int) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	shape, a, err := gatherShape(op, data.Shape(), indices.Shape(), axis)
	if err != nil {
		return nil, err
	}
	if dt := indices.DataType(); dt != tensor.Int32 && dt != tensor.Int64 {
		return nil, op.errorf("indices-type", "indices must be int32 or int64, got %v", dt)
	}
	dim := data.Shape()[a]
	at, err := indexView(opt, op, indices, dim, "indices", "indices") // read only
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, data.DataType(), shape)
	if err != nil {
		return nil, err
	}
	outer, block := product(data.Shape()[:a]), product(data.Shape()[a+1:])
	rows := outer * len(at)
	if rows == 0 || block == 0 {
		return y, nil
	}
	g := gatherRun{y: y, data: data, at: at, outer: outer, block: block, dim: dim, stream: opt.streams(y.ByteLen(), y.ByteLen())}
	if serial, err := alone(opt, rows, y.ByteLen()/4); serial {
		// One core: no closure for the pool to hold, a small Gather's
		// largest cost.
		if err == nil {
			err = g.rows(0, rows)
		}
		return y, err
	}
	p := new(gatherRun) // the workers' copy
	*p = g
	return y, parallelRange(opt, rows, y.ByteLen()/4, p.rows)
}

// gatherRun is a Gather's copy of the rows of y (outer times len(at)
// rows of block elements) from data, dim rows along the axis.
type gatherRun struct {
	y, data           *tensor.Tensor
	at                []int64
	outer, block, dim int
	stream            bool
}

// rows copies the rows [lo, hi).
func (g *gatherRun) rows(lo, hi int) error {
	y, data, at := g.y, g.data, g.at
	if size := g.block * data.DataType().Size(); g.outer == 1 && data.DataType() != tensor.String &&
		movement.GatherRows(y.Bytes()[lo*size:hi*size], data.Bytes(), at[lo:hi], size, g.stream) {
		return nil
	}
	dim := g.dim
	from := func(r int) int { return r/len(at)*dim + int(at[r%len(at)]) }
	if g.outer == 1 { // axis 0, the embedding lookup: no division a row
		from = func(r int) int { return int(at[r]) }
	}
	gatherBlocks(y, data, g.block, lo, hi, from)
	return nil
}

// gatherBlocks copies, for each row r in [lo, hi) of the output seen as
// rows of block elements, the block of src that from(r) names: the loop of
// Gather (and of any gather whose unit is a contiguous block). Bytes move
// by copy, strings by element.
func gatherBlocks(dst, src *tensor.Tensor, block, lo, hi int, from func(r int) int) {
	if dst.DataType() == tensor.String {
		d, s := dst.Strings(), src.Strings()
		for r := lo; r < hi; r++ {
			f := from(r)
			copy(d[r*block:(r+1)*block], s[f*block:(f+1)*block])
		}
		return
	}
	size := dst.DataType().Size() * block
	d, s := dst.Bytes(), src.Bytes()
	if size == 4 {
		d4, s4 := asElems[uint32](d), asElems[uint32](s)
		for r := lo; r < hi; r++ {
			d4[r] = s4[from(r)]
		}
		return
	}
	for r := lo; r < hi; r++ {
		f := from(r)
		movement.CopyBytes(d[r*size:(r+1)*size], s[f*size:(f+1)*size])
	}
}
