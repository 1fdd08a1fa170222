package reference_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Random nodes of the operators of the ai.onnx.ml and
// ai.onnx.preview.training domains, for TestEnginesAgreeOnRandomValidNodes.
// The training optimizers and the ml operators compute in float64 and
// round once in both engines: they agree bit for bit.

const (
	mlDomain       = "ai.onnx.ml"
	trainingDomain = "ai.onnx.preview.training"
)

func attrFloat(v float32) ops.Attribute { return ops.Attribute{Type: ops.AttrFloat, Float: v} }

func attrFloats(v ...float32) ops.Attribute {
	return ops.Attribute{Type: ops.AttrFloats, Floats: append([]float32{}, v...)}
}

func attrStrs(v ...string) ops.Attribute {
	return ops.Attribute{Type: ops.AttrStrings, Strings: append([]string{}, v...)}
}

// optimizerGenerator draws an optimizer node of lists lists (X, G and the
// states) over 1 to 3 tensors, its attributes set by attrs.
func optimizerGenerator(name string, lists int, attrs func(r *rand.Rand, a map[string]ops.Attribute)) func(r *rand.Rand) (*ops.Node, []tensor.Value) {
	return func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		count := 1 + r.IntN(3)
		dt := []tensor.DataType{tensor.Float, tensor.Double}[r.IntN(2)]
		n := &ops.Node{OpType: name, Domain: trainingDomain, Version: 1, NumOutputs: (lists - 1) * count, Attrs: map[string]ops.Attribute{}}
		attrs(r, n.Attrs)
		rate := randTensor(r, dt, nil, 0, 0.5, false)
		in := []tensor.Value{rate, tensor.Scalar(int64(r.IntN(4)))}
		shapes := make([][]int, count)
		for i := range shapes {
			shapes[i] = randShape(r, r.IntN(3), 4)
		}
		for j := range lists {
			for i := range count {
				lo := -3.0
				if j >= 3 || (j == 2 && name == "Adagrad") {
					lo = 0 // squared-gradient states stay non-negative
				}
				shape := shapes[i]
				if r.IntN(40) == 0 {
					shape = append([]int{2}, shape...) // [shape]
				}
				in = append(in, randTensor(r, dt, shape, lo, 3, false))
			}
		}
		return n, in
	}
}

func init() {
	generators["Adagrad"] = optimizerGenerator("Adagrad", 3, func(r *rand.Rand, a map[string]ops.Attribute) {
		a["decay_factor"] = attrFloat(float32(r.Float64()))
		a["epsilon"] = attrFloat(1e-6)
		a["norm_coefficient"] = attrFloat(float32(r.Float64() / 10))
	})
	generators["Momentum"] = optimizerGenerator("Momentum", 3, func(r *rand.Rand, a map[string]ops.Attribute) {
		a["alpha"] = attrFloat(float32(r.Float64()))
		a["beta"] = attrFloat(float32(r.Float64()))
		a["norm_coefficient"] = attrFloat(float32(r.Float64() / 10))
		a["mode"] = attrStr([]string{"standard", "nesterov"}[r.IntN(2)])
		if r.IntN(20) == 0 {
			a["mode"] = attrStr("other") // [mode]
		}
	})
	generators["Adam"] = optimizerGenerator("Adam", 4, func(r *rand.Rand, a map[string]ops.Attribute) {
		a["alpha"] = attrFloat(float32(r.Float64()))
		a["beta"] = attrFloat(float32(r.Float64()))
		a["epsilon"] = attrFloat(1e-3)
		a["norm_coefficient"] = attrFloat(float32(r.Float64() / 10))
		a["norm_coefficient_post"] = attrFloat(float32(r.Float64() / 10))
	})
	generators["Binarizer"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Int64, tensor.Int32, tensor.Int8}[r.IntN(5)]
		n := &ops.Node{OpType: "Binarizer", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{"threshold": attrFloat(float32(r.IntN(5)) - 2.5)}}
		return n, []tensor.Value{randTensor(r, dt, randShape(r, r.IntN(4), 4), -5, 5, true)}
	}
	generators["ArrayFeatureExtractor"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Int64, tensor.Int32, tensor.String}[r.IntN(5)]
		x := randTensor(r, dt, randShape(r, 1+r.IntN(3), 4), -5, 5, true)
		c := x.Shape()[x.Rank()-1]
		idx := make([]int, r.IntN(5))
		for i := range idx {
			idx[i] = r.IntN(c + 1) // c: [index]
			if c > 0 {
				idx[i] = r.IntN(c + c/4)
			}
		}
		n := &ops.Node{OpType: "ArrayFeatureExtractor", Domain: mlDomain, Version: 1}
		return n, []tensor.Value{x, ints64(idx...)}
	}
	generators["LabelEncoder"] = labelEncoderGenerator
}

