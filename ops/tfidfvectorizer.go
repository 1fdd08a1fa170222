// TfIdfVectorizer (version 9) counts, in each row of X ([C] or [N, C] of
// int32, int64 or string), the n-grams of a pool, and writes their
// frequencies (TF), indicators (IDF) or weighted frequencies (TFIDF) as
// float at the positions ngram_indexes gives: Y is [S] or [N, S], S being
// max(ngram_indexes)+1.
//
// The pool (pool_int64s or pool_strings) holds the n-grams by length:
// ngram_counts[i] is where the (i+1)-grams start. An n-gram of X of skip
// s takes n elements s+1 apart; every skip from 0 to max_skip_count and
// every length from min_gram_length to max_gram_length counts, a unigram
// once (skips do not change it). IDF writes weights[i] (1 without
// weights) where the count is positive, TFIDF count*weights[i]. Of an
// n-gram the pool holds twice, the first position counts.
//
// Rules: [attribute] mode, min_gram_length, max_gram_length,
// max_skip_count, ngram_counts and ngram_indexes are given; [pool]
// exactly one of pool_int64s and pool_strings; [type] X is int32 or int64
// with pool_int64s, string with pool_strings; [rank] X is [C] or [N, C];
// [mode] TF, IDF or TFIDF; [gram] 1 <= min_gram_length <= max_gram_length,
// max_skip_count >= 0; [ngram_counts] starts that do not decrease, within
// the pool, each length's part a whole number of n-grams; [ngram_indexes]
// one non-negative index per pool n-gram; [weights] none, or one per
// output position; [size] Y fits the size limit.
//
// Bounds: the trie of the pool has at most one node per pool element;
// skips beyond the row's length find nothing and are not tried, so a
// row costs at most C * min(max_skip_count+1, C) * max_gram_length steps.

package ops

import "github.com/onnxshape/onnxshape/tensor"

func init() {
	register("TfIdfVectorizer", []int{9}, [2]int{1, 1}, [2]int{1, 1}, tfIdfVectorizerNode)
	declareAttrs("TfIdfVectorizer",
		AttrSpec{Name: "max_gram_length", Type: AttrInt}, AttrSpec{Name: "min_gram_length", Type: AttrInt},
		AttrSpec{Name: "max_skip_count", Type: AttrInt}, AttrSpec{Name: "mode", Type: AttrString},
		AttrSpec{Name: "ngram_counts", Type: AttrInts}, AttrSpec{Name: "ngram_indexes", Type: AttrInts},
		AttrSpec{Name: "pool_int64s", Type: AttrInts}, AttrSpec{Name: "pool_strings", Type: AttrStrings},
		AttrSpec{Name: "weights", Type: AttrFloats})
}

// tfIdfTrie holds the pool's n-grams as paths from the root (node 0):
// child maps a node and a token id to the next node; index[node] is the
// output position of the n-gram that ends there, -1 when none does. A
// small trie also has table, the same children as one array.
type tfIdfTrie struct {
	child  map[[2]int64]int32
	index  []int64
	tokens int     // the number of token ids
	table  []int32 // nil, or child as a [node][id] array (densify)
}

func tfIdfVectorizerNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	p, _ := n.kept.Load().(*tfIdfPlan)
	if p == nil {
		if p, err = newTfIdfPlan(opt, op, n, x); err != nil {
			return nil, err
		}
		n.kept.Store(p)
	} else if err := p.check(opt, op, x); err != nil {
		return nil, err
	}
	return p.run(opt, op, x)
}

// tfIdfPlan is what a TfIdfVectorizer node makes of its attributes: the
// pool's trie, the string tokens and the output size. It depends on no
// input: a node keeps the one of its first run (Node.kept), which took
// longer to build than a short row to count, and each later run checks X
// and charges the pool and the trie as if it built them.
type tfIdfPlan struct {
	mode                      string
	minGram, maxGram, maxSkip int64
	weights                   []float32
	hasWeights, hasStrs       bool
	poolLen                   int
	size                      int64
	ids                       map[int64]int32  // a pool_int64s token's id in the trie
	strIDs                    map[string]int32 // a pool_strings token's id in the trie
	trie                      tfIdfTrie
}

