// ScatterElements writes updates into a copy of data at the positions
// indices give along one axis: for axis 0 of a 2-D tensor,
// output[indices[i][j]][j] = updates[i][j] (or combined with the element
// there by reduction). Scatter (version 9) is the same operator under its
// old name, without reduction.
//
// Versions: ScatterElements 11, 13 (bfloat16), 16 (reduction add, mul), 18
// (max, min); Scatter 9. Any element type; reductions none on strings.
//
// Rules: [axis] axis in [-r, r-1]; [rank] data has rank >= 1;
// [indices-type] int32 or int64; [updates] updates have the shape of
// indices and data's type; [indices-shape] indices have data's rank and no
// dim longer than data's off the axis; [indices] every index in [-d, d-1];
// [reduction] one the version has, and a type it can combine; [size] the
// output fits the size limit. Duplicate indices are applied in order
// (ONNX: undefined without a reduction; the reference evaluator's order).

package ops

import (
	"errors"
	"slices"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ScatterElements", []int{11, 13, 16, 18}, [2]int{3, 3}, [2]int{1, 1}, scatterElementsNode)
	declareAttrs("ScatterElements",
		AttrSpec{Name: "axis", Type: AttrInt},
		AttrSpec{Name: "reduction", Type: AttrString, From: 16})
	register("Scatter", []int{9}, [2]int{3, 3}, [2]int{1, 1}, scatterElementsNode)
	declareAttrs("Scatter", AttrSpec{Name: "axis", Type: AttrInt})
}

// ScatterElementsOptions are the attributes of ScatterElements.
type ScatterElementsOptions struct {
	// Axis is the axis the indices address; negative counts from the end.
	Axis int
	// Reduction is "none" (or empty), "add", "mul", "max" or "min".
	Reduction string
}

// ScatterElements returns a copy of data with updates written (or
// combined) at the positions indices give along o.Axis (ONNX
// ScatterElements, version 18).
func ScatterElements(data, indices, updates *tensor.Tensor, o ScatterElementsOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"ScatterElements", 18}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	red := reduction(o.Reduction)
	if red == "" {
		red = "none"
	}
	return scatterElements(opt, op, data, indices, updates, o.Axis, red)
}

func scatterElementsNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var args [3]*tensor.Tensor
	for i, name := range []string{"data", "indices", "updates"} {
		t, err := n.requiredInput(in, i, name)
		if err != nil {
			return nil, err
		}
		args[i] = t
	}
	axis, err := n.intAttr("axis", 0, "axis")
	if err != nil {
		return nil, err
	}
	red := reduction("none")
	if n.OpType == "ScatterElements" {
		if red, err = reductionAttr(n); err != nil {
			return nil, err
		}
	}
	y, err := scatterElements(opt, n.op(), args[0], args[1], args[2], axis, red)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func scatterElements(opt *Options, op opRef, data, indices, updates *tensor.Tensor, axis int, red reduction) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	a, err := elementsAxis(op, data, axis)
	if err != nil {
		return nil, err
	}
	if !tensor.SameShape(updates.Shape(), indices.Shape()) || updates.DataType() != data.DataType() {
		return nil, op.errorf("updates", "updates must have the shape of indices %v and the type of data %v, got %s", indices.Shape(), data.DataType(), updates.Describe())
	}
	if red == "none" && lastAxisRows(data, indices, a) {
		y, err := opt.newOverwritten(op, data.DataType(), data.Shape())
		if err != nil {
			return nil, err
		}
		if err := scatterLast(opt, op, y, data, indices, updates); err != nil {
			return nil, err
		}
		return y, nil
	}
	at, err := alongAxisTargets(opt, op, data, indices, a)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, data.DataType(), data.Shape())
	if err != nil {
		return nil, err
	}
	copyTensor(y, data)
	if err := scatterBlocks(op, y, at, updates, 1, red); err != nil {
		return nil, err
	}
	return y, nil
}