// labelEncoderGenerator draws a LabelEncoder of any version, its keys
// drawn from the values its input holds (so most elements are found).
func labelEncoderGenerator(r *rand.Rand) (*ops.Node, []tensor.Value) {
	version := []int{1, 2, 4}[r.IntN(3)]
	n := &ops.Node{OpType: "LabelEncoder", Domain: mlDomain, Version: version, Attrs: map[string]ops.Attribute{}}
	shape := randShape(r, r.IntN(3), 4)
	count := 1 + r.IntN(6)
	if version == 1 {
		classes := make([]string, count)
		for i := range classes {
			classes[i] = fmt.Sprint(r.IntN(8))
		}
		n.Attrs["classes_strings"] = attrStrs(classes...)
		if r.IntN(2) == 0 {
			n.Attrs["default_string"] = attrStr("none")
		}
		if r.IntN(2) == 0 {
			n.Attrs["default_int64"] = attrInt(-7)
		}
		if r.IntN(2) == 0 {
			x := tensor.MustNew(tensor.String, shape...)
			for i := range x.Strings() {
				x.Strings()[i] = fmt.Sprint(r.IntN(10))
			}
			return n, []tensor.Value{x}
		}
		return n, []tensor.Value{randTensor(r, tensor.Int64, shape, -1, float64(count+1), false)}
	}
	types := []tensor.DataType{tensor.String, tensor.Int64, tensor.Float}
	if version == 4 {
		types = append(types, tensor.Int32, tensor.Int16, tensor.Double)
	}
	kt, vt := types[r.IntN(len(types))], types[r.IntN(len(types))]
	keys := randTensor(r, kt, []int{count}, -4, 4, false)
	if kt == tensor.Float || kt == tensor.Double {
		keys = randTensor(r, kt, []int{count}, -4, 4, false)
		for i := range count {
			setFloatRounded(keys, i, math.Round(float64(r.IntN(9)-4)/2))
		}
		if r.IntN(3) == 0 {
			setFloatRounded(keys, 0, math.NaN())
		}
	}
	vals := randTensor(r, vt, []int{count}, -100, 100, false)
	listAttr := func(prefix string, t *tensor.Tensor) {
		if version == 4 && (r.IntN(2) == 0 || t.DataType() == tensor.Int32 || t.DataType() == tensor.Int16 || t.DataType() == tensor.Double) {
			n.Attrs[prefix+"_tensor"] = ops.Attribute{Type: ops.AttrTensor, Tensor: t}
			return
		}
		switch t.DataType() {
		case tensor.String:
			n.Attrs[prefix+"_strings"] = attrStrs(t.Strings()...)
		case tensor.Int64:
			v, _ := tensor.Data[int64](t)
			n.Attrs[prefix+"_int64s"] = ops.Attribute{Type: ops.AttrInts, Ints: append([]int64{}, v...)}
		default:
			v, _ := tensor.Data[float32](t)
			n.Attrs[prefix+"_floats"] = attrFloats(v...)
		}
	}
	listAttr("keys", keys)
	listAttr("values", vals)
	switch r.IntN(4) {
	case 0:
		if version == 4 {
			n.Attrs["default_tensor"] = ops.Attribute{Type: ops.AttrTensor, Tensor: randTensor(r, vt, []int{1}, -9, 9, false)}
		}
	case 1:
		n.Attrs["default_int64"] = attrInt(99)
		n.Attrs["default_float"] = attrFloat(2.5)
		n.Attrs["default_string"] = attrStr("zz")
	}
	if r.IntN(30) == 0 {
		n.Attrs["values_int64s"] = ops.Attribute{Type: ops.AttrInts, Ints: []int64{1}} // [values] or [length]
	}
	// X: mostly keys, some not.
	x := randTensor(r, kt, shape, -5, 5, kt == tensor.Float || kt == tensor.Double)
	for i := range x.Len() {
		if r.IntN(3) > 0 {
			copyElementForTest(x, i, keys, r.IntN(count))
		}
	}
	return n, []tensor.Value{x}
}

