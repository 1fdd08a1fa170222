// TfIdfVectorizer (version 9), after the ONNX specification: "This
// transform extracts n-grams from the input sequence and save them as a
// vector. Input can be either a 1-D or 2-D tensor. For 1-D input, output
// is the n-gram representation of that input. For 2-D input, the output
// is also a 2-D tensor whose i-th row is the n-gram representation of the
// i-th input row. [...] an n-gram is a sequence of n tokens [that] may
// skip K tokens between two consecutive ones, K from 0 to max_skip_count
// [...] The output vector (denoted by Y) stores the count of each n-gram;
// Y[ngram_indexes[i]] indicates the times that the i-th n-gram is found.
// [...] If the mode is TF, [Y is the count]; IDF: the counts are
// binarized (a positive count becomes 1) and multiplied by weights; TFIDF:
// the counts multiplied by weights." The pool holds the n-grams by
// length, "ngram_counts[i] indicates the starting position of (i+1)-grams
// in the pool". Unigrams count once, whatever the skip (the reference
// implementations all do). Of an n-gram the pool holds twice, the first
// counts. weights[i] weighs output position i.
//
// Each n-gram of the row is read directly and looked up in the pool.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("TfIdfVectorizer", []int{9}, tfIdfVectorizer) }

func tfIdfVectorizer(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	for _, name := range []string{"mode", "min_gram_length", "max_gram_length", "max_skip_count", "ngram_counts", "ngram_indexes"} {
		if !n.Has(name) {
			return nil, op.errorf("attribute", "attribute %s is required", name)
		}
	}
	mode, err := n.Str("mode", "")
	if err != nil {
		return nil, err
	}
	minGram, err := n.Int("min_gram_length", 0)
	if err != nil {
		return nil, err
	}
	maxGram, err := n.Int("max_gram_length", 0)
	if err != nil {
		return nil, err
	}
	maxSkip, err := n.Int("max_skip_count", 0)
	if err != nil {
		return nil, err
	}
	counts, _, err := n.Ints("ngram_counts")
	if err != nil {
		return nil, err
	}
	indexes, _, err := n.Ints("ngram_indexes")
	if err != nil {
		return nil, err
	}
	poolInts, hasInts, err := n.Ints("pool_int64s")
	if err != nil {
		return nil, err
	}
	var poolStrs []string
	a, hasStrs := n.Attrs["pool_strings"]
	if hasStrs {
		if a.Type != ops.AttrStrings {
			return nil, op.errorf("attribute", "attribute pool_strings is of type %v, expected %v", a.Type, ops.AttrStrings)
		}
		poolStrs = a.Strings
	}
	weights, hasWeights, err := n.Floats("weights")
	if err != nil {
		return nil, err
	}
	if hasInts == hasStrs {
		return nil, op.errorf("pool", "exactly one of pool_int64s and pool_strings")
	}
	if !(hasInts && (x.DataType() == tensor.Int32 || x.DataType() == tensor.Int64) || hasStrs && x.DataType() == tensor.String) {
		return nil, op.errorf("type", "X's type does not match the pool")
	}
	if x.Rank() != 1 && x.Rank() != 2 {
		return nil, op.errorf("rank", "X must be [C] or [N, C]")
	}
	if mode != "TF" && mode != "IDF" && mode != "TFIDF" {
		return nil, op.errorf("mode", "mode %q", mode)
	}
	if minGram < 1 || maxGram < minGram || maxSkip < 0 {
		return nil, op.errorf("gram", "bad gram lengths or skip count")
	}
	poolLen := int64(len(poolInts) + len(poolStrs))
	// grams[i] lists the pool positions of the i-th n-gram, in pool order.
	var grams [][]int64
	for i := range counts {
		start, end := counts[i], poolLen
		if i+1 < len(counts) {
			end = counts[i+1]
		}
		if start < 0 || start > end || end > poolLen || (end-start)%int64(i+1) != 0 {
			return nil, op.errorf("ngram_counts", "ngram_counts[%d] is not a valid start", i)
		}
		for g := start; g < end; g += int64(i + 1) {
			var positions []int64
			for p := g; p < g+int64(i+1); p++ {
				positions = append(positions, p)
			}
			grams = append(grams, positions)
		}
	}
	if len(counts) > 0 && counts[0] != 0 && poolLen > 0 {
		return nil, op.errorf("ngram_counts", "ngram_counts[0] must be 0")
	}
	if len(indexes) != len(grams) {
		return nil, op.errorf("ngram_indexes", "one index per pool n-gram")
	}
	size := int64(0)
	for _, v := range indexes {
		if v < 0 {
			return nil, op.errorf("ngram_indexes", "negative index")
		}
		size = max(size, v+1)
	}
	if size > opt.TensorLimit()/4 {
		return nil, op.errorf("size", "too many output positions")
	}
	if hasWeights && int64(len(weights)) < size {
		return nil, op.errorf("weights", "fewer weights than output positions")
	}
	rows, cols := 1, x.Shape()[0]
	shape := []int{int(size)}
	if x.Rank() == 2 {
		rows, cols = x.Shape()[0], x.Shape()[1]
		shape = []int{rows, int(size)}
	}
	y, err := newTensor(opt, op, tensor.Float, shape)
	if err != nil {
		return nil, err
	}
	// sameToken compares element c of row r with pool element p.
	sameToken := func(r, c int, p int64) bool {
		if hasStrs {
			return x.Strings()[r*cols+c] == poolStrs[p]
		}
		return elementAt(x, r*cols+c).i == poolInts[p]
	}
	for r := range rows {
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		count := make([]float64, size)
		for skip := int64(0); skip <= min(maxSkip, int64(cols)); skip++ {
			if err := cancelled(opt, op); err != nil {
				return nil, err
			}
			// No n-gram longer than the row fits in it.
			for length := minGram; length <= min(maxGram, int64(cols)); length++ {
				if length == 1 && skip > 0 {
					continue // unigrams count once
				}
				for start := 0; start+int((length-1)*(skip+1)) < cols; start++ {
					for g, positions := range grams {
						if int64(len(positions)) != length {
							continue
						}
						match := true
						for k, p := range positions {
							if !sameToken(r, start+k*int(skip+1), p) {
								match = false
								break
							}
						}
						if match {
							count[indexes[g]]++
							break // the first pool n-gram that matches
						}
					}
				}
			}
		}
		for i, c := range count {
			w := float64(1)
			if hasWeights {
				w = float64(weights[i])
			}
			v := c * w
			if mode == "TF" {
				v = c
			} else if mode == "IDF" {
				v = 0
				if c > 0 {
					v = w
				}
			}
			data[float32](y)[r*int(size)+i] = float32(v)
		}
	}
	return values(y), nil
}