// lastAxisRows reports whether a scatter along axis can go row by row
// along the last axis: axis is the last, the indices have data's shape but
// for it, and the elements are of 1, 2, 4 or 8 bytes.
func lastAxisRows(data, indices *tensor.Tensor, axis int) bool {
	ds, is := data.Shape(), indices.Shape()
	if axis != len(ds)-1 || len(is) != len(ds) || !slices.Equal(ds[:axis], is[:axis]) || data.DataType() == tensor.String {
		return false
	}
	if dt := indices.DataType(); dt != tensor.Int32 && dt != tensor.Int64 {
		return false
	}
	switch data.DataType().Size() {
	case 1, 2, 4, 8:
		return data.DataType().Bits() == 8*data.DataType().Size()
	}
	return false
}

// scatterLast is ScatterElements without reduction along the last axis
// (lastAxisRows), the indices read in place: y = data with y[..., idx[...,
// j]] = updates[..., j], row by row, each row's updates in order. A row is
// copied from data and scattered into while it is in L1 (a whole copy
// first, then the scatter, moved y through memory twice), and rows go
// across the cores: a row's updates touch that row alone, so the order
// that decides between two updates of one element is kept. A bad index
// stops the rows and one ordered pass then names the first, as the serial
// loop did.
func scatterLast(opt *Options, op opRef, y, data, indices, updates *tensor.Tensor) error {
	var err error
	switch y.DataType().Size() {
	case 1:
		err = scatterLastAs[byte](opt, y, data, indices, updates)
	case 2:
		err = scatterLastAs[uint16](opt, y, data, indices, updates)
	case 4:
		err = scatterLastAs[uint32](opt, y, data, indices, updates)
	default:
		err = scatterLastAs[uint64](opt, y, data, indices, updates)
	}
	switch {
	case errors.Is(err, errScatterIndex):
		if indices.DataType() == tensor.Int32 {
			return firstBadIndex(op, asElems[int32](indices.Bytes()), y.Shape(), indices.Shape())
		}
		return firstBadIndex(op, asElems[int64](indices.Bytes()), y.Shape(), indices.Shape())
	case err != nil:
		return op.wrap("cancelled", err, "run stopped")
	}
	return nil
}

var errScatterIndex = errors.New("an index out of range")

func scatterLastAs[E any](opt *Options, y, data, indices, updates *tensor.Tensor) error {
	d, x, u := asElems[E](y.Bytes()), asElems[E](data.Bytes()), asElems[E](updates.Bytes())
	if indices.DataType() == tensor.Int32 {
		return scatterRowsLast(opt, d, x, asElems[int32](indices.Bytes()), u, y.Shape(), indices.Shape())
	}
	return scatterRowsLast(opt, d, x, asElems[int64](indices.Bytes()), u, y.Shape(), indices.Shape())
}

func scatterRowsLast[E any, I int32 | int64](opt *Options, d, x []E, idx []I, u []E, ds, is []int) error {
	dim, w := ds[len(ds)-1], is[len(is)-1]
	if len(d) == 0 {
		// Data's leading dims are the indices' (lastAxisRows), so indices
		// hold elements here only when the last axis is empty: each of
		// them lies outside [0, 0).
		if len(idx) > 0 {
			return errScatterIndex
		}
		return nil
	}
	rows := len(d) / dim
	work := len(d) + len(idx)
	if serial, err := alone(opt, rows, work); serial {
		if err != nil {
			return err
		}
		return scatterRowsRange(d, x, idx, u, dim, w, 0, rows)
	}
	return parallelRange(opt, rows, work, func(lo, hi int) error {
		return scatterRowsRange(d, x, idx, u, dim, w, lo, hi)
	})
}

// scatterRowsRange copies rows [lo, hi) of x into d and writes their
// updates, or reports errScatterIndex at an index outside [-dim, dim).
func scatterRowsRange[E any, I int32 | int64](d, x []E, idx []I, u []E, dim, w, lo, hi int) error {
	for r := lo; r < hi; r++ {
		row := d[r*dim : (r+1)*dim]
		copy(row, x[r*dim:(r+1)*dim])
		ir, ur := idx[r*w:(r+1)*w], u[r*w:(r+1)*w]
		ur = ur[:len(ir)]
		for j, x := range ir {
			k := int64(x)
			if k < 0 {
				k += int64(dim)
			}
			if uint64(k) >= uint64(dim) {
				return errScatterIndex
			}
			row[k] = ur[j]
		}
	}
	return nil
}