// setFloatRounded sets element i of a float or double tensor.
func setFloatRounded(t *tensor.Tensor, i int, v float64) {
	if t.DataType() == tensor.Float {
		d, _ := tensor.Data[float32](t)
		d[i] = float32(v)
		return
	}
	d, _ := tensor.Data[float64](t)
	d[i] = v
}

// copyElementForTest sets element i of y to element j of x (same type).
func copyElementForTest(y *tensor.Tensor, i int, x *tensor.Tensor, j int) {
	if x.DataType() == tensor.String {
		y.Strings()[i] = x.Strings()[j]
		return
	}
	size := x.DataType().Size()
	copy(y.Bytes()[i*size:(i+1)*size], x.Bytes()[j*size:])
}

func init() { generators["TfIdfVectorizer"] = tfIdfGenerator }

// tfIdfGenerator draws a TfIdfVectorizer over a pool of small tokens, so
// that rows of such tokens hold many of its n-grams.
func tfIdfGenerator(r *rand.Rand) (*ops.Node, []tensor.Value) {
	maxGram := 1 + r.IntN(3)
	var pool []int64
	var counts []int64
	for length := 1; length <= maxGram; length++ {
		counts = append(counts, int64(len(pool)))
		for range r.IntN(4) {
			for range length {
				pool = append(pool, int64(r.IntN(4)))
			}
		}
	}
	grams := 0
	for i, start := range counts {
		end := int64(len(pool))
		if i+1 < len(counts) {
			end = counts[i+1]
		}
		grams += int(end-start) / (i + 1)
	}
	indexes := r.Perm(grams + r.IntN(2))[:grams]
	n := &ops.Node{OpType: "TfIdfVectorizer", Version: 9, Attrs: map[string]ops.Attribute{
		"mode":            attrStr([]string{"TF", "IDF", "TFIDF"}[r.IntN(3)]),
		"min_gram_length": attrInt(1 + r.IntN(maxGram)),
		"max_gram_length": attrInt(maxGram),
		"max_skip_count":  attrInt(r.IntN(4)),
		"ngram_counts":    {Type: ops.AttrInts, Ints: counts},
		"ngram_indexes":   attrInts(indexes...),
	}}
	size := 0
	for _, i := range indexes {
		size = max(size, i+1)
	}
	if r.IntN(2) == 0 {
		w := make([]float32, size)
		for i := range w {
			w[i] = float32(r.IntN(5)) / 2
		}
		n.Attrs["weights"] = attrFloats(w...)
	}
	shape := randShape(r, 1+r.IntN(2), 6)
	if r.IntN(3) == 0 {
		strs := make([]string, len(pool))
		for i, p := range pool {
			strs[i] = fmt.Sprint("w", p)
		}
		n.Attrs["pool_strings"] = attrStrs(strs...)
		x := tensor.MustNew(tensor.String, shape...)
		for i := range x.Strings() {
			x.Strings()[i] = fmt.Sprint("w", r.IntN(5))
		}
		return n, []tensor.Value{x}
	}
	n.Attrs["pool_int64s"] = ops.Attribute{Type: ops.AttrInts, Ints: pool}
	dt := []tensor.DataType{tensor.Int32, tensor.Int64}[r.IntN(2)]
	return n, []tensor.Value{randTensor(r, dt, shape, 0, 4, false)}
}

func init() { generators["TreeEnsemble"] = treeEnsembleGenerator }

// randomForest draws trees over features features: nodes that lead only
// to later nodes or to leaves (a circle now and then), and the leaves'
// targets.
type randomForest struct {
	features, targets, leaves int
	feature, yes, no          []int64
	yesLeaf, noLeaf           []int64
	values                    []float64
	modes                     []int
	roots                     []int64
	leafTarget                []int64
	leafWeight                []float64
}