// newTfIdfPlan checks the node's attributes, and X against them, and
// builds its plan.
func newTfIdfPlan(opt *Options, op opRef, n *Node, x *tensor.Tensor) (*tfIdfPlan, error) {
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
	poolStrs, hasStrs, err := n.attr("pool_strings", AttrStrings)
	if err != nil {
		return nil, err
	}
	weights, hasWeights, err := n.Floats("weights")
	if err != nil {
		return nil, err
	}
	if hasInts == hasStrs {
		return nil, op.errorf("pool", "exactly one of pool_int64s and pool_strings must be given")
	}
	switch {
	case hasInts && (x.DataType() == tensor.Int32 || x.DataType() == tensor.Int64):
	case hasStrs && x.DataType() == tensor.String:
	default:
		return nil, op.errorf("type", "X is %v: int32 or int64 go with pool_int64s, string with pool_strings", x.DataType())
	}
	if x.Rank() != 1 && x.Rank() != 2 {
		return nil, op.errorf("rank", "X must be [C] or [N, C], got shape %v", x.Shape())
	}
	if mode != "TF" && mode != "IDF" && mode != "TFIDF" {
		return nil, op.errorf("mode", "mode must be TF, IDF or TFIDF, got %q", mode)
	}
	if minGram < 1 || maxGram < minGram || maxSkip < 0 {
		return nil, op.errorf("gram", "need 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0, got %d, %d and %d", minGram, maxGram, maxSkip)
	}
	// The pool as tokens: the integers themselves, or each string's first
	// position in pool_strings (X's strings are looked up the same way).
	poolLen := len(poolInts)
	var dict map[string]int64
	if hasStrs {
		poolLen = len(poolStrs.Strings)
		if err := opt.scratch(op, "string pool", poolLen, 48); err != nil {
			return nil, err
		}
		dict = make(map[string]int64, poolLen)
		poolInts = make([]int64, poolLen)
		for i, s := range poolStrs.Strings {
			if _, ok := dict[s]; !ok {
				dict[s] = int64(i)
			}
			poolInts[i] = dict[s]
		}
	}
	total := 0
	for i, start := range counts {
		end := int64(poolLen)
		if i+1 < len(counts) {
			end = counts[i+1]
		}
		if start < 0 || start > end || end > int64(poolLen) || (end-start)%int64(i+1) != 0 {
			return nil, op.errorf("ngram_counts", "ngram_counts[%d] = %d: the %d-grams must start in the pool of %d, after the shorter ones, and fill a whole number of %d-grams up to %d", i, start, i+1, poolLen, i+1, end)
		}
		total += int((end - start) / int64(i+1))
	}
	if len(counts) > 0 && counts[0] != 0 && poolLen > 0 {
		return nil, op.errorf("ngram_counts", "ngram_counts[0] = %d: the unigrams start the pool at 0", counts[0])
	}
	if len(indexes) != total {
		return nil, op.errorf("ngram_indexes", "%d ngram_indexes for %d n-grams in the pool", len(indexes), total)
	}
	size := int64(0)
	for i, v := range indexes {
		if v < 0 {
			return nil, op.errorf("ngram_indexes", "ngram_indexes[%d] = %d is negative", i, v)
		}
		size = max(size, v+1)
	}
	if size > int64(opt.maxBytes()/4) {
		return nil, op.errorf("size", "max(ngram_indexes)+1 = %d output positions are above the size limit", size)
	}
	if hasWeights && len(weights) < int(size) {
		return nil, op.errorf("weights", "%d weights for %d output positions", len(weights), size)
	}
	if err := opt.scratch(op, "n-gram trie", poolLen+1, 48); err != nil {
		return nil, err
	}
	// The trie walks dense token ids (0 to the number of distinct pool
	// tokens), so that its steps can be one table read.
	ids := make(map[int64]int32, poolLen)
	for _, tok := range poolInts {
		if _, ok := ids[tok]; !ok {
			ids[tok] = int32(len(ids))
		}
	}
	trie := tfIdfTrie{child: make(map[[2]int64]int32, poolLen), index: []int64{-1}, tokens: len(ids)}
	k := 0
	for i, start := range counts {
		end := int64(poolLen)
		if i+1 < len(counts) {
			end = counts[i+1]
		}
		for g := start; g < end; g += int64(i + 1) {
			node := int32(0)
			for _, tok := range poolInts[g : g+int64(i+1)] {
				key := [2]int64{int64(node), int64(ids[tok])}
				next, ok := trie.child[key]
				if !ok {
					next = int32(len(trie.index))
					trie.child[key] = next
					trie.index = append(trie.index, -1)
				}
				node = next
			}
			if trie.index[node] < 0 {
				trie.index[node] = indexes[k]
			}
			k++
		}
	}
	// The ids and the table are charged beside the trie (check too).
	if err := opt.scratch(op, "pool token ids", poolLen, 16); err != nil {
		return nil, err
	}
	trie.densify(tfIdfMaxTable(poolLen))
	if err := opt.scratch(op, "n-gram trie table", len(trie.table), 4); err != nil {
		return nil, err
	}
	var strIDs map[string]int32
	if hasStrs {
		// X's strings map to the ids of their pool tokens directly.
		strIDs = make(map[string]int32, len(dict))
		for s, tok := range dict {
			strIDs[s] = ids[tok]
		}
		ids = nil
	}
	return &tfIdfPlan{mode: mode, minGram: minGram, maxGram: maxGram, maxSkip: maxSkip, weights: weights,
		hasWeights: hasWeights, hasStrs: hasStrs, poolLen: poolLen, size: size, ids: ids, strIDs: strIDs, trie: trie}, nil
}

