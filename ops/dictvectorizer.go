// DictVectorizer (ai.onnx.ml, version 1) writes a map into a tensor Y of
// shape [1, V] along a vocabulary (int64_vocabulary or string_vocabulary,
// one of them, of the map's key type): Y[0, i] is the value of the key
// vocabulary[i], or zero ("" for strings) when the map has no such key.
// Y's element type is the map's value type. A key the vocabulary lists
// twice fills both columns, as in onnxruntime ("some models" have them).
//
// The specification says "All keys in the input dictionary must be
// present in the index mapping vector": a map with a key outside the
// vocabulary is refused, where onnxruntime ignores the key (as
// scikit-learn's DictVectorizer does); docs/divergences.md.
//
// Rules: [type] X is map(string, int64|float|double) or map(int64,
// string|float|double), the types the specification lists;
// [vocabulary] exactly one vocabulary, of the key type, not empty;
// [keys] every key of X in the vocabulary, none twice.

package ops

import "github.com/onnxshape/onnxshape/tensor"

func init() {
	registerIn(domainML, "DictVectorizer", []int{1}, [2]int{1, 1}, [2]int{1, 1}, dictVectorizerNode)
	declareAttrsIn(domainML, "DictVectorizer",
		AttrSpec{Name: "int64_vocabulary", Type: AttrInts}, AttrSpec{Name: "string_vocabulary", Type: AttrStrings})
}

func dictVectorizerNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.mapInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	kt, vt := x.KeyType(), x.ValueType()
	if !(vt == tensor.Float || vt == tensor.Double || (kt == tensor.String && vt == tensor.Int64) || (kt == tensor.Int64 && vt == tensor.String)) {
		return nil, op.errorf("type", "X must be map(string, int64|float|double) or map(int64, string|float|double), got %s", x.Describe())
	}
	ints, hasInts, err := n.Ints("int64_vocabulary")
	if err != nil {
		return nil, err
	}
	strs, hasStrs, err := n.attr("string_vocabulary", AttrStrings)
	if err != nil {
		return nil, err
	}
	hasInts, hasStrs = hasInts && len(ints) > 0, hasStrs && len(strs.Strings) > 0
	if hasInts == hasStrs {
		return nil, op.errorf("vocabulary", "exactly one of int64_vocabulary and string_vocabulary must be set")
	}
	if (kt == tensor.Int64) != hasInts {
		return nil, op.errorf("vocabulary", "the vocabulary is not of the map's %v keys", kt)
	}
	size := len(ints) + len(strs.Strings)
	if err := opt.checkSize(op, vt, []int{1, size}); err != nil {
		return nil, err
	}
	// The vocabulary's columns by key, and which columns a key wrote:
	// charged as a Go map of about 64 bytes an entry, and a flag a column.
	if err := opt.charge(op, "vocabulary index", int64(size)*65); err != nil {
		return nil, err
	}
	var columns func(e int) []int
	if hasInts {
		index := vocabularyIndex(ints)
		keys := x.Int64Keys()
		columns = func(e int) []int { return index[keys[e]] }
	} else {
		index := vocabularyIndex(strs.Strings)
		keys := x.StringKeys()
		columns = func(e int) []int { return index[keys[e]] }
	}
	y, err := opt.newTensor(op, vt, []int{1, size})
	if err != nil {
		return nil, err
	}
	written := make([]bool, size)
	c := opt.canceller()
	for e := range x.Len() {
		if c.Stop(1) {
			return nil, op.stopped(c.Err)
		}
		cols := columns(e)
		if len(cols) == 0 {
			return nil, op.errorf("keys", "key %s of X is not in the vocabulary", x.KeyString(e))
		}
		if written[cols[0]] {
			return nil, op.errorf("keys", "key %s appears twice in X", x.KeyString(e))
		}
		for _, j := range cols {
			written[j] = true
			copyElement(y, j, x.Values, e)
		}
	}
	return values(y), nil
}

// vocabularyIndex maps each word of a vocabulary to its positions.
func vocabularyIndex[K comparable](vocabulary []K) map[K][]int {
	index := make(map[K][]int, len(vocabulary))
	for i, k := range vocabulary {
		index[k] = append(index[k], i)
	}
	return index
}

// copyElement sets element j of dst to element i of src, of one type.
func copyElement(dst *tensor.Tensor, j int, src *tensor.Tensor, i int) {
	if dst.DataType() == tensor.String {
		dst.Strings()[j] = src.Strings()[i]
		return
	}
	size := dst.DataType().Size()
	copy(dst.Bytes()[j*size:(j+1)*size], src.Bytes()[i*size:(i+1)*size])
}