func drawForest(r *rand.Rand, features, targets int) *randomForest {
	f := &randomForest{features: features, targets: targets}
	count := r.IntN(8)
	f.leaves = 1 + r.IntN(6)
	for i := range count {
		f.feature = append(f.feature, int64(r.IntN(max(features, 1))))
		f.modes = append(f.modes, r.IntN(7))
		f.values = append(f.values, float64(r.IntN(9)-4)/2)
		for _, side := range []*[]int64{&f.yes, &f.no} {
			leaf := i == count-1 || r.IntN(2) == 0
			if leaf {
				*side = append(*side, int64(r.IntN(f.leaves)))
			} else {
				*side = append(*side, int64(i+1+r.IntN(count-i-1)))
			}
			if side == &f.yes {
				f.yesLeaf = append(f.yesLeaf, int64(b2i(leaf)))
			} else {
				f.noLeaf = append(f.noLeaf, int64(b2i(leaf)))
			}
		}
	}
	if count > 1 && r.IntN(30) == 0 {
		f.yes[count-1], f.yesLeaf[count-1] = 0, 0 // a circle: [tree]
	}
	if count > 0 {
		for range 1 + r.IntN(3) {
			f.roots = append(f.roots, int64(r.IntN(count)))
		}
	}
	for range f.leaves {
		f.leafTarget = append(f.leafTarget, int64(r.IntN(targets)))
		f.leafWeight = append(f.leafWeight, float64(r.IntN(21)-10)/4)
	}
	return f
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func floatsTensor(dt tensor.DataType, v []float64) *tensor.Tensor {
	t := tensor.MustNew(dt, len(v))
	for i, x := range v {
		switch dt {
		case tensor.Float:
			d, _ := tensor.Data[float32](t)
			d[i] = float32(x)
		case tensor.Double:
			d, _ := tensor.Data[float64](t)
			d[i] = x
		default:
			d, _ := tensor.Data[tensor.F16](t)
			d[i] = tensor.F16FromFloat32(float32(x))
		}
	}
	return t
}

func treeEnsembleGenerator(r *rand.Rand) (*ops.Node, []tensor.Value) {
	dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16}[r.IntN(3)]
	features, targets := 1+r.IntN(3), 1+r.IntN(3)
	f := drawForest(r, features, targets)
	for len(f.roots) == 0 {
		f = drawForest(r, features, targets)
	}
	var members []float64
	for _, m := range f.modes {
		if m == 6 {
			for range r.IntN(3) {
				members = append(members, float64(r.IntN(9)-4)/2)
			}
			members = append(members, math.NaN())
		}
	}
	modes := tensor.MustNew(tensor.Uint8, len(f.modes))
	for i, m := range f.modes {
		modes.Bytes()[i] = byte(m)
	}
	missing := make([]int, len(f.modes))
	for i := range missing {
		missing[i] = r.IntN(2)
	}
	n := &ops.Node{OpType: "TreeEnsemble", Domain: mlDomain, Version: 5, Attrs: map[string]ops.Attribute{
		"aggregate_function":              attrInt(r.IntN(4)),
		"post_transform":                  attrInt([]int{0, 0, 1, 2, 3}[r.IntN(5)]),
		"n_targets":                       attrInt(targets),
		"leaf_targetids":                  {Type: ops.AttrInts, Ints: f.leafTarget},
		"leaf_weights":                    {Type: ops.AttrTensor, Tensor: floatsTensor(dt, f.leafWeight)},
		"membership_values":               {Type: ops.AttrTensor, Tensor: floatsTensor(dt, members)},
		"nodes_falseleafs":                {Type: ops.AttrInts, Ints: f.noLeaf},
		"nodes_falsenodeids":              {Type: ops.AttrInts, Ints: f.no},
		"nodes_featureids":                {Type: ops.AttrInts, Ints: f.feature},
		"nodes_missing_value_tracks_true": attrInts(missing...),
		"nodes_modes":                     {Type: ops.AttrTensor, Tensor: modes},
		"nodes_splits":                    {Type: ops.AttrTensor, Tensor: floatsTensor(dt, f.values)},
		"nodes_trueleafs":                 {Type: ops.AttrInts, Ints: f.yesLeaf},
		"nodes_truenodeids":               {Type: ops.AttrInts, Ints: f.yes},
		"tree_roots":                      {Type: ops.AttrInts, Ints: f.roots},
	}}
	x := randTensor(r, dt, []int{r.IntN(5), features}, -3, 3, true)
	for i := range x.Len() {
		if r.IntN(2) == 0 {
			copyElementForTest(x, i, floatsTensor(dt, []float64{float64(r.IntN(9)-4) / 2}), 0)
		}
	}
	return n, []tensor.Value{x}
}

