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
	"iter"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// registerSoftmaxFamily registers an operator of the family: f32 and f64
// read one slice (more than once if they need) and return the function
// that maps its k-th element x to the output's.
func registerSoftmaxFamily(name string, f32 sliceMap[float32], f64 sliceMap[float64]) {
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
		y, err := newTensor(opt, op, x.DataType(), x.Shape())
		if err != nil {
			return nil, err
		}
		// The slices: along axis from 13, rows of everything from axis on before.
		reduced := axisMarked(x.Rank(), axis)
		if n.Version < 13 {
			for i := axis; i < x.Rank(); i++ {
				reduced[i] = true
			}
		}
		if x.DataType() == tensor.Double {
			err = mapSlices(opt, op, x, y, reduced, func(v iter.Seq[float64]) func(int, float64) float64 { return f64(v, profile) })
		} else {
			err = mapSlices(opt, op, x, y, reduced, func(v iter.Seq[float32]) func(int, float32) float32 { return f32(v, profile) })
		}
		if err != nil {
			return nil, err
		}
		return values(y), nil
	})
}

// A sliceMap reads the elements of one slice and returns the function that
// maps its k-th element x to the output's; sonnx is set under the profile.
type sliceMap[A float32 | float64] func(v iter.Seq[A], sonnx bool) func(k int, x A) A

// mapSlices sets the elements of each slice of y (the groups that reduced
// marks) to f of the same slice of x, element by element.
func mapSlices[A computeNumber](opt *ops.Options, op opRef, x, y *tensor.Tensor, reduced []bool, f func(iter.Seq[A]) func(int, A) A) error {
	return forEachGroup(opt, op, x.Shape(), reduced, func(_ int, g group) {
		m := f(groupValues[A](x, g))
		for k, i := range g.flats() {
			setElementAs(y, i, m(k, elementAs[A](x, i)))
		}
	})
}

// mapGathered is mapSlices for an f that needs a slice's elements at once:
// each slice is gathered in turn into one buffer, and f writes its result
// into another, both charged before the first.
func mapGathered[A computeNumber](opt *ops.Options, op opRef, x, y *tensor.Tensor, reduced []bool, f func(v, out []A)) error {
	n := 1
	for i, d := range x.Shape() {
		if reduced[i] {
			n *= d
		}
	}
	if err := chargeScratch(opt, op, "the gathered slice, its result and positions", n, 2*computeTypeOf(x.DataType()).Size()+8); err != nil {
		return err
	}
	vals, out, flats := make([]A, n), make([]A, n), make([]int, n)
	return forEachGroup(opt, op, x.Shape(), reduced, func(_ int, g group) {
		for k, i := range g.flats() {
			vals[k], flats[k] = elementAs[A](x, i), i
		}
		f(vals, out)
		for k, v := range out {
			setElementAs(y, flats[k], v)
		}
	})
}

// sliceMax is the largest element of a slice (the first NaN if any: a NaN
// propagates, as numpy's max does).
func sliceMax[A computeNumber](v iter.Seq[A]) A {
	return reduceMax(v)
}
