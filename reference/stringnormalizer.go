package reference

// StringNormalizer (version 10), after the ONNX specification:
// "StringNormalization performs string operations for basic cleaning. This
// operator has only one input (denoted by X) and only one output (denoted
// by Y). This operator first examines the elements in the X, and removes
// elements specified in "stopwords" attribute. After removing stop words,
// the intermediate result can be further lowercased, uppercased, or just
// returned depending the "case_change_action" attribute. This operator only
// accepts [C]- and [1, C]-tensor. If all elements in X are dropped, the
// output will be the empty value of string tensor with shape [1] if input
// shape is [C] and shape [1, 1] if input shape is [1, C]."
// "is_case_sensitive: Boolean. Whether the identification of stop words in
// X is case-sensitive. Default is false". Cases map rune by rune (Go's
// Unicode tables); locale changes nothing.

import (
	"strings"
	"unicode"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("StringNormalizer", []int{10}, stringNormalizer) }

func stringNormalizer(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	action, err := n.Str("case_change_action", "NONE")
	if err != nil {
		return nil, err
	}
	sensitive, err := n.Int("is_case_sensitive", 0)
	if err != nil {
		return nil, err
	}
	if _, err := n.Str("locale", ""); err != nil {
		return nil, err
	}
	var stopwords []string
	if a, ok := n.Attrs["stopwords"]; ok {
		if a.Type != ops.AttrStrings {
			return nil, op.errorf("attribute", "attribute stopwords is of type %v, expected %v", a.Type, ops.AttrStrings)
		}
		stopwords = a.Strings
	}
	if x.DataType() != tensor.String {
		return nil, op.errorf("type", "X must hold strings")
	}
	if !(x.Rank() == 1 || x.Rank() == 2 && x.Shape()[0] == 1) {
		return nil, op.errorf("rank", "X must be [C] or [1, C]")
	}
	if action != "NONE" && action != "LOWER" && action != "UPPER" {
		return nil, op.errorf("case_change_action", "case_change_action %q", action)
	}
	isStop := func(s string) bool {
		for _, w := range stopwords {
			if s == w || sensitive == 0 && strings.Map(unicode.ToLower, s) == strings.Map(unicode.ToLower, w) {
				return true
			}
		}
		return false
	}
	var kept []string
	for _, s := range x.Strings() {
		if isStop(s) {
			continue
		}
		switch action {
		case "LOWER":
			s = strings.Map(unicode.ToLower, s)
		case "UPPER":
			s = strings.Map(unicode.ToUpper, s)
		}
		kept = append(kept, s)
	}
	if len(kept) == 0 {
		kept = []string{""}
	}
	shape := []int{len(kept)}
	if x.Rank() == 2 {
		shape = []int{1, len(kept)}
	}
	y, err := newTensor(opt, op, tensor.String, shape)
	if err != nil {
		return nil, err
	}
	copy(y.Strings(), kept)
	return values(y), nil
}