func init() {
	seeded := func(r *rand.Rand, n *ops.Node) {
		n.Attrs["seed"] = attrFloat(float32(r.IntN(100)))
		if r.IntN(3) == 0 {
			n.Attrs["dtype"] = attrInt(int(randomGenTypes[r.IntN(len(randomGenTypes))]))
		}
	}
	for _, name := range []string{"RandomUniform", "RandomNormal"} {
		generators[name] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
			n := &ops.Node{OpType: name, Version: []int{1, 22}[r.IntN(2)], Attrs: map[string]ops.Attribute{
				"shape": attrInts(randShape(r, r.IntN(3), 5)...), "low": attrFloat(-2), "high": attrFloat(3),
				"mean": attrFloat(1), "scale": attrFloat(2)}}
			if name == "RandomUniform" {
				delete(n.Attrs, "mean")
				delete(n.Attrs, "scale")
			} else {
				delete(n.Attrs, "low")
				delete(n.Attrs, "high")
			}
			seeded(r, n)
			return n, nil
		}
	}
	for _, name := range []string{"RandomUniformLike", "RandomNormalLike", "Bernoulli"} {
		generators[name] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
			v := []int{1, 22}[r.IntN(2)]
			if name == "Bernoulli" {
				v = []int{15, 22}[r.IntN(2)]
			}
			n := &ops.Node{OpType: name, Version: v, Attrs: map[string]ops.Attribute{}}
			seeded(r, n)
			if name == "Bernoulli" && r.IntN(3) == 0 {
				n.Attrs["dtype"] = attrInt(int([]tensor.DataType{tensor.Bool, tensor.Int32, tensor.Uint8, tensor.Int64}[r.IntN(4)]))
			}
			dt := randomGenTypes[r.IntN(len(randomGenTypes))]
			return n, []tensor.Value{randTensor(r, dt, randShape(r, r.IntN(3), 5), 0, 1, false)}
		}
	}
}

var randomGenTypes = []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}

func init() { generators["TreeEnsembleRegressor"] = treeEnsembleRegressorGenerator }

// oldForest draws trees in the node-list form of TreeEnsembleRegressor
// and TreeEnsembleClassifier into attrs; votes names the vote lists.
func oldForest(r *rand.Rand, attrs map[string]ops.Attribute, features, targets int, votes string, double bool) {
	var treeIDs, nodeIDs, featureIDs, yes, no, missing, voteTree, voteNode, voteID []int
	var modes []string
	var values, weights []float64
	for tree := range 1 + r.IntN(3) {
		branches, leaves := r.IntN(4), 1+r.IntN(3)
		for i := range branches + leaves {
			treeIDs, nodeIDs = append(treeIDs, tree), append(nodeIDs, i)
			missing = append(missing, r.IntN(2))
			values = append(values, float64(r.IntN(9)-4)/2)
			if i < branches {
				modes = append(modes, []string{"BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"}[r.IntN(6)])
				featureIDs = append(featureIDs, r.IntN(features))
				yes = append(yes, i+1+r.IntN(branches+leaves-i-1))
				no = append(no, i+1+r.IntN(branches+leaves-i-1))
				continue
			}
			modes = append(modes, "LEAF")
			featureIDs, yes, no = append(featureIDs, 0), append(yes, 0), append(no, 0)
			for range 1 + r.IntN(2) {
				voteTree, voteNode, voteID = append(voteTree, tree), append(voteNode, i), append(voteID, r.IntN(targets))
				weights = append(weights, float64(r.IntN(21)-10)/4)
			}
		}
	}
	if r.IntN(30) == 0 && len(yes) > 0 {
		yes[0] = 99 // [tree]
	}
	floats := func(name string, v []float64) {
		if double {
			attrs[name+"_as_tensor"] = ops.Attribute{Type: ops.AttrTensor, Tensor: floatsTensor(tensor.Double, v)}
			return
		}
		f := make([]float32, len(v))
		for i, x := range v {
			f[i] = float32(x)
		}
		attrs[name] = attrFloats(f...)
	}
	attrs["nodes_treeids"], attrs["nodes_nodeids"] = attrInts(treeIDs...), attrInts(nodeIDs...)
	attrs["nodes_featureids"], attrs["nodes_modes"] = attrInts(featureIDs...), attrStrs(modes...)
	attrs["nodes_truenodeids"], attrs["nodes_falsenodeids"] = attrInts(yes...), attrInts(no...)
	attrs["nodes_missing_value_tracks_true"] = attrInts(missing...)
	attrs[votes+"_treeids"], attrs[votes+"_nodeids"], attrs[votes+"_ids"] = attrInts(voteTree...), attrInts(voteNode...), attrInts(voteID...)
	floats("nodes_values", values)
	floats(votes+"_weights", weights)
	if r.IntN(2) == 0 {
		base := make([]float64, targets)
		for i := range base {
			base[i] = float64(r.IntN(5)) / 4
		}
		floats("base_values", base)
	}
	attrs["post_transform"] = attrStr([]string{"NONE", "NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO"}[r.IntN(5)])
}

