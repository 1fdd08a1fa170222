// TopK (1, 10, 11, 24): "Retrieve the top-K largest or smallest elements
// along a specified axis ... -Value tensor of shape [a_0, a_1, ..., a_{axis-1},
// k, a_{axis+1}, ... a_{n-1}] which contains the values of the top k
// elements along the provided axis -Index tensor of shape [...] which
// contains the indices of the top k elements (original indices from the
// input tensor). If "largest" is 1 (the default value) then the k largest
// elements are returned. If "sorted" is 1 (the default value) then the
// resulting k elements will be sorted. If "sorted" is 0, order of returned
// 'Values' and 'Indices' are undefined. Given two equivalent values, this
// operator uses the indices along the axis as a tiebreaker. That is, the
// element with the lower index will appear first." A NaN counts as larger
// than every number, as numpy's sort has it; the output is always sorted.
// k is an attribute in version 1 and a 1-D int64 input of one element from
// 10; largest and sorted come in 11. Types: float16, float, double; every
// integer of 8 to 64 bits from 11; bfloat16 from 24.

package reference

import (
	"sort"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("TopK", []int{1, 10, 11, 24}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "X")
		if err != nil {
			return nil, err
		}
		var k int64
		if n.Version < 10 {
			if !n.Has("k") {
				return nil, op.errorf("k", "attribute k is required")
			}
			if k, err = n.Int("k", 0); err != nil {
				return nil, err
			}
		} else {
			kt, err := requiredInput(op, in, 1, "K")
			if err != nil {
				return nil, err
			}
			if kt.DataType() != tensor.Int64 || kt.Len() != 1 || kt.Rank() > 1 {
				return nil, op.errorf("k", "K must be a 1-D int64 tensor of one element")
			}
			v, _ := int64sOf(kt)
			k = v[0]
		}
		for _, name := range []string{"largest", "sorted"} {
			if n.Version < 11 && n.Has(name) {
				return nil, op.errorf("attribute", "attribute %s is not defined in version %d", name, n.Version)
			}
		}
		a, err := n.Int("axis", -1)
		if err != nil {
			return nil, err
		}
		largest, err := n.Int("largest", 1)
		if err != nil {
			return nil, err
		}
		sorted, err := n.Int("sorted", 1)
		if err != nil {
			return nil, err
		}
		if largest != 0 && largest != 1 {
			return nil, op.errorf("largest", "largest is %d, expected 0 or 1", largest)
		}
		if sorted != 0 && sorted != 1 {
			return nil, op.errorf("sorted", "sorted is %d, expected 0 or 1", sorted)
		}
		switch dt := x.DataType(); {
		case dt == tensor.Float16 || dt == tensor.Float || dt == tensor.Double:
		case dt == tensor.BFloat16 && n.Version >= 24:
		case (dt == tensor.Int8 || dt == tensor.Uint8 || dt == tensor.Int16 || dt == tensor.Uint16 || dt == tensor.Int32 ||
			dt == tensor.Uint32 || dt == tensor.Int64 || dt == tensor.Uint64) && n.Version >= 11:
		default:
			return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, n.Version)
		}
		axis, err := checkAxis(n, a, x.Rank())
		if err != nil {
			return nil, err
		}
		if k < 0 || k > int64(x.Shape()[axis]) {
			return nil, op.errorf("k", "k is %d, outside [0, %d]", k, x.Shape()[axis])
		}
		outShape := append([]int{}, x.Shape()...)
		outShape[axis] = int(k)
		if err := checkSize(opt, op, x.DataType(), outShape); err != nil {
			return nil, err
		}
		if err := checkSize(opt, op, tensor.Int64, outShape); err != nil {
			return nil, err
		}
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		switch computeTypeOf(x.DataType()) {
		case tensor.Float:
			return topK[float32](opt, op, x, axis, int(k), largest == 1)
		case tensor.Double:
			return topK[float64](opt, op, x, axis, int(k), largest == 1)
		case tensor.Int8:
			return topK[int8](opt, op, x, axis, int(k), largest == 1)
		case tensor.Uint8:
			return topK[uint8](opt, op, x, axis, int(k), largest == 1)
		case tensor.Int16:
			return topK[int16](opt, op, x, axis, int(k), largest == 1)
		case tensor.Uint16:
			return topK[uint16](opt, op, x, axis, int(k), largest == 1)
		case tensor.Int32:
			return topK[int32](opt, op, x, axis, int(k), largest == 1)
		case tensor.Uint32:
			return topK[uint32](opt, op, x, axis, int(k), largest == 1)
		case tensor.Int64:
			return topK[int64](opt, op, x, axis, int(k), largest == 1)
		}
		return topK[uint64](opt, op, x, axis, int(k), largest == 1)
	})
}

func topK[A computeNumber](opt *ops.Options, op opRef, x *tensor.Tensor, axis, k int, largest bool) ([]tensor.Value, error) {
	shape := append([]int{}, x.Shape()...)
	shape[axis] = k
	values, err := newTensor(opt, op, x.DataType(), shape)
	if err != nil {
		return nil, err
	}
	indices, err := newTensor(opt, op, tensor.Int64, shape)
	if err != nil {
		return nil, err
	}
	// The slices along axis: slice (o, i) of X holds the elements at
	// (o*d + j)*inner + i for j in [0, d), its output row at (o*k + r)*inner + i.
	d := x.Shape()[axis]
	outer, inner := numElements(x.Shape()[:axis]), numElements(x.Shape()[axis+1:])
	if err := chargeScratch(opt, op, "a slice and its order", d, 16); err != nil {
		return nil, err
	}
	row, order := make([]A, d), make([]int, d)
	before := func(a, b A) bool { // a comes first, NaN above every number
		if largest {
			return (a == a && b == b && a > b) || (a != a && b == b)
		}
		return (a == a && b == b && a < b) || (a == a && b != b)
	}
	stop := newPoll(opt, op)
	for s := range outer * inner {
		if stop.stop(d * 8) {
			return nil, stop.err
		}
		o, i := s/inner, s%inner
		for j := range row {
			row[j] = elementAs[A](x, (o*d+j)*inner+i)
		}
		// The positions along the axis, the first in the output first.
		for j := range order {
			order[j] = j
		}
		sort.SliceStable(order, func(i, j int) bool { return before(row[order[i]], row[order[j]]) })
		for r := range k {
			at := (o*k+r)*inner + i
			setElementAs(values, at, row[order[r]])
			setElementAs(indices, at, int64(order[r]))
		}
	}
	return []tensor.Value{values, indices}, nil
}
