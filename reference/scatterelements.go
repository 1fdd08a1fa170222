package reference

// ScatterElements (versions 11, 13, 16, 18) and Scatter (9), after the ONNX
// specification:
//
//	output[indices[i][j]][j] = updates[i][j] if axis = 0,
//	output[i][indices[i][j]] = updates[i][j] if axis = 1,
//	"reduction: Type of reduction to apply: none (default), add, mul, max,
//	min. 'none': no reduction applied. 'add': reduction using the addition
//	operation. 'mul': reduction using the multiplication operation.'max':
//	reduction using the maximum operation.'min': reduction using the minimum
//	operation."
//	"When reduction is set to "none", indices should not have duplicate
//	entries" (undefined otherwise; applied in order here, as the reference
//	evaluator does).

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ScatterElements", []int{11, 13, 16, 18}, scatterElements)
	register("Scatter", []int{9}, scatterElements)
}

func scatterElements(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	var args [3]*tensor.Tensor
	var err error
	for i, name := range []string{"data", "indices", "updates"} {
		if args[i], err = requiredInput(opOf(n), in, i, name); err != nil {
			return nil, err
		}
	}
	data, indices, updates := args[0], args[1], args[2]
	red := "none"
	if n.OpType == "ScatterElements" {
		if red, err = readReduction(n); err != nil {
			return nil, err
		}
	}
	if data.Rank() >= 1 {
		if axis, e := n.Int("axis", 0); e == nil && axis >= -int64(data.Rank()) && axis < int64(data.Rank()) &&
			(!tensor.SameShape(updates.Shape(), indices.Shape()) || updates.DataType() != data.DataType()) {
			return nil, opOf(n).errorf("updates", "updates must match indices' shape and data's type")
		}
	}
	if err := chargeIndices(opt, opOf(n), indices); err != nil {
		return nil, err
	}
	axis, idx, err := alongAxis(n, data, indices)
	if err != nil {
		return nil, err
	}
	if err := checkReducible(n, data.DataType(), red); err != nil {
		return nil, err
	}
	out, err := newTensor(opt, opOf(n), data.DataType(), data.Shape())
	if err != nil {
		return nil, err
	}
	for i := range data.Len() {
		copyElement(out, i, data, i)
	}
	strides := stridesOf(data.Shape())
	for u := range updates.Len() {
		pos := unravel(u, indices.Shape())
		pos[axis] = int(idx[u])
		if err := scatterOne(n, out, ravel(pos, strides), updates, u, red); err != nil {
			return nil, err
		}
	}
	return []tensor.Value{out}, nil
}

// readReduction reads attribute reduction: add and mul from version 16,
// max and min from 18.
func readReduction(n *ops.Node) (string, error) {
	if n.Version < 16 {
		return "none", nil
	}
	red, err := n.Str("reduction", "none")
	if err != nil {
		return "", err
	}
	ok := red == "none" || red == "add" || red == "mul" || ((red == "max" || red == "min") && n.Version >= 18)
	if !ok {
		return "", opOf(n).errorf("reduction", "reduction %q", red)
	}
	return red, nil
}

// scatterOne sets element o of out to element u of updates, or to the
// two combined by red, as numpy's np.add, np.multiply, np.maximum and
// np.minimum: integers wrap to their type, bool adds as or and multiplies as
// and, NaN propagates through max and min (of equal values the first is
// kept), float16, bfloat16 and the float 8 types compute in float32 and
// round to their type.
// checkReducible refuses a reduction of strings or complex numbers, which
// have no add, mul, max or min.
func checkReducible(n *ops.Node, dt tensor.DataType, red string) error {
	if red != "none" && (dt == tensor.String || dt == tensor.Complex64 || dt == tensor.Complex128) {
		return opOf(n).errorf("reduction", "reduction %s of %v", red, dt)
	}
	return nil
}

func scatterOne(n *ops.Node, out *tensor.Tensor, o int, updates *tensor.Tensor, u int, red string) error {
	if red == "none" {
		copyElement(out, o, updates, u)
		return nil
	}
	dt := out.DataType()
	a, b := exactValue(out, o), exactValue(updates, u)
	var r number
	switch {
	case dt == tensor.Bool:
		x, y := a.i != 0, b.i != 0
		if red == "add" || red == "max" {
			r = number{kind: 'i', i: map[bool]int64{true: 1, false: 0}[x || y]}
		} else {
			r = number{kind: 'i', i: map[bool]int64{true: 1, false: 0}[x && y]}
		}
	case dt.IsInteger():
		x, y := a.i, b.i
		ux, uy := uint64(a.i), uint64(b.i)
		if a.kind == 'u' {
			ux, uy = a.u, b.u
		}
		switch red {
		case "add":
			r = number{kind: 'u', u: ux + uy}
		case "mul":
			r = number{kind: 'u', u: ux * uy}
		case "max", "min":
			firstBigger := x > y
			if a.kind == 'u' {
				firstBigger = ux > uy
			}
			keepFirst := firstBigger == (red == "max") || (ux == uy)
			r = b
			if keepFirst {
				r = a
			}
		}
	default:
		x, y := a.f, b.f
		var v float64
		if dt == tensor.Double {
			v = floatOp(red, x, y)
		} else {
			v = float64(float32(floatOp(red, float64(float32(x)), float64(float32(y)))))
		}
		r = number{kind: 'f', f: v}
	}
	if r.kind == 'u' {
		putInt(out, o, r.u)
		return nil
	}
	if r.kind == 'i' && dt != tensor.Bool {
		putInt(out, o, uint64(r.i))
		return nil
	}
	storeValue(out, out, o, r, castAttrs{saturate: true, roundMode: "up"})
	return nil
}

// floatOp applies red to two floats (float32 operands give a float32
// result when both are float32 values: one operation, one rounding).
func floatOp(red string, x, y float64) float64 {
	switch red {
	case "add":
		return x + y
	case "mul":
		return x * y
	case "max":
		if x != x || x >= y {
			return x
		}
		return y
	}
	if x != x || x <= y {
		return x
	}
	return y
}
