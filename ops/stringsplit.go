// StringSplit splits every string of its input at delimiter, as Python's
// str.split: with no or an empty delimiter, at runs of whitespace, the
// ends stripped; at most maxsplit times when it is given (the rest, one
// piece). Output Y has the input's shape plus one axis as long as the most
// pieces of any string, padded with empty strings; output Z holds each
// string's number of pieces.
//
// Versions: 20. Whitespace is Go's unicode.IsSpace (Python's str.isspace
// also counts the separators \x1c to \x1f).
//
// Rules: [type] the input holds strings; [maxsplit] not negative; [size]
// the outputs fit the size limit.

package ops

import (
	"strings"
	"unicode"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("StringSplit", []int{20}, [2]int{1, 1}, [2]int{2, 2}, stringSplitNode)
	declareAttrs("StringSplit", AttrSpec{Name: "delimiter", Type: AttrString}, AttrSpec{Name: "maxsplit", Type: AttrInt})
}

func stringSplitNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	delim, err := n.Str("delimiter", "")
	if err != nil {
		return nil, err
	}
	maxsplit := int64(-1)
	if n.Has("maxsplit") {
		if maxsplit, err = n.Int("maxsplit", 0); err != nil {
			return nil, err
		}
		if maxsplit < 0 {
			return nil, op.errorf("maxsplit", "maxsplit must be >= 0, got %d", maxsplit)
		}
	}
	if x.DataType() != tensor.String {
		return nil, op.errorf("type", "X must hold strings, got %v", x.DataType())
	}
	pieces := make([][]string, x.Len())
	most := 0
	for i, s := range x.Strings() {
		pieces[i] = pythonSplit(s, delim, maxsplit)
		most = max(most, len(pieces[i]))
	}
	y, err := opt.newTensor(op, tensor.String, append(append([]int{}, x.Shape()...), most))
	if err != nil {
		return nil, err
	}
	z, err := opt.newOverwritten(op, tensor.Int64, x.Shape())
	if err != nil {
		return nil, err
	}
	for i, p := range pieces {
		copy(y.Strings()[i*most:], p)
		asElems[int64](z.Bytes())[i] = int64(len(p))
	}
	return values(y, z), nil
}

// pythonSplit is Python's s.split(delim or None, maxsplit), maxsplit -1 for
// no limit.
func pythonSplit(s, delim string, maxsplit int64) []string {
	if delim != "" {
		if maxsplit < 0 {
			return strings.Split(s, delim)
		}
		return strings.SplitN(s, delim, int(min(maxsplit, int64(len(s)))+1))
	}
	var out []string
	rest := strings.TrimLeftFunc(s, unicode.IsSpace)
	for rest != "" {
		if maxsplit >= 0 && int64(len(out)) == maxsplit {
			return append(out, rest)
		}
		end := strings.IndexFunc(rest, unicode.IsSpace)
		if end < 0 {
			return append(out, rest)
		}
		out = append(out, rest[:end])
		rest = strings.TrimLeftFunc(rest[end:], unicode.IsSpace)
	}
	return out
}