// check refuses an X the plan does not take and a size above opt's limit,
// and charges the run for the string pool and the trie (as newTfIdfPlan).
func (p *tfIdfPlan) check(opt *Options, op opRef, x *tensor.Tensor) error {
	switch {
	case !p.hasStrs && (x.DataType() == tensor.Int32 || x.DataType() == tensor.Int64):
	case p.hasStrs && x.DataType() == tensor.String:
	default:
		return op.errorf("type", "X is %v: int32 or int64 go with pool_int64s, string with pool_strings", x.DataType())
	}
	if x.Rank() != 1 && x.Rank() != 2 {
		return op.errorf("rank", "X must be [C] or [N, C], got shape %v", x.Shape())
	}
	if p.size > int64(opt.maxBytes()/4) {
		return op.errorf("size", "max(ngram_indexes)+1 = %d output positions are above the size limit", p.size)
	}
	if p.hasStrs {
		if err := opt.scratch(op, "string pool", p.poolLen, 48); err != nil {
			return err
		}
	}
	if err := opt.scratch(op, "n-gram trie", p.poolLen+1, 48); err != nil {
		return err
	}
	if err := opt.scratch(op, "pool token ids", p.poolLen, 16); err != nil {
		return err
	}
	return opt.scratch(op, "n-gram trie table", len(p.trie.table), 4)
}

// tfIdfMaxTable is the most entries of a trie's table (densify) for a
// pool of poolLen tokens: as many bytes as its map's charge, at least 4K
// entries (a table read is one load; a map's lookup hashes two words).
func tfIdfMaxTable(poolLen int) int {
	return max(4096, mulCounts(addCounts(poolLen, 1), 12))
}