// firstBadIndex reports the first index outside [-dim, dim) for the last
// axis of data's shape ds.
func firstBadIndex[I int32 | int64](op opRef, idx []I, ds, is []int) error {
	dim := ds[len(ds)-1]
	for i, x := range idx {
		if k := int64(x); k < -int64(dim) || k >= int64(dim) {
			return op.errorf("indices", "indices holds %d at position %d, outside [%d, %d)", x, i, -dim, dim)
		}
	}
	return op.errorf("indices", "an index lies outside [%d, %d)", -dim, dim)
}

// copyTensor copies the elements of src into dst, of the same type and size.
func copyTensor(dst, src *tensor.Tensor) {
	if src.DataType() == tensor.String {
		copy(dst.Strings(), src.Strings())
		return
	}
	movement.CopyBytes(dst.Bytes(), src.Bytes())
}

// The scatter operators' shared write: ScatterElements, ScatterND and
// Scatter put updates into a copy of data, replacing (reduction none: in
// order, so that of two updates of one element the last wins, as the
// reference evaluator) or combining with add, mul, max or min, as numpy's
// np.add, np.multiply, np.maximum and np.minimum do: integers wrap, NaN
// propagates through max and min, bool adds as or and multiplies as and,
// float16, bfloat16 and the float 8 types compute in float32 and round to
// their type after every update.

// reduction is a scatter's reduction attribute.
type reduction string

// reductionAttr reads attribute reduction where version since has it:
// add and mul from 16, max and min from 18.
func reductionAttr(n *Node) (reduction, error) {
	if n.Version < 16 {
		return "none", nil
	}
	r, err := n.Str("reduction", "none")
	if err != nil {
		return "", err
	}
	switch {
	case r == "none" || r == "add" || r == "mul":
	case (r == "max" || r == "min") && n.Version >= 18:
	default:
		return "", n.op().errorf("reduction", "reduction %q is not one of version %d's", r, n.Version)
	}
	return reduction(r), nil
}

// scatterBlocks sets y[at[i]+k] (op)= src[i*block+k] for every i in order
// and k < block. y is a copy of data; at holds element offsets.
func scatterBlocks(op opRef, y *tensor.Tensor, at []int64, src *tensor.Tensor, block int, red reduction) error {
	if red == "none" {
		if y.DataType() == tensor.String {
			d, s := y.Strings(), src.Strings()
			for i, a := range at {
				copy(d[a:int(a)+block], s[i*block:(i+1)*block])
			}
			return nil
		}
		size := y.DataType().Size()
		d, s := y.Bytes(), src.Bytes()
		if block == 1 {
			// One element an index (ScatterElements, Scatter): an
			// assignment, not a copy call, per element.
			switch size {
			case 1:
				assignAt(d, at, s)
				return nil
			case 2:
				assignAt(asElems[uint16](d), at, asElems[uint16](s))
				return nil
			case 4:
				assignAt(asElems[uint32](d), at, asElems[uint32](s))
				return nil
			case 8:
				assignAt(asElems[uint64](d), at, asElems[uint64](s))
				return nil
			}
		}
		for i, a := range at {
			copy(d[int(a)*size:(int(a)+block)*size], s[i*block*size:(i+1)*block*size])
		}
		return nil
	}
	b, s := y.Bytes(), src.Bytes()
	switch dt := y.DataType(); dt {
	case tensor.Float:
		combineBlocks(asElems[float32](b), at, asElems[float32](s), block, floatCombine[float32](red))
	case tensor.Double:
		combineBlocks(asElems[float64](b), at, asElems[float64](s), block, floatCombine[float64](red))
	case tensor.Int8:
		combineBlocks(asElems[int8](b), at, asElems[int8](s), block, intCombine[int8](red))
	case tensor.Uint8:
		combineBlocks(b, at, s, block, intCombine[uint8](red))
	case tensor.Int16:
		combineBlocks(asElems[int16](b), at, asElems[int16](s), block, intCombine[int16](red))
	case tensor.Uint16:
		combineBlocks(asElems[uint16](b), at, asElems[uint16](s), block, intCombine[uint16](red))
	case tensor.Int32:
		combineBlocks(asElems[int32](b), at, asElems[int32](s), block, intCombine[int32](red))
	case tensor.Uint32:
		combineBlocks(asElems[uint32](b), at, asElems[uint32](s), block, intCombine[uint32](red))
	case tensor.Int64:
		combineBlocks(asElems[int64](b), at, asElems[int64](s), block, intCombine[int64](red))
	case tensor.Uint64:
		combineBlocks(asElems[uint64](b), at, asElems[uint64](s), block, intCombine[uint64](red))
	case tensor.Bool:
		and := red == "mul" || red == "min"
		combineBlocks(b, at, s, block, func(x, u byte) byte {
			if and {
				return x & u
			}
			return x | u
		})
	case tensor.String, tensor.Complex64, tensor.Complex128:
		return op.errorf("reduction", "reduction %s cannot combine %v", red, dt)
	default:
		if dt.IsInteger() { // int4, uint4, int2, uint2: wrap to the type's bits
			f := intCombine[int64](red)
			combineBlocks(b, at, s, block, func(x, u byte) byte {
				if dt.IsSigned() {
					return narrowSubByte(dt, f(int64(int8(x)), int64(int8(u))))
				}
				return narrowSubByte(dt, f(int64(x), int64(u)))
			})
			return nil
		}
		return scatterRounded(y, at, src, block, red)
	}
	return nil
}

