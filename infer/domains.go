package infer

import (
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// Operators of the other ONNX domains (ai.onnx.ml, the training preview)
// and the text and signal operators, by their ONNX shape rules.

func init() {
	register(optimizerRule, "ai.onnx.preview.training.Adagrad", "ai.onnx.preview.training.Adam",
		"ai.onnx.preview.training.Momentum")
	register(labelEncoderRule, "ai.onnx.ml.LabelEncoder")
	register(unary(nil), "ai.onnx.ml.Binarizer")
	register(arrayFeatureExtractorRule, "ai.onnx.ml.ArrayFeatureExtractor")
	register(treeEnsembleRule, "ai.onnx.ml.TreeEnsemble", "ai.onnx.ml.TreeEnsembleRegressor")
	register(floatOfShapeRule, "ai.onnx.ml.Scaler", "ai.onnx.ml.Normalizer")
	register(unary(nil), "ai.onnx.ml.Imputer")
	register(categoryMapperRule, "ai.onnx.ml.CategoryMapper")
	register(oneHotEncoderRule, "ai.onnx.ml.OneHotEncoder")
	register(featureVectorizerRule, "ai.onnx.ml.FeatureVectorizer")
	register(linearRule, "ai.onnx.ml.LinearRegressor", "ai.onnx.ml.LinearClassifier")
	register(treeClassifierRule, "ai.onnx.ml.TreeEnsembleClassifier")
	register(svmRule, "ai.onnx.ml.SVMClassifier", "ai.onnx.ml.SVMRegressor")
	register(zipMapRule, "ai.onnx.ml.ZipMap")
	register(castMapRule, "ai.onnx.ml.CastMap")
	register(dictVectorizerRule, "ai.onnx.ml.DictVectorizer")
	register(stringNormalizerRule, "StringNormalizer")
	register(tfIdfRule, "TfIdfVectorizer")
	register(dftRule, "DFT")
	register(binary(tensor.String, nil), "StringConcat")
	register(stringSplitRule, "StringSplit")
	register(col2ImRule, "Col2Im")
}

// zipMapRule: a sequence of maps from the labels (int64 or string) to
// float, one a row of X.
func zipMapRule(c *call, in []*Value) ([]*Value, error) {
	key := tensor.Int64
	if c.node.Has("classlabels_strings") {
		key = tensor.String
	}
	return []*Value{{Kind: graph.KindSequence, Key: key, Type: tensor.Float}}, nil
}

// castMapRule: [1, K] of the type cast_to names; K is max_map with SPARSE,
// the map's size (unknown) with DENSE.
func castMapRule(c *call, in []*Value) ([]*Value, error) {
	dt := map[string]tensor.DataType{"TO_FLOAT": tensor.Float, "TO_STRING": tensor.String, "TO_INT64": tensor.Int64}[c.str("cast_to", "TO_FLOAT")]
	width := c.fresh()
	if c.str("map_form", "DENSE") == "SPARSE" {
		width = graph.Const(c.int("max_map", 1))
	}
	return []*Value{ranked(dt, []graph.Dim{graph.Const(1), width})}, nil
}

// dictVectorizerRule: [1, V] of the map's value type, V the vocabulary's
// length.
func dictVectorizerRule(c *call, in []*Value) ([]*Value, error) {
	ints, _ := c.ints("int64_vocabulary")
	words := len(ints) + len(c.node.Attrs["string_vocabulary"].Strings)
	return []*Value{ranked(typeOf(in, 0), []graph.Dim{graph.Const(1), graph.Const(int64(words))})}, nil
}

// stringSplitRule: Y is X's shape with the most substrings as a new last
// axis; Z, the counts, has X's shape.
func stringSplitRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() < 0 {
		return []*Value{Unknown(tensor.String), Unknown(tensor.Int64)}, nil
	}
	y := ranked(tensor.String, append(append([]graph.Dim{}, x.Shape...), c.fresh()))
	return []*Value{y, withType(x, tensor.Int64)}, nil
}

// col2ImRule: [N, C*prod(block_shape), L] to [N, C, image_shape...].
func col2ImRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	image, n := shapeInput(input(in, 1))
	block, _ := shapeInput(input(in, 2))
	dt := typeOf(in, 0)
	if x.Rank() != 3 || n < 0 {
		return []*Value{Unknown(dt)}, nil
	}
	ch := c.fresh()
	if block != nil {
		prod := graph.Const(1)
		for _, b := range block {
			prod = prod.Mul(b)
		}
		ch = x.Shape[1].FloorDiv(prod)
	}
	if image == nil {
		image = c.freshShape(n)
	}
	return []*Value{ranked(dt, append([]graph.Dim{x.Shape[0], ch}, image...))}, nil
}