func treeEnsembleRegressorGenerator(r *rand.Rand) (*ops.Node, []tensor.Value) {
	version := []int{1, 3}[r.IntN(2)]
	features, targets := 1+r.IntN(3), 1+r.IntN(3)
	n := &ops.Node{OpType: "TreeEnsembleRegressor", Domain: mlDomain, Version: version, Attrs: map[string]ops.Attribute{
		"n_targets":          attrInt(targets),
		"aggregate_function": attrStr([]string{"SUM", "AVERAGE", "MIN", "MAX"}[r.IntN(4)]),
	}}
	oldForest(r, n.Attrs, features, targets, "target", version == 3 && r.IntN(2) == 0)
	dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Int64, tensor.Int32}[r.IntN(4)]
	return n, []tensor.Value{randTensor(r, dt, []int{r.IntN(5), features}, -3, 3, true)}
}

func init() { generators["TreeEnsembleClassifier"] = treeEnsembleClassifierGenerator }

// treeEnsembleClassifierGenerator draws classifiers of one to four labels,
// with two labels often in onnxruntime's binary case (the votes name one
// class, all weights positive or not) and with none, one or two base
// values, so that every rule of ops/treeensembleclassifier.go is met.
func treeEnsembleClassifierGenerator(r *rand.Rand) (*ops.Node, []tensor.Value) {
	version := []int{1, 3}[r.IntN(2)]
	features, classes := 1+r.IntN(3), []int{1, 2, 2, 2, 3, 4}[r.IntN(6)]
	n := &ops.Node{OpType: "TreeEnsembleClassifier", Domain: mlDomain, Version: version, NumOutputs: 2, Attrs: map[string]ops.Attribute{}}
	double := version == 3 && r.IntN(2) == 0
	oldForest(r, n.Attrs, features, classes, "class", double)
	if r.IntN(2) == 0 {
		labels := make([]string, classes)
		for i := range labels {
			labels[i] = string(rune('a' + i))
		}
		n.Attrs["classlabels_strings"] = attrStrs(labels...)
	} else {
		labels := make([]int, classes)
		for i := range labels {
			labels[i] = 3*i + 2
		}
		n.Attrs["classlabels_int64s"] = attrInts(labels...)
	}
	if classes == 2 && r.IntN(2) == 0 { // the binary case
		ids := n.Attrs["class_ids"].Ints
		one := int64(r.IntN(2))
		for i := range ids {
			ids[i] = one
		}
		if r.IntN(2) == 0 { // all weights positive
			if w, ok := n.Attrs["class_weights"]; ok {
				for i, v := range w.Floats {
					w.Floats[i] = float32(math.Abs(float64(v))) / 4
				}
			} else {
				d, _ := tensor.Data[float64](n.Attrs["class_weights_as_tensor"].Tensor)
				for i, v := range d {
					d[i] = math.Abs(v) / 4
				}
			}
		}
	}
	if classes == 2 && r.IntN(4) == 0 {
		if double {
			n.Attrs["base_values_as_tensor"] = ops.Attribute{Type: ops.AttrTensor, Tensor: floatsTensor(tensor.Double, []float64{0.25})}
			delete(n.Attrs, "base_values")
		} else {
			n.Attrs["base_values"] = attrFloats(-0.5)
			delete(n.Attrs, "base_values_as_tensor")
		}
	}
	if r.IntN(6) == 0 {
		n.Attrs["post_transform"] = attrStr("PROBIT")
	}
	dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Int64, tensor.Int32}[r.IntN(4)]
	return n, []tensor.Value{randTensor(r, dt, []int{r.IntN(5), features}, -3, 3, true)}
}

