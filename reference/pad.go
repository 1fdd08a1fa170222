// Pad (ONNX Pad 1, 2, 11, 13, 18, 19, 21, 23, 24, 25): the input grown (or,
// with negative pads, cropped) on each axis, the new elements filled as the
// mode says. 1 takes the pads as attribute paddings and the value as a
// float attribute; 2 calls the attribute pads; 11 on takes pads (int64) and
// the optional constant_value as inputs; 13 adds bfloat16, string, bool;
// 18 adds the optional axes input; 19 adds mode wrap; the later versions
// widen the element types. Output index o of an axis with begin pad b reads
// interior element t = o - b of the cropped input (n elements), or:
//
//	constant  the value (0, "" or false when not given)
//	edge      element clamp(t, 0, n-1)
//	reflect   the mirror image about the first and last elements
//	          (period 2(n-1); n = 1 repeats the element)
//	wrap      element t mod n
//
// as numpy.pad does, whatever the length of the pads. The rules, in order:
//
//	[constant_value] a scalar (or one-element tensor) of the data's type
//	[mode]  one of the modes of the version
//	[pads]  2*r integers (2*len(axes) with axes): all begins, then all ends
//	[axes]  each in [-r, r-1], none repeated after normalisation
//	[pads]  every output dimension d + begin + end is >= 0
//	[mode]  edge, reflect and wrap refuse to pad an axis left empty
//
// Under SONNX, mode and (in constant mode) the value are given (GR4).
//
// The working group's informal specification: onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/pad/pad.md.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Pad", []int{1, 2, 11, 13, 18, 19, 21, 23, 24, 25}, pad)
}

