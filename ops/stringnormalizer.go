// StringNormalizer removes stop words from a list of strings and changes
// their case: input [C] or [1, C]; every string equal to one of stopwords
// (compared in lower case unless is_case_sensitive) is removed, the others
// kept in order and lowered or uppered as case_change_action says (NONE,
// the default, LOWER, UPPER). An output left empty holds one empty string
// ([1], or [1, 1]), as the specification says.
//
// Versions: 10. Case follows Go's Unicode mappings, one rune to one rune
// (Python's, the reference evaluator's, maps ß to SS); locale is read but
// every locale maps alike.
//
// Rules: [type] strings; [rank] the input is [C] or [1, C];
// [case_change_action] NONE, LOWER or UPPER; [size] the output fits the
// size limit.

package ops

import (
	"strings"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("StringNormalizer", []int{10}, [2]int{1, 1}, [2]int{1, 1}, stringNormalizerNode)
	declareAttrs("StringNormalizer",
		AttrSpec{Name: "case_change_action", Type: AttrString}, AttrSpec{Name: "is_case_sensitive", Type: AttrInt},
		AttrSpec{Name: "locale", Type: AttrString}, AttrSpec{Name: "stopwords", Type: AttrStrings})
}

func stringNormalizerNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
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
	stop, _, err := n.attr("stopwords", AttrStrings)
	if err != nil {
		return nil, err
	}
	if x.DataType() != tensor.String {
		return nil, op.errorf("type", "X must hold strings, got %v", x.DataType())
	}
	if !(x.Rank() == 1 || x.Rank() == 2 && x.Shape()[0] == 1) {
		return nil, op.errorf("rank", "X must be [C] or [1, C], got shape %v", x.Shape())
	}
	change := map[string]func(string) string{"NONE": func(s string) string { return s }, "LOWER": strings.ToLower, "UPPER": strings.ToUpper}[action]
	if change == nil {
		return nil, op.errorf("case_change_action", "case_change_action must be NONE, LOWER or UPPER, got %q", action)
	}
	key := func(s string) string { return s }
	if sensitive == 0 {
		key = strings.ToLower
	}
	stopSet := map[string]bool{}
	for _, w := range stop.Strings {
		stopSet[key(w)] = true
	}
	kept := []string{}
	for _, s := range x.Strings() {
		if !stopSet[key(s)] {
			kept = append(kept, change(s))
		}
	}
	if len(kept) == 0 {
		kept = []string{""}
	}
	shape := []int{len(kept)}
	if x.Rank() == 2 {
		shape = []int{1, len(kept)}
	}
	y, err := opt.newTensor(op, tensor.String, shape)
	if err != nil {
		return nil, err
	}
	copy(y.Strings(), kept)
	return values(y), nil
}