// optimizerRule: after the rate R and the step count T come n tensors to
// update and the gradients and states of each; the outputs are the new
// tensors and states, each of the shape of the tensor it updates.
func optimizerRule(c *call, in []*Value) ([]*Value, error) {
	groups := c.node.NumOutputs
	perTensor := 3 // X, G, H (Adagrad)
	switch c.node.OpType {
	case "Adam":
		perTensor = 4 // X, G, V, H
	case "Momentum":
		perTensor = 3 // X, G, V
	}
	n := (len(in) - 2) / perTensor
	if n == 0 || groups%n != 0 {
		return nil, c.errorf("inputs", "%d inputs for %d outputs", len(in), groups)
	}
	out := make([]*Value, groups)
	for i := range out {
		out[i] = same(input(in, 2+i%n))
	}
	return out, nil
}

// labelEncoderRule: the input's shape, of the type of the values listed.
func labelEncoderRule(c *call, in []*Value) ([]*Value, error) {
	dt := tensor.Undefined
	switch {
	case c.node.Has("values_strings"):
		dt = tensor.String
	case c.node.Has("values_int64s"):
		dt = tensor.Int64
	case c.node.Has("values_floats"):
		dt = tensor.Float
	}
	if t, err := c.node.TensorAttr("values_tensor"); err == nil && t != nil {
		dt = t.DataType()
	}
	return []*Value{withType(input(in, 0), dt)}, nil
}

// stringNormalizerRule: [C] or [1, C] with C the strings left, unknown.
func stringNormalizerRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() == 2 {
		return []*Value{ranked(tensor.String, []graph.Dim{x.Shape[0], c.fresh()})}, nil
	}
	return []*Value{ranked(tensor.String, []graph.Dim{c.fresh()})}, nil
}

// tfIdfRule: [C] -> [max(ngram_indexes)+1], [N, C] -> [N, that].
func tfIdfRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	idx, _ := c.ints("ngram_indexes")
	size := int64(0)
	for _, i := range idx {
		size = max(size, i+1)
	}
	if x.Rank() == 2 {
		return []*Value{ranked(tensor.Float, []graph.Dim{x.Shape[0], graph.Const(size)})}, nil
	}
	return []*Value{ranked(tensor.Float, []graph.Dim{graph.Const(size)})}, nil
}

// dftRule: the input with its last axis 2 (complex); the transformed axis
// dft_length long, floor(n/2)+1 when onesided.
func dftRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() < 2 {
		return []*Value{same(x)}, nil
	}
	out := same(x)
	onesided := c.int("onesided", 0) == 1
	inverse := c.int("inverse", 0) == 1
	last := graph.Const(2)
	if onesided && inverse {
		last = graph.Const(1)
	}
	out.Shape[x.Rank()-1] = last
	axis := c.int("axis", 1)
	if c.version() >= 20 {
		axis = -2
		if a := input(in, 2); a != nil {
			if v, ok := knownInts(a); ok && len(v) == 1 {
				axis = v[0]
			} else {
				out.Shape = c.freshShape(x.Rank())
				out.Shape[x.Rank()-1] = last
				return []*Value{out}, nil
			}
		}
	}
	k, err := c.normAxis(axis, x.Rank())
	if err != nil {
		return nil, err
	}
	n := x.Shape[k]
	if l := input(in, 1); l != nil {
		if len(l.Elems) == 1 {
			n = l.Elems[0]
		} else {
			n = c.fresh()
		}
	}
	switch {
	case onesided && inverse:
		// irfft: a real signal of dft_length, 2*(n-1) by default.
		if input(in, 1) == nil {
			n = n.Sub(graph.Const(1)).Mul(graph.Const(2))
		}
	case onesided:
		n = n.FloorDiv(graph.Const(2)).Add(graph.Const(1))
	}
	out.Shape[k] = n
	return []*Value{out}, nil
}

func init() {
	register(randomRule, "RandomNormal", "RandomUniform")
	register(multinomialRule, "Multinomial")
	register(stftRule, "STFT")
	register(melRule, "MelWeightMatrix")
	register(imageDecoderRule, "ImageDecoder")
}

// randomRule: the shape attribute, of type dtype (float by default).
func randomRule(c *call, in []*Value) ([]*Value, error) {
	dt := tensor.DataType(c.int("dtype", int64(tensor.Float)))
	shape, ok := c.ints("shape")
	if !ok {
		return nil, c.errorf("shape", "the shape attribute is missing")
	}
	dims := make([]graph.Dim, len(shape))
	for i, d := range shape {
		dims[i] = graph.Const(d)
	}
	return []*Value{ranked(dt, dims)}, nil
}

