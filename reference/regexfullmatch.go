package reference

// RegexFullMatch (version 20), after the ONNX specification: "RegexFullMatch
// performs a full regex match on each element of the input tensor. If an
// element fully matches the regex pattern specified as an attribute, the
// corresponding element in the output is True and it is False otherwise.
// RE2 regex syntax is used." A full match is a match of the pattern anchored at
// both ends of the string (RE2's FullMatch).

import (
	"regexp"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("RegexFullMatch", []int{20}, regexFullMatch) }

func regexFullMatch(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	a, ok := n.Attrs["pattern"]
	if ok && a.Type != ops.AttrString {
		return nil, op.errorf("attribute", "attribute pattern is of type %v, expected %v", a.Type, ops.AttrString)
	}
	if x.DataType() != tensor.String {
		return nil, op.errorf("type", "X must hold strings")
	}
	if !ok {
		return nil, op.errorf("pattern", "pattern is required")
	}
	anchored, err := regexp.Compile(`\A(?:` + a.String + `)\z`)
	if err != nil {
		return nil, op.wrap("pattern", err, "pattern")
	}
	y, err := newTensor(opt, op, tensor.Bool, x.Shape())
	if err != nil {
		return nil, err
	}
	for i, s := range x.Strings() {
		if anchored.MatchString(s) { // RE2's FullMatch: the pattern anchored at both ends
			y.Bytes()[i] = 1
		}
	}
	return values(y), nil
}
