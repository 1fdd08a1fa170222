package reference

// Unique (version 11), after the ONNX specification:
//
//	"Find the unique elements of a tensor. When an optional attribute 'axis'
//	is provided, unique subtensors sliced along the 'axis' are returned.
//	Otherwise the input tensor is flattened and unique values of the
//	flattened tensor are returned. This operator returns the unique values
//	or sliced unique subtensors of the input tensor and three optional
//	outputs. The first output tensor 'Y' contains all unique values or
//	subtensors of the input. The second optional output tensor 'indices'
//	contains indices of 'Y' elements' first occurrence in 'X'. The third
//	optional output tensor 'inverse_indices' contains, for elements of 'X',
//	its corresponding indices in 'Y'. The fourth optional output tensor
//	'counts' contains the count of each element of 'Y' in the input."
//	"sorted: (Optional) Whether to sort the unique elements in ascending
//	order before returning as output. Must be one of 0, or (default) 1."
//
// Values compare as numbers (-0 equals 0; NaNs are all equal and come after
// every number, numpy's equal_nan), strings by bytes, complex numbers by
// real then imaginary part; slices element by element in row-major order.

import (
	"math"
	"strings"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("Unique", []int{11}, unique) }

func unique(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	sorted, err := n.Int("sorted", 1)
	if err != nil {
		return nil, err
	}
	shape, axis := []int{x.Len()}, 0
	if _, ok := n.Attrs["axis"]; ok {
		a, err := n.Int("axis", 0)
		if err != nil {
			return nil, err
		}
		r := int64(x.Rank())
		if a < -r || a >= r {
			return nil, op.errorf("axis", "axis %d", a)
		}
		if a < 0 {
			a += r
		}
		shape, axis = x.Shape(), int(a)
	}
	strides := stridesOf(shape)
	// the elements of unit u, in row-major order of the other dims
	unit := func(u int) []int {
		rest := append(append([]int{}, shape[:axis]...), shape[axis+1:]...)
		var flat []int
		for e := range numElements(rest) {
			pos := unravel(e, rest)
			full := append(append(append([]int{}, pos[:axis]...), u), pos[axis:]...)
			flat = append(flat, ravel(full, strides))
		}
		return flat
	}
	compare := func(a, b int) int {
		ea, eb := unit(a), unit(b)
		for i := range ea {
			if c := compareElements(x, ea[i], eb[i]); c != 0 {
				return c
			}
		}
		return 0
	}
	// the distinct units in order of first occurrence, with counts
	var firsts []int
	var counts []int64
	which := make([]int, shape[axis])
	for u := range shape[axis] {
		found := -1
		for g, f := range firsts {
			if compare(f, u) == 0 {
				found = g
				break
			}
		}
		if found < 0 {
			firsts = append(firsts, u)
			counts = append(counts, 0)
			found = len(firsts) - 1
		}
		counts[found]++
		which[u] = found
	}
	// place[g]: where group g goes in Y (insertion sort when sorted)
	order := make([]int, len(firsts))
	for g := range order {
		order[g] = g
	}
	if sorted != 0 {
		for i := 1; i < len(order); i++ {
			for j := i; j > 0 && compare(firsts[order[j]], firsts[order[j-1]]) < 0; j-- {
				order[j], order[j-1] = order[j-1], order[j]
			}
		}
	}
	place := make([]int, len(firsts))
	for p, g := range order {
		place[g] = p
	}
	yShape := append([]int{}, shape...)
	yShape[axis] = len(firsts)
	y, err := newTensor(opt, op, x.DataType(), yShape)
	if err != nil {
		return nil, err
	}
	for o := range y.Len() {
		pos := unravel(o, yShape)
		pos[axis] = firsts[order[pos[axis]]]
		copyElement(y, o, x, ravel(pos, strides))
	}
	out := values(y)
	lists := [3][]int64{make([]int64, len(firsts)), make([]int64, shape[axis]), make([]int64, len(firsts))}
	for g, f := range firsts {
		lists[0][place[g]] = int64(f)
		lists[2][place[g]] = counts[g]
	}
	for u, g := range which {
		lists[1][u] = int64(place[g])
	}
	for k := 0; k < n.NumOutputs-1 && k < 3; k++ {
		t, err := newTensor(opt, op, tensor.Int64, []int{len(lists[k])})
		if err != nil {
			return nil, err
		}
		for i, v := range lists[k] {
			putInt(t, i, uint64(v))
		}
		out = append(out, t)
	}
	return out, nil
}

// compareElements orders elements i and j of x.
func compareElements(x *tensor.Tensor, i, j int) int {
	switch x.DataType() {
	case tensor.String:
		return strings.Compare(x.Strings()[i], x.Strings()[j])
	case tensor.Complex64, tensor.Complex128:
		half := x.DataType().Size() / 2
		part := func(k, p int) float64 {
			b := x.Bytes()[k*2*half+p*half:]
			if half == 4 {
				return float64(math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24))
			}
			var u uint64
			for q := 7; q >= 0; q-- {
				u = u<<8 | uint64(b[q])
			}
			return math.Float64frombits(u)
		}
		if c := orderNumbers(part(i, 0), part(j, 0)); c != 0 {
			return c
		}
		return orderNumbers(part(i, 1), part(j, 1))
	}
	a, b := exactValue(x, i), exactValue(x, j)
	switch a.kind {
	case 'f':
		return orderNumbers(a.f, b.f)
	case 'u':
		return map[bool]int{true: -1, false: 0}[a.u < b.u] + map[bool]int{true: 1, false: 0}[a.u > b.u]
	}
	return map[bool]int{true: -1, false: 0}[a.i < b.i] + map[bool]int{true: 1, false: 0}[a.i > b.i]
}

// orderNumbers orders floats by value, NaN last and equal to NaN.
func orderNumbers(a, b float64) int {
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