// multinomialRule: [batch, sample_size], int32 by default.
func multinomialRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	dt := tensor.DataType(c.int("dtype", int64(tensor.Int32)))
	batch := c.fresh()
	if x.Rank() == 2 {
		batch = x.Shape[0]
	}
	return []*Value{ranked(dt, []graph.Dim{batch, graph.Const(c.int("sample_size", 1))})}, nil
}

// stftRule: [batch, frames, bins, 2] with frames floor((length -
// frame_length) / frame_step) + 1 and bins frame_length, or
// floor(frame_length/2)+1 when onesided (the default).
func stftRule(c *call, in []*Value) ([]*Value, error) {
	x, step, window, length := input(in, 0), input(in, 1), input(in, 2), input(in, 3)
	dt := typeOf(in, 0)
	if x.Rank() != 3 {
		return []*Value{ranked(dt, c.freshShape(4))}, nil
	}
	frame := c.fresh()
	switch {
	case length != nil && len(length.Elems) == 1:
		frame = length.Elems[0]
	case window.Rank() == 1:
		frame = window.Shape[0]
	}
	frames := c.fresh()
	if step != nil && len(step.Elems) == 1 {
		frames = x.Shape[1].Sub(frame).FloorDiv(step.Elems[0]).Add(graph.Const(1))
	}
	bins := frame
	if c.int("onesided", 1) == 1 {
		bins = frame.FloorDiv(graph.Const(2)).Add(graph.Const(1))
	}
	return []*Value{ranked(dt, []graph.Dim{x.Shape[0], frames, bins, graph.Const(2)})}, nil
}

// melRule: [floor(dft_length/2)+1, num_mel_bins] of output_datatype.
func melRule(c *call, in []*Value) ([]*Value, error) {
	dt := tensor.DataType(c.int("output_datatype", int64(tensor.Float)))
	bins, dft := c.fresh(), c.fresh()
	if v := input(in, 0); v != nil && len(v.Elems) == 1 {
		bins = v.Elems[0]
	}
	if v := input(in, 1); v != nil && len(v.Elems) == 1 {
		dft = v.Elems[0].FloorDiv(graph.Const(2)).Add(graph.Const(1))
	}
	return []*Value{ranked(dt, []graph.Dim{dft, bins})}, nil
}

// imageDecoderRule: [height, width, channels] uint8, both sizes in the
// encoded data; 1 channel for Grayscale, 3 otherwise.
func imageDecoderRule(c *call, in []*Value) ([]*Value, error) {
	ch := graph.Const(3)
	if c.str("pixel_format", "RGB") == "Grayscale" {
		ch = graph.Const(1)
	}
	return []*Value{ranked(tensor.Uint8, []graph.Dim{c.fresh(), c.fresh(), ch})}, nil
}

// arrayFeatureExtractorRule: X's shape with the last axis the number of
// indices in Y; a 1-D X gives [1, that].
func arrayFeatureExtractorRule(c *call, in []*Value) ([]*Value, error) {
	x, y := input(in, 0), input(in, 1)
	dt := typeOf(in, 0)
	if x.Rank() < 1 {
		return []*Value{Unknown(dt)}, nil
	}
	count := c.fresh()
	if y.Rank() >= 0 {
		count = graph.Const(1)
		for _, d := range y.Shape {
			count = count.Mul(d)
		}
	}
	if x.Rank() == 1 {
		return []*Value{ranked(dt, []graph.Dim{graph.Const(1), count})}, nil
	}
	return []*Value{ranked(dt, append(append([]graph.Dim{}, x.Shape[:x.Rank()-1]...), count))}, nil
}

// treeEnsembleRule: [N, n_targets] of X's type (TreeEnsemble) or float
// (TreeEnsembleRegressor); [F] is one row.
func treeEnsembleRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	dt := typeOf(in, 0)
	if c.node.OpType == "TreeEnsembleRegressor" {
		dt = tensor.Float
	}
	targets, err := c.node.Int("n_targets", 0)
	if err != nil || targets < 1 {
		return []*Value{Unknown(dt)}, nil
	}
	switch x.Rank() {
	case 1:
		return []*Value{ranked(dt, []graph.Dim{graph.Const(1), graph.Const(targets)})}, nil
	case 2:
		return []*Value{ranked(dt, []graph.Dim{x.Shape[0], graph.Const(targets)})}, nil
	}
	return []*Value{ranked(dt, []graph.Dim{c.fresh(), graph.Const(targets)})}, nil
}

