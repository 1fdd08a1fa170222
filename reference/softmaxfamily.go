package reference

// What Softmax, LogSoftmax and Hardmax share. Versions 1 and 11: "The input
// does not need to explicitly be a 2D vector; rather, it will be coerced
// into one ... [a_0 * ... * a_{k-1}, a_k * ... * a_{n-1}]" where k is axis
// (default 1): the operator works on rows of everything from axis on.
// Version 13: the operator works along axis (default -1). Types: float16,
// float, double, and bfloat16 from 13; float16 and bfloat16 in float32.
//
// Under SONNX (softmax.md, Softmax version 13): TYPES, no bfloat16; axis
// [C1] axis >= 0 ([R1], transient); axis [C2] axis < r.

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// registerSoftmaxFamily registers an operator of the family: f32 and f64
// map one slice to its result.
func registerSoftmaxFamily(name string, f32 func([]float32, bool) []float32, f64 func([]float64, bool) []float64) {
	register(name, []int{1, 11, 13}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "input")
		if err != nil {
			return nil, err
		}
		def := int64(-1)
		if n.Version < 13 {
			def = 1
		}
		a, err := n.Int("axis", def)
		if err != nil {
			return nil, err
		}
		// Under SONNX, Softmax follows softmax.md of the working group.
		profile := name == "Softmax" && sonnx(opt)
		if profile && x.DataType() == tensor.BFloat16 {
			return nil, op.errorf("TYPES", "input is bfloat16, which the profile does not take")
		}
		switch dt := x.DataType(); {
		case dt == tensor.Float16 || dt == tensor.Float || dt == tensor.Double:
		case dt == tensor.BFloat16 && n.Version >= 13:
		default:
			return nil, op.errorf("type", "input is %v, which version %d does not accept", dt, n.Version)
		}
		if profile && a < 0 { // [R1]
			return nil, op.errorf("axis [C1]", "axis is %d, must be >= 0", a)
		}
		axis, err := checkAxis(n, a, x.Rank())
		if err != nil {
			if profile {
				return nil, op.errorf("axis [C2]", "axis %d is outside the rank %d", a, x.Rank())
			}
			return nil, err
		}
		if err := checkSize(opt, op, x.DataType(), x.Shape()); err != nil {
			return nil, err
		}
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		var slices [][]int
		if n.Version >= 13 {
			slices = axisSlices(x.Shape(), axis)
		} else {
			rows, cols := numElements(x.Shape()[:axis]), numElements(x.Shape()[axis:])
			for r := range rows {
				row := make([]int, cols)
				for c := range row {
					row[c] = r*cols + c
				}
				slices = append(slices, row)
			}
		}
		if x.DataType() == tensor.Double {
			return []tensor.Value{mapSlices(x, slices, func(v []float64) []float64 { return f64(v, profile) })}, nil
		}
		return []tensor.Value{mapSlices(x, slices, func(v []float32) []float32 { return f32(v, profile) })}, nil
	})
}

// mapSlices returns x with each slice replaced by f of it.
func mapSlices[A computeNumber](x *tensor.Tensor, slices [][]int, f func([]A) []A) *tensor.Tensor {
	v := computeElements[A](x)
	out := make([]A, len(v))
	for _, s := range slices {
		vals := make([]A, len(s))
		for j, i := range s {
			vals[j] = v[i]
		}
		for j, y := range f(vals) {
			out[s[j]] = y
		}
	}
	return computeTensor(x.DataType(), x.Shape(), out)
}

// sliceMax is the largest element of a slice (the first NaN if any: a NaN
// propagates, as numpy's max does).
func sliceMax[A computeNumber](v []A) A {
	return reduceMax(v)
}