// run counts the n-grams of every row of X.
func (p *tfIdfPlan) run(opt *Options, op opRef, x *tensor.Tensor) ([]tensor.Value, error) {
	mode, weights, hasWeights, size, trie := p.mode, p.weights, p.hasWeights, p.size, &p.trie
	rows, cols := 1, x.Shape()[0]
	shape := []int{int(size)}
	if x.Rank() == 2 {
		rows, cols = x.Shape()[0], x.Shape()[1]
		shape = []int{rows, int(size)}
	}
	y, err := opt.newTensor(op, tensor.Float, shape)
	if err != nil {
		return nil, err
	}
	// The row's token ids.
	if err := opt.scratch(op, "row tokens", cols, 8); err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "row counts", int(size), 8); err != nil {
		return nil, err
	}
	tokens := make([]int64, cols)
	freq := make([]float64, size)
	out := asElems[float32](y.Bytes())
	skips := int(min(p.maxSkip, int64(cols)))
	for r := range rows {
		if err := opt.cancelled(); err != nil {
			return nil, op.stopped(err)
		}
		// The row's token ids, -1 for a token the pool does not hold.
		switch x.DataType() {
		case tensor.String:
			for c, s := range x.Strings()[r*cols : (r+1)*cols] {
				id, ok := p.strIDs[s]
				if !ok {
					id = -1
				}
				tokens[c] = int64(id)
			}
		case tensor.Int32:
			for c, v := range asElems[int32](x.Bytes())[r*cols : (r+1)*cols] {
				tokens[c] = p.id(int64(v))
			}
		default:
			for c, v := range asElems[int64](x.Bytes())[r*cols : (r+1)*cols] {
				tokens[c] = p.id(v)
			}
		}
		clear(freq)
		trie.count(tokens, int(p.minGram), int(p.maxGram), skips, freq)
		row := out[r*int(size) : (r+1)*int(size)]
		for i, f := range freq {
			switch {
			case mode == "TF":
				row[i] = float32(f)
			case mode == "IDF" && hasWeights:
				if f > 0 {
					row[i] = weights[i]
				}
			case mode == "IDF":
				if f > 0 {
					row[i] = 1
				}
			case hasWeights: // TFIDF
				row[i] = float32(f * float64(weights[i]))
			default:
				row[i] = float32(f)
			}
		}
	}
	return values(y), nil
}

// id is the trie's id of pool_int64s token tok, -1 when the pool does not
// hold it.
func (p *tfIdfPlan) id(tok int64) int64 {
	if id, ok := p.ids[tok]; ok {
		return int64(id)
	}
	return -1
}

// densify adds to t the table form of its children when it has at most
// most entries: table[node*tokens+id] is the child, 0 for none (the root is
// no node's child).
func (t *tfIdfTrie) densify(most int) {
	n := len(t.index) * t.tokens
	if t.tokens == 0 || n/t.tokens != len(t.index) || n > most {
		return
	}
	t.table = make([]int32, n)
	for key, next := range t.child {
		t.table[int(key[0])*t.tokens+int(key[1])] = next
	}
}

// next is the child of node by token id, ok false when there is none.
func (t *tfIdfTrie) next(node int32, id int64) (int32, bool) {
	if t.table != nil {
		if id < 0 {
			return 0, false
		}
		c := t.table[int(node)*t.tokens+int(id)]
		return c, c != 0
	}
	c, ok := t.child[[2]int64{int64(node), id}]
	return c, ok
}

// count adds to freq the pool n-grams of one row of tokens, of every
// length from minGram to maxGram and skip from 0 to maxSkip: for each
// start, the trie is walked as long as the n-gram read so far is a prefix
// of one in the pool. Unigrams count at skip 0 only.
func (t *tfIdfTrie) count(tokens []int64, minGram, maxGram, maxSkip int, freq []float64) {
	least := minGram
	for skip := 1; skip <= maxSkip+1; skip++ {
		for start := range tokens {
			if start+skip*(least-1) >= len(tokens) {
				break
			}
			node := int32(0)
			for size, at := 1, start; size <= maxGram && at < len(tokens); size, at = size+1, at+skip {
				next, ok := t.next(node, tokens[at])
				if !ok {
					break
				}
				node = next
				if size >= least && t.index[node] >= 0 {
					freq[t.index[node]]++
				}
			}
		}
		if least == 1 {
			least = 2
			if least > maxGram {
				break
			}
		}
	}
}
