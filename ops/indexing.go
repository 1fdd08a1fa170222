package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// The indexing family's shared pieces (Gather, GatherElements, GatherND,
// Scatter, ScatterElements, ScatterND, OneHot...): reading an index tensor,
// resolving negative indices and refusing those out of range, and the byte
// block copy the gathers are made of.

// indexList returns the elements of an int32 or int64 index tensor as int64,
// each counted from the end when negative and checked to lie in [0, dim):
// an index outside [-dim, dim) breaks rule (ONNX calls it an error; an
// implementation that read it would read outside the data).
func indexList(op opRef, t *tensor.Tensor, dim int, name, rule string) ([]int64, error) {
	v, err := int64sOf(t)
	if err != nil {
		return nil, op.wrap("indices-type", err, "%s", name)
	}
	d := int64(dim)
	for i, x := range v {
		if x < -d || x >= d {
			return nil, op.errorf(rule, "%s holds %d at position %d, outside [%d, %d)", name, x, i, -d, d)
		}
		if x < 0 {
			v[i] = x + d
		}
	}
	return v, nil
}

// indexView is indexList for a caller that only reads the list: int64
// indices already in [0, dim) are read in place, without a copy (an
// embedding lookup's 50,000 indices would otherwise be 400 KB a run);
// others are copied as indexList does, the copy charged to the run first.
// The list may be the tensor's own storage: never write it.
func indexView(opt *Options, op opRef, t *tensor.Tensor, dim int, name, rule string) ([]int64, error) {
	if t.DataType() == tensor.Int64 {
		v, err := tensor.Data[int64](t)
		if err == nil && inRange(v, int64(dim)) {
			return v, nil
		}
	}
	if err := opt.charge(op, name+" as int64", int64(t.Len())*8); err != nil {
		return nil, err
	}
	return indexList(op, t, dim, name, rule)
}

// inRange reports whether every element of v lies in [0, d).
func inRange(v []int64, d int64) bool {
	for _, x := range v {
		if uint64(x) >= uint64(d) {
			return false
		}
	}
	return true
}

// product is the number of elements of the dims (1 for none).
func product(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
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

// tupleTargets reads indices as tuples of k = indices.shape[-1] coordinates
// into the dims b..b+k of data (after b batch dims that data and indices
// share) and returns, per tuple, the flat element offset of the slice of
// data it addresses, and the slice's length (the product of data's dims
// after b+k). GatherND reads those slices, ScatterND writes them.
func tupleTargets(opt *Options, op opRef, dataShape []int, indices *tensor.Tensor, b int) ([]int64, int, error) {
	is := indices.Shape()
	if len(dataShape) < 1 || len(is) < 1 {
		return nil, 0, op.errorf("rank", "data and indices must have rank >= 1, got %v and %v", dataShape, is)
	}
	if dt := indices.DataType(); dt != tensor.Int64 {
		return nil, 0, op.errorf("indices-type", "indices must be int64, got %v", dt)
	}
	if b < 0 || b >= len(is) || b >= len(dataShape) {
		return nil, 0, op.errorf("batch_dims", "batch_dims %d must be below the ranks of data (%d) and indices (%d)", b, len(dataShape), len(is))
	}
	for d := range b {
		if is[d] != dataShape[d] {
			return nil, 0, op.errorf("batch_dims", "the first %d dims of indices %v and data %v must agree", b, is, dataShape)
		}
	}
	k := is[len(is)-1]
	if k < 1 || k > len(dataShape)-b {
		return nil, 0, op.errorf("indices-shape", "the last dim of indices (%d) must be in [1, %d]", k, len(dataShape)-b)
	}
	tuples := 1
	for _, d := range is[:len(is)-1] {
		tuples *= d
	}
	if err := opt.checkSize(op, tensor.Int64, []int{tuples, 2}); err != nil { // the tuple offsets and the indices read
		return nil, 0, err
	}
	if err := opt.charge(op, "index scratch", int64(indices.Len())*8+int64(tuples)*8); err != nil {
		return nil, 0, err
	}
	raw, err := int64sOf(indices)
	if err != nil {
		return nil, 0, op.wrap("indices-type", err, "indices")
	}
	block := product(dataShape[b+k:])
	strides := make([]int, k)
	s := block
	for t := k - 1; t >= 0; t-- {
		strides[t] = s
		s *= dataShape[b+t]
	}
	batchSize := s // elements of data per batch entry
	perBatch := 1
	if b > 0 {
		perBatch = tuples / max(product(is[:b]), 1)
	}
	at := make([]int64, tuples)
	for j := range at {
		off := j / max(perBatch, 1) * batchSize
		if b == 0 {
			off = 0
		}
		for t := range k {
			v, dim := raw[j*k+t], int64(dataShape[b+t])
			if v < -dim || v >= dim {
				return nil, 0, op.errorf("indices", "index %d at tuple %d, coordinate %d, outside [%d, %d)", v, j, t, -dim, dim)
			}
			if v < 0 {
				v += dim
			}
			off += int(v) * strides[t]
		}
		at[j] = int64(off)
	}
	return at, block, nil
}