func init() {
	generators["SVMClassifier"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) { return svmGenerator(r, "SVMClassifier") }
	generators["SVMRegressor"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) { return svmGenerator(r, "SVMRegressor") }
}

// svmGenerator draws SVM machines of every kernel, with and without
// support vectors and (for the classifier) probabilities. Weights are
// eighths and inputs halves, so that the sums of products are exact in
// float64 whatever their order (the fast engine's GEMM may sum otherwise).
func svmGenerator(r *rand.Rand, op string) (*ops.Node, []tensor.Value) {
	eighths := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(r.IntN(17)-8) / 8
		}
		return v
	}
	features := 1 + r.IntN(3)
	n := &ops.Node{OpType: op, Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{
		"kernel_type":    attrStr([]string{"LINEAR", "POLY", "RBF", "SIGMOID"}[r.IntN(4)]),
		"kernel_params":  attrFloats(0.5, float32(r.IntN(3)-1)/2, float32(1+r.IntN(3))),
		"post_transform": attrStr([]string{"NONE", "NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"}[r.IntN(6)]),
	}}
	if op == "SVMRegressor" {
		v := r.IntN(4)
		n.Attrs["n_supports"], n.Attrs["rho"], n.Attrs["one_class"] = attrInt(v), attrFloats(eighths(1)...), attrInt(r.IntN(3)/2)
		if v > 0 {
			n.Attrs["support_vectors"], n.Attrs["coefficients"] = attrFloats(eighths(v*features)...), attrFloats(eighths(v)...)
		} else {
			n.Attrs["coefficients"] = attrFloats(eighths(features)...)
		}
	} else {
		n.NumOutputs = 2
		e := 2 + r.IntN(3)
		labels := make([]int, e)
		for i := range labels {
			labels[i] = 3*i + 1
		}
		n.Attrs["classlabels_ints"] = attrInts(labels...)
		pairs := e * (e - 1) / 2
		if r.IntN(4) == 0 {
			n.Attrs["coefficients"], n.Attrs["rho"] = attrFloats(eighths(e*features)...), attrFloats(eighths(1)...)
		} else {
			per := make([]int, e)
			v := 0
			for i := range per {
				per[i] = 1 + r.IntN(2)
				v += per[i]
			}
			n.Attrs["vectors_per_class"] = attrInts(per...)
			n.Attrs["support_vectors"], n.Attrs["coefficients"] = attrFloats(eighths(v*features)...), attrFloats(eighths((e-1)*v)...)
			n.Attrs["rho"] = attrFloats(eighths(pairs)...)
			if r.IntN(2) == 0 {
				n.Attrs["prob_a"], n.Attrs["prob_b"] = attrFloats(eighths(pairs)...), attrFloats(eighths(pairs)...)
			}
		}
	}
	if op == "SVMRegressor" && n.Attrs["n_supports"].Int > 0 {
		// The regressor's weighted sum of kernel values is a GEMM in the
		// fast engine, which may add in another order: only the kernels
		// whose values are exact (small dyadic numbers) compare bit for bit.
		n.Attrs["kernel_type"] = attrStr([]string{"LINEAR", "POLY"}[r.IntN(2)])
	}
	dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Int64, tensor.Int32}[r.IntN(4)]
	rows := r.IntN(4)
	halves := make([]float64, rows*features)
	for i := range halves {
		halves[i] = float64(r.IntN(9)-4) / 2
	}
	var x *tensor.Tensor
	switch dt {
	case tensor.Double:
		x = tensor.MustFromSlice(halves, rows, features)
	case tensor.Float:
		f := make([]float32, len(halves))
		for i, h := range halves {
			f[i] = float32(h)
		}
		x = tensor.MustFromSlice(f, rows, features)
	case tensor.Int64:
		d := make([]int64, len(halves))
		for i, h := range halves {
			d[i] = int64(h)
		}
		x = tensor.MustFromSlice(d, rows, features)
	default:
		d := make([]int32, len(halves))
		for i, h := range halves {
			d[i] = int32(h)
		}
		x = tensor.MustFromSlice(d, rows, features)
	}
	return n, []tensor.Value{x}
}