// floatOfShapeRule: float of X's shape (Scaler, Normalizer).
func floatOfShapeRule(c *call, in []*Value) ([]*Value, error) {
	return []*Value{withType(input(in, 0), tensor.Float)}, nil
}

// categoryMapperRule: X's shape, int64 for string and string for int64.
func categoryMapperRule(c *call, in []*Value) ([]*Value, error) {
	dt := tensor.String
	if typeOf(in, 0) == tensor.String {
		dt = tensor.Int64
	}
	return []*Value{withType(input(in, 0), dt)}, nil
}

// oneHotEncoderRule: float, X's shape and the number of categories.
func oneHotEncoderRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() < 0 {
		return []*Value{Unknown(tensor.Float)}, nil
	}
	ints, _ := c.ints("cats_int64s")
	count := int64(len(ints))
	if a, ok := c.node.Attrs["cats_strings"]; ok {
		count += int64(len(a.Strings))
	}
	return []*Value{ranked(tensor.Float, append(append([]graph.Dim{}, x.Shape...), graph.Const(count)))}, nil
}

// featureVectorizerRule: float [N, sum of inputdimensions].
func featureVectorizerRule(c *call, in []*Value) ([]*Value, error) {
	dims, _ := c.ints("inputdimensions")
	total := int64(0)
	for _, d := range dims {
		total += d
	}
	return []*Value{ranked(tensor.Float, []graph.Dim{mlRowsDim(c, input(in, 0)), graph.Const(total)})}, nil
}

// mlRowsDim is N of an X of [N, C] or [C] (1).
func mlRowsDim(c *call, x *Value) graph.Dim {
	switch x.Rank() {
	case 1:
		return graph.Const(1)
	case 2:
		return x.Shape[0]
	}
	return c.fresh()
}

// linearRule: LinearRegressor's float [N, targets]; LinearClassifier's
// labels [N] (int64 or string as the labels) and float scores [N, E] (2
// in the binary form of one score per row).
func linearRule(c *call, in []*Value) ([]*Value, error) {
	n := mlRowsDim(c, input(in, 0))
	if c.node.OpType == "LinearRegressor" {
		return []*Value{ranked(tensor.Float, []graph.Dim{n, graph.Const(c.int("targets", 1))})}, nil
	}
	labels, dt := mlClassLabels(c, "classlabels_ints")
	return []*Value{ranked(dt, []graph.Dim{n}), ranked(tensor.Float, []graph.Dim{n, graph.Const(labels)})}, nil
}

// mlClassLabels is the number of labels of a classifier and their type:
// the integers of intsName, or classlabels_strings.
func mlClassLabels(c *call, intsName string) (int64, tensor.DataType) {
	ints, _ := c.ints(intsName)
	if a, ok := c.node.Attrs["classlabels_strings"]; ok && len(a.Strings) > 0 {
		return int64(len(a.Strings)), tensor.String
	}
	return int64(len(ints)), tensor.Int64
}

// treeClassifierRule: TreeEnsembleClassifier's labels [N] and float
// scores [N, E].
func treeClassifierRule(c *call, in []*Value) ([]*Value, error) {
	n := mlRowsDim(c, input(in, 0))
	labels, dt := mlClassLabels(c, "classlabels_int64s")
	return []*Value{ranked(dt, []graph.Dim{n}), ranked(tensor.Float, []graph.Dim{n, graph.Const(labels)})}, nil
}

// svmRule: SVMRegressor's float [N, 1]; SVMClassifier's labels [N] and
// float scores [N, E], or, with support vectors and no probabilities, the
// one-vs-one scores [N, E(E-1)/2] (at least 2).
func svmRule(c *call, in []*Value) ([]*Value, error) {
	n := mlRowsDim(c, input(in, 0))
	if c.node.OpType == "SVMRegressor" {
		return []*Value{ranked(tensor.Float, []graph.Dim{n, graph.Const(1)})}, nil
	}
	labels, dt := mlClassLabels(c, "classlabels_ints")
	width := labels
	per, _ := c.ints("vectors_per_class")
	vectors := int64(0)
	for _, v := range per {
		vectors += v
	}
	if pa, _, _ := c.node.Floats("prob_a"); vectors > 0 && len(pa) == 0 {
		width = max(labels*(labels-1)/2, 2)
	}
	return []*Value{ranked(dt, []graph.Dim{n}), ranked(tensor.Float, []graph.Dim{n, graph.Const(width)})}, nil
}