// assignAt sets d[at[i]] = s[i] for every i in order (of two updates of
// one element, the last wins).
func assignAt[E any](d []E, at []int64, s []E) {
	s = s[:len(at)]
	for i, a := range at {
		d[a] = s[i]
	}
}

// narrowSubByte keeps the low bits of x as a value of the 4-bit or 2-bit
// integer type dt.
func narrowSubByte(dt tensor.DataType, x int64) byte {
	shift := 8 - dt.Bits()
	if dt.IsSigned() {
		return byte(int8(byte(x)<<shift) >> shift)
	}
	return byte(x) & (byte(1)<<dt.Bits() - 1)
}

func combineBlocks[E any](d []E, at []int64, s []E, block int, f func(E, E) E) {
	for i, a := range at {
		dst := d[a : int(a)+block]
		for k, u := range s[i*block : (i+1)*block] {
			dst[k] = f(dst[k], u)
		}
	}
}

type scatterNumber interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

func intCombine[E scatterNumber](red reduction) func(E, E) E {
	switch red {
	case "add":
		return func(x, u E) E { return x + u }
	case "mul":
		return func(x, u E) E { return x * u }
	case "max":
		return func(x, u E) E { return max(x, u) }
	}
	return func(x, u E) E { return min(x, u) }
}

// floatCombine is intCombine with NaN propagating through max and min, and
// of two equal values (-0 and +0) the element already there kept, as
// np.maximum and np.minimum return their first argument then.
func floatCombine[E float32 | float64](red reduction) func(E, E) E {
	switch red {
	case "add":
		return func(x, u E) E { return x + u }
	case "mul":
		return func(x, u E) E { return x * u }
	case "max":
		return func(x, u E) E {
			if x != x || x >= u {
				return x
			}
			return u
		}
	}
	return func(x, u E) E {
		if x != x || x <= u {
			return x
		}
		return u
	}
}

// scatterRounded combines float16, bfloat16 and the float 8 types in
// float32, rounding to the type after every update.
func scatterRounded(y *tensor.Tensor, at []int64, src *tensor.Tensor, block int, red reduction) error {
	f := floatCombine[float32](red)
	one := tensor.MustNew(y.DataType(), 1)
	var v [1]float64
	get := func(t *tensor.Tensor, i int) float32 {
		convert.DecodeFloats(v[:], t, i)
		return float32(v[0])
	}
	size := y.DataType().Size()
	for i, a := range at {
		for k := range block {
			r := f(get(y, int(a)+k), get(src, i*block+k))
			convert.EncodeFloats(one, 0, []float64{float64(r)}, convert.DefaultCast)
			copy(y.Bytes()[(int(a)+k)*size:], one.Bytes())
		}
	}
	return nil
}
