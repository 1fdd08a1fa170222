// RegexFullMatch tells, for every string of its input, whether the whole
// string matches the RE2 pattern of its attribute (Go's regexp is RE2).
//
// Versions: 20. Rules: [type] the input holds strings; [pattern] the
// attribute is given and is valid RE2; [size] the output fits the size
// limit.

package ops

import (
	"regexp"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("RegexFullMatch", []int{20}, [2]int{1, 1}, [2]int{1, 1}, regexFullMatchNode)
	declareAttrs("RegexFullMatch", AttrSpec{Name: "pattern", Type: AttrString})
}

func regexFullMatchNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	a, ok, err := n.attr("pattern", AttrString)
	if err != nil {
		return nil, err
	}
	if x.DataType() != tensor.String {
		return nil, op.errorf("type", "X must hold strings, got %v", x.DataType())
	}
	if !ok {
		return nil, op.errorf("pattern", "attribute pattern is required")
	}
	re, err := regexp.Compile(`^(?:` + a.String + `)$`)
	if err != nil {
		return nil, op.wrap("pattern", err, "pattern %q", a.String)
	}
	y, err := opt.newOverwritten(op, tensor.Bool, x.Shape())
	if err != nil {
		return nil, err
	}
	for i, s := range x.Strings() {
		y.Bytes()[i] = convert.B2U(re.MatchString(s))
	}
	return values(y), nil
}
