package reference

// Optional (15), OptionalHasElement (15, 18) and OptionalGetElement (15,
// 18), after the ONNX specification:
//
//	Optional: "Constructs an optional-type value containing either an empty
//	optional of a certain type specified by the attribute, or a non-empty
//	value containing the input element."
//	OptionalHasElement: "Returns true if (1) the input is an optional-type
//	and contains an element, or, (2) the input is a tensor or sequence type.
//	If the input is not provided or is an empty optional-type, this op
//	returns false." (version 18; version 15 takes an optional only)
//	OptionalGetElement: "If the input is a tensor or sequence type, it
//	returns the input. If the input is an optional type, it outputs the
//	element in the input. It is an error if the input is an empty optional
//	type (i.e. does not have an element) and the behavior is undefined in
//	this case." (version 18; version 15 takes an optional only)

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Optional", []int{15}, optional)
	register("OptionalHasElement", []int{15, 18}, optionalHasElement)
	register("OptionalGetElement", []int{15, 18}, optionalGetElement)
}

func optional(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	if len(in) > 0 && in[0] != nil {
		var held tensor.Value
		switch v := in[0].(type) {
		case *tensor.Tensor:
			c, err := copyAs(opt, op, v, v.Shape())
			if err != nil {
				return nil, err
			}
			held = c
		case *tensor.Sequence:
			c, err := copySequence(opt, op, v)
			if err != nil {
				return nil, err
			}
			held = c
		default:
			return nil, op.errorf("input", "an optional holds a tensor or a sequence")
		}
		return []tensor.Value{&tensor.Optional{Value: held}}, nil
	}
	a, ok := n.Attrs["type"]
	if ok && a.Type != ops.AttrTypeProto {
		return nil, op.errorf("attribute", "attribute type is of type %v, expected %v", a.Type, ops.AttrTypeProto)
	}
	if !ok {
		return nil, op.errorf("input", "no input and no type")
	}
	return []tensor.Value{&tensor.Optional{ElemType: a.String}}, nil
}

func optionalHasElement(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	var v tensor.Value
	if len(in) > 0 {
		v = in[0]
	}
	o, isOptional := v.(*tensor.Optional)
	if n.Version < 18 && !isOptional {
		return nil, opOf(n).errorf("input", "version %d takes an optional", n.Version)
	}
	has := false
	switch {
	case v == nil:
	case isOptional:
		has = o.Value != nil
	default:
		has = true
	}
	return values(tensor.Scalar(has)), nil
}

func optionalGetElement(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	if len(in) == 0 || in[0] == nil {
		return nil, op.errorf("input", "required input input (#0) is missing")
	}
	v := in[0]
	if o, isOptional := v.(*tensor.Optional); isOptional {
		if o.Value == nil {
			return nil, op.errorf("empty", "the optional is empty")
		}
		v = o.Value
	} else if n.Version < 18 {
		return nil, op.errorf("input", "version %d takes an optional", n.Version)
	}
	switch x := v.(type) {
	case *tensor.Tensor:
		c, err := copyAs(opt, op, x, x.Shape())
		return values(c), err
	case *tensor.Sequence:
		c, err := copySequence(opt, op, x)
		return []tensor.Value{c}, err
	}
	return nil, op.errorf("input", "input is %s", v.Describe())
}
