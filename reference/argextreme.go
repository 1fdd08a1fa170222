package reference

// What ArgMax and ArgMin share: "The output tensor has the same rank as the
// input if keepdims equals 1. If keepdims equals 0, then the resulting
// tensor has the reduced dimension pruned." The types: every integer of 8
// to 64 bits, float16, float, double, and bfloat16 from version 13.
//
// Under SONNX, ArgMax follows the working group's informal specification
// (safety-related-profile/sonnx/ops/spec/informal/argmax/argmax.md in
// onnx/working-groups): [R1]-[R3] axis, keepdims and select_last_index are
// given; axis [C1] "axis >= 0" ([R4]); axis [C2] axis < rank; keepdims
// [C1] and select_last_index [C1] are 0 or 1; X [C2] "The dimension of X
// along axis must be strictly positive" ([R5]); its types exclude
// bfloat16. "If the reduced slice contains one or more NaN values ... if
// select_last_index = 0, the index of the first NaN along the reduced axis
// is returned; if select_last_index = 1, the index of the last NaN", as in
// every profile here.

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// argTypes reports whether version v of ArgMax and ArgMin takes dt.
func argTypes(v int, dt tensor.DataType) bool {
	switch dt {
	case tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.Int8, tensor.Int16, tensor.Int32,
		tensor.Int64, tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.BFloat16:
		return v >= 13
	}
	return false
}

// registerArg registers ArgMax (max) or ArgMin at every version.
func registerArg(name string, max bool) {
	register(name, []int{1, 11, 12, 13}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "data")
		if err != nil {
			return nil, err
		}
		// Under SONNX, ArgMax (argmax.md): [R1]-[R3] no default values.
		profile := max && sonnx(opt)
		if profile {
			for i, name := range []string{"axis", "keepdims", "select_last_index"} {
				if !n.Has(name) {
					return nil, op.errorf(fmt.Sprintf("R%d", i+1), "attribute %s must be given explicitly in the profile", name)
				}
			}
		}
		// ruleOf is a rule's ONNX name, or its id in argmax.md.
		ruleOf := func(onnx, id string) string {
			if profile {
				return id
			}
			return onnx
		}
		a, err := n.Int("axis", 0)
		if err != nil {
			return nil, err
		}
		if n.Version < 12 && n.Has("select_last_index") {
			return nil, op.errorf("attribute", "attribute select_last_index is not defined in version %d", n.Version)
		}
		keepdims, err := n.Int("keepdims", 1)
		if err != nil {
			return nil, err
		}
		if keepdims != 0 && keepdims != 1 {
			return nil, op.errorf(ruleOf("keepdims", "keepdims [C1]"), "keepdims is %d, expected 0 or 1", keepdims)
		}
		last, err := n.Int("select_last_index", 0)
		if err != nil {
			return nil, err
		}
		if last != 0 && last != 1 {
			return nil, op.errorf(ruleOf("select_last_index", "select_last_index [C1]"), "select_last_index is %d, expected 0 or 1", last)
		}
		if !argTypes(n.Version, x.DataType()) {
			return nil, op.errorf("type", "data is %v, which version %d does not accept", x.DataType(), n.Version)
		}
		if profile && x.DataType() == tensor.BFloat16 {
			return nil, op.errorf("TYPES", "X is bfloat16, which the profile does not take")
		}
		if profile && a < 0 { // [R4]
			return nil, op.errorf("axis [C1]", "axis is %d, must be >= 0", a)
		}
		axis, err := checkAxis(n, a, x.Rank())
		if err != nil {
			if profile {
				return nil, op.errorf("axis [C2]", "axis %d is outside the rank %d", a, x.Rank())
			}
			return nil, err
		}
		if x.Shape()[axis] == 0 { // [R5]
			return nil, op.errorf(ruleOf("axis", "X [C2]"), "axis %d has length 0", axis)
		}
		shape := []int{}
		for i, d := range x.Shape() {
			switch {
			case i != axis:
				shape = append(shape, d)
			case keepdims == 1:
				shape = append(shape, 1)
			}
		}
		y, err := newTensor(opt, op, tensor.Int64, shape)
		if err != nil {
			return nil, err
		}
		var index func(g group) int64
		switch computeTypeOf(x.DataType()) {
		case tensor.Float:
			index = argIndex[float32](x, max, last == 1)
		case tensor.Double:
			index = argIndex[float64](x, max, last == 1)
		case tensor.Int8:
			index = argIndex[int8](x, max, last == 1)
		case tensor.Uint8:
			index = argIndex[uint8](x, max, last == 1)
		case tensor.Int16:
			index = argIndex[int16](x, max, last == 1)
		case tensor.Uint16:
			index = argIndex[uint16](x, max, last == 1)
		case tensor.Int32:
			index = argIndex[int32](x, max, last == 1)
		case tensor.Uint32:
			index = argIndex[uint32](x, max, last == 1)
		case tensor.Int64:
			index = argIndex[int64](x, max, last == 1)
		case tensor.Uint64:
			index = argIndex[uint64](x, max, last == 1)
		}
		if err := forEachGroup(opt, op, x.Shape(), axisMarked(x.Rank(), axis), func(o int, g group) {
			setElementAs(y, o, index(g))
		}); err != nil {
			return nil, err
		}
		return values(y), nil
	})
}

// argIndex returns, for a slice g of x, the position of its largest (max)
// or smallest element: the first, or with last the last, of equal ones; a
// NaN counts as beyond every number (numpy's argmax and argmin), the first
// NaN or with last the last one. The slice's elements are read as they
// are compared, never copied.
func argIndex[A computeNumber](x *tensor.Tensor, max, last bool) func(g group) int64 {
	return func(g group) int64 {
		best, b := 0, A(0)
		for j, i := range g.flats() {
			a := elementAs[A](x, i)
			var wins bool
			switch {
			case j == 0:
				wins = true
			case b != b: // a NaN so far: only a later NaN, with last
				wins = last && a != a
			case a != a:
				wins = true
			case max:
				wins = a > b || (last && a == b)
			default:
				wins = a < b || (last && a == b)
			}
			if wins {
				best, b = j, a
			}
		}
		return int64(best)
	}
}
