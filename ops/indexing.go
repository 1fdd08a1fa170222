package ops

import (
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
	v, err := t.Int64s()
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
		copyBytes(d[r*size:(r+1)*size], s[f*size:(f+1)*size])
	}
}