func pad(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "data")
	if err != nil {
		return nil, err
	}
	if sonnx(opt) && !n.Has("mode") {
		return nil, op.errorf("GR4", "attribute mode must be given explicitly in the profile")
	}
	mode, err := n.Str("mode", "constant")
	if err != nil {
		return nil, err
	}
	var pads, axes []int
	var value *tensor.Tensor
	if op.version < 11 {
		name := "pads"
		if op.version == 1 {
			name = "paddings"
		}
		var ok bool
		if pads, ok, err = intsAttr(n, name, "pads"); err != nil {
			return nil, err
		} else if !ok {
			return nil, op.errorf("pads", "attribute %s is required", name)
		}
		if n.Has("value") {
			v, err := n.Float("value", 0)
			if err != nil {
				return nil, err
			}
			if value, err = tensor.New(x.DataType(), 1); err == nil {
				err = storeFloat(value, 0, float64(v))
			}
			if err != nil {
				return nil, op.wrap("constant_value", err, "value %v for data of type %v", v, x.DataType())
			}
		}
	} else {
		if pads, _, err = intListInput(opt, op, in, 1, "pads", "pads", true); err != nil {
			return nil, err
		}
		if value, err = optionalInput(op, in, 2); err != nil {
			return nil, err
		}
		if op.version >= 18 {
			a, err := optionalInput(op, in, 3)
			if err != nil {
				return nil, err
			}
			if a != nil {
				if a.Rank() > 1 || (sonnx(opt) && a.Rank() != 1) {
					return nil, op.errorf("axes", "axes must be a 1-D tensor, got shape %v", a.Shape())
				}
				a64, err := int64sOf(a)
				if err != nil {
					return nil, op.wrap("axes", err, "axes")
				}
				if axes, err = toInts(a64); err != nil {
					return nil, op.errorf("axes", "%v", err)
				}
			}
		}
	}
	if sonnx(opt) && mode == "constant" && value == nil {
		return nil, op.errorf("GR4", "the constant value must be given explicitly in the profile")
	}
	if err := positiveDims(opt, op, "input data", x.Shape()); err != nil { // [DIMS]
		return nil, err
	}
	// [constant_value]
	if value != nil && mode == "constant" {
		if value.DataType() != x.DataType() {
			return nil, op.errorf("constant_value", "constant_value is %v, data is %v", value.DataType(), x.DataType())
		}
		if value.Len() != 1 || value.Rank() > 1 {
			return nil, op.errorf("constant_value", "constant_value must be a scalar, got shape %v", value.Shape())
		}
	}
	// [mode]
	switch {
	case mode == "constant" || mode == "edge" || mode == "reflect":
	case mode == "wrap" && op.version >= 19:
	default:
		modes := "constant, reflect or edge"
		if op.version >= 19 {
			modes = "constant, reflect, edge or wrap"
		}
		return nil, op.errorf("mode", "unknown mode %q (want %s)", mode, modes)
	}
	r := x.Rank()
	begin, end := make([]int, r), make([]int, r)
	if axes == nil { // [pads]
		if len(pads) != 2*r {
			return nil, op.errorf("pads", "pads has %d values, expected 2*rank = %d", len(pads), 2*r)
		}
		copy(begin, pads[:r])
		copy(end, pads[r:])
	} else {
		if len(pads) != 2*len(axes) {
			return nil, op.errorf("pads", "pads has %d values, expected 2*len(axes) = %d", len(pads), 2*len(axes))
		}
		norm, err := normalizeAxes(op, axes, r, false, "axes", "axes", "input") // [axes]
		if err != nil {
			return nil, err
		}
		for i, k := range norm {
			begin[k], end[k] = pads[i], pads[len(axes)+i]
		}
	}
	dY := make([]int, r)
	first, kept := make([]int, r), make([]int, r) // the cropped input: [first, first+kept)
	for k, d := range x.Shape() {
		out, ok := addInts(d, begin[k])
		if ok {
			out, ok = addInts(out, end[k])
		}
		if !ok || out < 0 { // [pads]
			return nil, op.errorf("pads", "axis %d of length %d padded by %d and %d would have a negative or impossible length", k, d, begin[k], end[k])
		}
		first[k] = max(0, -begin[k])
		kept[k] = max(0, min(d, d+end[k])-first[k])
		if kept[k] == 0 && out > 0 && mode != "constant" { // [mode]
			return nil, op.errorf("mode", "%s mode cannot pad axis %d: no element is left on it to read", mode, k)
		}
		dY[k] = out
	}
	if err := positiveDims(opt, op, "output", dY); err != nil { // [DIMS]
		return nil, err
	}
	y, err := newTensor(opt, op, x.DataType(), dY)
	if err != nil {
		return nil, err
	}
	if value == nil || mode != "constant" {
		value, _ = tensor.New(x.DataType(), 1) // zero, "" or false
	}
	xStrides := stridesOf(x.Shape())
	i := make([]int, r)
	if err := forEachIndexPolled(opt, opOf(n), dY, 1, func(flat int, o []int) {
		for k := range o {
			t := o[k] - max(0, begin[k]) // the position relative to the interior
			if kept[k] == 0 {
				t = -1
			}
			t = padSource(mode, t, kept[k])
			if t < 0 {
				copyElement(y, flat, value, 0)
				return
			}
			i[k] = first[k] + t
		}
		copyElement(y, flat, x, ravel(i, xStrides))
	}); err != nil {
		return nil, err
	}
	return values(y), nil
}

// padSource returns the interior element (of n) that position t relative
// to the interior reads under mode, or -1 where constant mode fills.
func padSource(mode string, t, n int) int {
	if t >= 0 && t < n {
		return t
	}
	switch mode {
	case "edge":
		return min(max(t, 0), n-1)
	case "wrap":
		return ((t % n) + n) % n
	case "reflect":
		if n == 1 {
			return 0
		}
		period := 2 * (n - 1)
		m := ((t % period) + period) % period
		if m >= n {
			m = period - m
		}
		return m
	}
	return -1
}

// addInts returns a+b; ok is false when the sum overflows int.
func addInts(a, b int) (int, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}
