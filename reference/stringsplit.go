package reference

// StringSplit (version 20), after the ONNX specification: "StringSplit
// splits a string tensor's elements into substrings based on a delimiter
// attribute and a maxsplit attribute. The first output of this operator is
// a tensor of strings representing the substrings from splitting each
// input string on the delimiter substring. This tensor has one additional
// rank compared to the input tensor in order to store the substrings for
// each input element (where the input tensor is not empty). Note that, in
// order to ensure the same number of elements are present in the final
// dimension, this tensor will pad empty strings as illustrated in the
// examples below. Consecutive delimiters are not grouped together and are
// deemed to delimit empty strings, except if the delimiter is unspecified
// or is the empty string (""). In the case where the delimiter is
// unspecified or the empty string, consecutive whitespace characters are
// regarded as a single separator and leading or trailing whitespace is
// removed in the output. The second output tensor represents the number of
// substrings generated. maxsplit can be used to limit the number of splits
// performed - after the maxsplitth split if the string is not fully split,
// the trailing suffix of input string after the final split point is also
// added. For elements where fewer splits are possible than specified in
// maxsplit, it has no effect."

import (
	"unicode"
	"unicode/utf8"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("StringSplit", []int{20}, stringSplit) }

func stringSplit(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	delim, err := n.Str("delimiter", "")
	if err != nil {
		return nil, err
	}
	maxsplit := int64(-1)
	if _, ok := n.Attrs["maxsplit"]; ok {
		if maxsplit, err = n.Int("maxsplit", 0); err != nil {
			return nil, err
		}
		if maxsplit < 0 {
			return nil, op.errorf("maxsplit", "maxsplit %d", maxsplit)
		}
	}
	if x.DataType() != tensor.String {
		return nil, op.errorf("type", "X must hold strings")
	}
	all := make([][]string, x.Len())
	most := 0
	for i, s := range x.Strings() {
		if delim == "" {
			all[i] = splitWhitespace(s, maxsplit)
		} else {
			all[i] = splitAt(s, delim, maxsplit)
		}
		most = max(most, len(all[i]))
	}
	y, err := newTensor(opt, op, tensor.String, append(append([]int{}, x.Shape()...), most))
	if err != nil {
		return nil, err
	}
	z, err := newTensor(opt, op, tensor.Int64, x.Shape())
	if err != nil {
		return nil, err
	}
	for i, parts := range all {
		for j, p := range parts {
			y.Strings()[i*most+j] = p
		}
		putInt(z, i, uint64(len(parts)))
	}
	return values(y, z), nil
}

// splitAt cuts s at each occurrence of delim, scanning left to right, at
// most maxsplit times (-1: no limit).
func splitAt(s, delim string, maxsplit int64) []string {
	var out []string
	start := 0
	for i := 0; i+len(delim) <= len(s); {
		if (maxsplit < 0 || int64(len(out)) < maxsplit) && s[i:i+len(delim)] == delim {
			out = append(out, s[start:i])
			i += len(delim)
			start = i
			continue
		}
		i++
	}
	return append(out, s[start:])
}

// splitWhitespace returns the runs of non-space characters of s, the last
// one the whole rest (its leading space dropped) once maxsplit pieces are
// cut.
func splitWhitespace(s string, maxsplit int64) []string {
	var out []string
	i := 0
	for {
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsSpace(r) {
				break
			}
			i += size
		}
		if i == len(s) {
			return out
		}
		if maxsplit >= 0 && int64(len(out)) == maxsplit {
			return append(out, s[i:])
		}
		start := i
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				break
			}
			i += size
		}
		out = append(out, s[start:i])
	}
}
