// DictVectorizer (ai.onnx.ml, version 1), after the ONNX-ML
// specification: "Uses an index mapping to convert a dictionary to an
// array. Given a dictionary, each key is looked up in the vocabulary
// attribute corresponding to the key type. The index into the vocabulary
// array at which the key is found is then used to index the output 1-D
// tensor 'Y' and insert into it the value found in the dictionary 'X'. The
// key type of the input map must correspond to the element type of the
// defined vocabulary attribute. Therefore, the output array will be equal
// in length to the index mapping vector parameter. All keys in the input
// dictionary must be present in the index mapping vector. For each item
// in the input dictionary, insert its value in the output array. Any keys
// not present in the input dictionary, will be zero in the output array."
// Y is [1, V] as onnxruntime makes it; a word the vocabulary lists twice
// takes the value at both places (onnxruntime). X's types: map(string,
// int64|float|double), map(int64, string|float|double).

package reference

import (
	"strconv"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "DictVectorizer", []int{1}, dictVectorizer) }

func dictVectorizer(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, ok := mapInput(in)
	if !ok {
		return nil, op.errorf("input", "X must be a map")
	}
	kt, vt := x.KeyType(), x.ValueType()
	allowed := map[[2]tensor.DataType]bool{
		{tensor.String, tensor.Int64}: true, {tensor.String, tensor.Float}: true, {tensor.String, tensor.Double}: true,
		{tensor.Int64, tensor.String}: true, {tensor.Int64, tensor.Float}: true, {tensor.Int64, tensor.Double}: true,
	}
	if !allowed[[2]tensor.DataType{kt, vt}] {
		return nil, op.errorf("type", "X's key and value types are not among those the specification lists")
	}
	ints, _, err := n.Ints("int64_vocabulary")
	if err != nil {
		return nil, err
	}
	var strs []string
	if a, ok := n.Attrs["string_vocabulary"]; ok {
		if a.Type != ops.AttrStrings {
			return nil, op.errorf("attribute", "string_vocabulary must be strings")
		}
		strs = a.Strings
	}
	if (len(ints) > 0) == (len(strs) > 0) || (kt == tensor.Int64) != (len(ints) > 0) {
		return nil, op.errorf("vocabulary", "one vocabulary, of the key type")
	}
	if err := chargeScratch(opt, op, "the dictionary", x.Len(), 64); err != nil {
		return nil, err
	}
	// The dictionary X by key (as text), and the vocabulary as a set.
	dict := map[string]int{}
	for e := range x.Len() {
		if _, dup := dict[x.KeyString(e)]; dup {
			return nil, op.errorf("keys", "a key appears twice")
		}
		dict[x.KeyString(e)] = e
	}
	vocabulary := make([]string, len(ints)+len(strs))
	inVocabulary := map[string]bool{}
	for i := range vocabulary {
		if len(ints) > 0 {
			vocabulary[i] = strconv.FormatInt(ints[i], 10)
		} else {
			vocabulary[i] = strs[i]
		}
		inVocabulary[vocabulary[i]] = true
	}
	for k := range dict {
		if !inVocabulary[k] {
			return nil, op.errorf("keys", "all keys in the input dictionary must be present in the index mapping vector")
		}
	}
	y, err := newTensor(opt, op, vt, []int{1, len(vocabulary)})
	if err != nil {
		return nil, err
	}
	stop := newPoll(opt, op)
	for i, word := range vocabulary {
		if e, ok := dict[word]; ok {
			copyElement(y, i, x.Values, e)
		}
		if stop.stop(1) {
			return nil, stop.err
		}
	}
	return values(y), nil
}
