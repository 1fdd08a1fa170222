package reference_test

import (
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// More refusal branches, one row each: attributes a version does not
// define, inputs of a type or shape an operator refuses, in every domain.
func TestReferenceBranchRefusalsMore(t *testing.T) {
	x2 := func() *tensor.Tensor { return f32(1, 2) }
	m12 := func() *tensor.Tensor { return tensor.MustNew(tensor.Float, 1, 2) }
	bools := func() *tensor.Tensor { return tensor.MustNew(tensor.Bool, 1, 2) }
	img := func() *tensor.Tensor { return tensor.MustNew(tensor.Float, 1, 1, 4, 4) }
	a := func(kv ...any) map[string]ops.Attribute { return graphAttrs(kv...) }
	sonnx := ops.NewOptions(ops.WithProfile(ops.ProfileSONNX))
	const ml, training = mlDomainName, "ai.onnx.preview.training"
	for _, c := range []struct {
		name   string
		domain string
		op     string
		ver    int
		outs   int
		opt    *ops.Options
		attrs  map[string]ops.Attribute
		in     []tensor.Value
		rule   string
		msg    string
	}{
		{"AffineGrid size of three", "", "AffineGrid", 20, 1, nil, nil, []tensor.Value{tensor.MustNew(tensor.Float, 1, 2, 3), int64s(1, 1, 2)}, "size", "AffineGrid-20 [size] size has 3 elements, expected 4 or 5"},
		{"ArgMax-11 select_last_index", "", "ArgMax", 11, 1, nil, a("select_last_index", one(1)), []tensor.Value{x2()}, "attribute", "ArgMax-11 [attribute] attribute select_last_index is not defined in version 11"},
		{"SONNX ArgMax axis outside", "", "ArgMax", 13, 1, sonnx, a("axis", one(3), "keepdims", one(1), "select_last_index", one(0)), []tensor.Value{x2()}, "axis [C2]", "ArgMax-13 axis [C2] axis 3 is outside the rank 1"},
		{"AveragePool-1 count_include_pad", "", "AveragePool", 1, 1, nil, a("kernel_shape", ints(2, 2), "count_include_pad", one(1)), []tensor.Value{img()}, "attribute", "AveragePool-1 [attribute] attribute count_include_pad is not defined in version 1"},
		{"BatchNormalization-15 running statistics at inference", "", "BatchNormalization", 15, 4, nil, nil, []tensor.Value{tensor.MustNew(tensor.Float, 1, 1, 2), f32(1), f32(0), f32(0), f32(1)}, "outputs", "BatchNormalization-15 [outputs] running statistics outside training mode"},
		{"Celu alpha 0", "", "Celu", 12, 1, nil, a("alpha", attrFloat(0)), []tensor.Value{x2()}, "alpha", "Celu-12 [alpha] alpha is 0; Celu divides by it"},
		{"ConvInteger x_zero_point of two", "", "ConvInteger", 10, 1, nil, nil, []tensor.Value{bytesRamp(1, 1, 3, 3), bytesRamp(1, 1, 2, 2), bytesRamp(2)}, "x_zero_point", "ConvInteger-10 [x_zero_point] x_zero_point has shape [2]"},
		{"ConvInteger w_zero_point of three", "", "ConvInteger", 10, 1, nil, nil, []tensor.Value{bytesRamp(1, 1, 3, 3), bytesRamp(1, 1, 2, 2), nil, bytesRamp(3)}, "w_zero_point", "ConvInteger-10 [w_zero_point] w_zero_point has shape [3], M is 1"},
		{"DeformConv rank 3", "", "DeformConv", 22, 1, nil, nil, []tensor.Value{tensor.MustNew(tensor.Float, 1, 1, 4), tensor.MustNew(tensor.Float, 1, 1, 2), tensor.MustNew(tensor.Float, 1, 2, 3)}, "input-rank", "DeformConv-22 [input-rank] X has rank 3, expected 4"},
		{"Mod fmod 0 of floats", "", "Mod", 13, 1, nil, nil, []tensor.Value{x2(), x2()}, "fmod", "Mod-13 [fmod] fmod must be 1 for float input"},
		{"GatherND batch dims differ", "", "GatherND", 12, 1, nil, a("batch_dims", one(1)), []tensor.Value{tensor.MustNew(tensor.Float, 2, 2), tensor.MustNew(tensor.Int64, 3, 1)}, "batch_dims", "GatherND-12 [batch_dims] the first 1 dims differ"},
		{"GroupNormalization stash_type int", "", "GroupNormalization", 21, 1, nil, a("num_groups", one(1), "stash_type", one(6)), []tensor.Value{tensor.MustNew(tensor.Float, 1, 1, 2), f32(1), f32(0)}, "stash_type", "GroupNormalization-21 [stash_type] stash_type 6 is not a float type"},
		{"RMSNormalization stash_type int", "", "RMSNormalization", 23, 1, nil, a("stash_type", one(6)), []tensor.Value{m12(), f32(1, 1)}, "stash_type", "RMSNormalization-23 [stash_type] stash_type 6 is not a float type"},
		{"MaxUnpool auto_pad", "", "MaxUnpool", 22, 1, nil, a("kernel_shape", ints(2, 2), "auto_pad", str("VALID")), []tensor.Value{img(), tensor.MustNew(tensor.Int64, 1, 1, 4, 4)}, "attribute", "MaxUnpool-22 [attribute] MaxUnpool has no attribute auto_pad"},
		{"MelWeightMatrix float bins", "", "MelWeightMatrix", 17, 1, nil, nil, []tensor.Value{f32(4), tensor.Scalar(int64(8)), tensor.Scalar(int64(16000)), tensor.Scalar(float32(0)), tensor.Scalar(float32(4000))}, "num_mel_bins", "MelWeightMatrix-17 [num_mel_bins] num_mel_bins tensor(float)[1]"},
		{"MelWeightMatrix string output", "", "MelWeightMatrix", 17, 1, nil, a("output_datatype", one(8)), []tensor.Value{tensor.Scalar(int64(4)), tensor.Scalar(int64(8)), tensor.Scalar(int64(16000)), tensor.Scalar(float32(0)), tensor.Scalar(float32(4000))}, "output_datatype", "MelWeightMatrix-17 [output_datatype] output_datatype 8"},
		{"OneHot depth of two", "", "OneHot", 11, 1, nil, nil, []tensor.Value{int64s(0, 1), int64s(2, 2), f32(0, 1)}, "depth", "OneHot-11 [depth] depth must be one number"},
		{"OneHot uint8 depth", "", "OneHot", 11, 1, nil, nil, []tensor.Value{int64s(0, 1), tensor.Scalar(uint8(2)), f32(0, 1)}, "ok", ""},
		{"PRelu bool", "", "PRelu", 16, 1, nil, nil, []tensor.Value{bools(), bools()}, "type", "PRelu-16 [type] X of type bool is not allowed in version 16"},
		{"RegexFullMatch no pattern", "", "RegexFullMatch", 20, 1, nil, nil, []tensor.Value{tensor.MustFromSlice([]string{"a"}, 1)}, "pattern", "RegexFullMatch-20 [pattern] pattern is required"},
		{"RotaryEmbedding odd dim", "", "RotaryEmbedding", 23, 1, nil, a("rotary_embedding_dim", one(3)), []tensor.Value{tensor.MustNew(tensor.Float, 1, 1, 2, 4), tensor.MustNew(tensor.Float, 2, 2), tensor.MustNew(tensor.Float, 2, 2), tensor.MustNew(tensor.Int64, 1, 2)}, "rotary_embedding_dim", "RotaryEmbedding-23 [rotary_embedding_dim] 3 elements rotated: an even number is needed"},
		{"SequenceConstruct nothing", "", "SequenceConstruct", 11, 1, nil, nil, nil, "input", "SequenceConstruct-11 [input] no inputs"},
		{"SONNX Softmax axis outside", "", "Softmax", 13, 1, sonnx, a("axis", one(3)), []tensor.Value{x2()}, "axis [C2]", "Softmax-13 axis [C2] axis 3 is outside the rank 1"},
		{"STFT int32 signal", "", "STFT", 17, 1, nil, nil, []tensor.Value{tensor.MustNew(tensor.Int32, 1, 8, 1), tensor.Scalar(int64(2))}, "type", "STFT-17 [type] signal is int32"},
		{"TopK-1 largest", "", "TopK", 1, 2, nil, a("k", one(1), "largest", one(1)), []tensor.Value{x2()}, "attribute", "TopK-1 [attribute] attribute largest is not defined in version 1"},
		{"Unsqueeze-1 no axes", "", "Unsqueeze", 1, 1, nil, nil, []tensor.Value{x2()}, "axes", "Unsqueeze-1 [axes] attribute axes is required"},
		{"Upsample-10", "", "Upsample", 10, 1, nil, nil, []tensor.Value{img(), f32(1, 1, 2, 2)}, "deprecated", "Upsample-10 [deprecated] Upsample is deprecated from opset 10: use Resize"},
		{"Upsample-7 no scales", "", "Upsample", 7, 1, nil, nil, []tensor.Value{img()}, "scales", "Upsample-7 [scales] attribute scales is required"},
		{"Sum of nothing", "", "Sum", 13, 1, nil, nil, nil, "input", "Sum-13 [input] at least one input is required"},
		{"Sum-6 of two shapes", "", "Sum", 6, 1, nil, nil, []tensor.Value{x2(), m12()}, "shape", "Sum-6 [shape] input 1 of shape [1 2] must have input 0's shape [2]"},
		{"MaxPool-1 dilations", "", "MaxPool", 1, 1, nil, a("kernel_shape", ints(2, 2), "dilations", ints(1, 1)), []tensor.Value{img()}, "attribute", "MaxPool-1 [attribute] attribute dilations is not defined in version 1"},
		{"StringNormalizer locale of an int", "", "StringNormalizer", 10, 1, nil, a("locale", one(1)), []tensor.Value{tensor.MustFromSlice([]string{"a"}, 1)}, "attribute", "StringNormalizer-10 [attribute] attribute locale is of type int, expected string"},
		// ai.onnx.ml
		{"FeatureVectorizer bool", ml, "FeatureVectorizer", 1, 1, nil, a("inputdimensions", ints(2)), []tensor.Value{bools()}, "type", "FeatureVectorizer-1 [type] inputs must be int32, int64, float or double"},
		{"FeatureVectorizer rows differ", ml, "FeatureVectorizer", 1, 1, nil, a("inputdimensions", ints(1, 1)), []tensor.Value{tensor.MustNew(tensor.Float, 2, 1), tensor.MustNew(tensor.Float, 3, 1)}, "rows", "FeatureVectorizer-1 [rows] inputs of one number of rows"},
		{"FeatureVectorizer negative dimension", ml, "FeatureVectorizer", 1, 1, nil, a("inputdimensions", ints(-1)), []tensor.Value{m12()}, "inputdimensions", "FeatureVectorizer-1 [inputdimensions] a size out of range"},
		{"Imputer bool", ml, "Imputer", 1, 1, nil, a("imputed_value_floats", attrFloats(0), "replaced_value_float", attrFloat(0)), []tensor.Value{bools()}, "type", "Imputer-1 [type] X must be float, double, int64 or int32"},
		{"Normalizer bool", ml, "Normalizer", 1, 1, nil, a("norm", str("L1")), []tensor.Value{bools()}, "type", "Normalizer-1 [type] X must be float, double, int64 or int32"},
		{"Normalizer norm of an int", ml, "Normalizer", 1, 1, nil, a("norm", one(1)), []tensor.Value{m12()}, "attribute", "Normalizer-1 [attribute] attribute norm is of type int, expected string"},
		{"Scaler bool", ml, "Scaler", 1, 1, nil, a("offset", attrFloats(0), "scale", attrFloats(1)), []tensor.Value{bools()}, "type", "Scaler-1 [type] X must be float, double, int64 or int32"},
		{"Scaler no scale", ml, "Scaler", 1, 1, nil, a("offset", attrFloats(0)), []tensor.Value{m12()}, "attribute", "Scaler-1 [attribute] offset and scale are required"},
		{"LinearClassifier intercepts", ml, "LinearClassifier", 1, 2, nil, a("coefficients", attrFloats(1, 2), "classlabels_ints", ints(0), "intercepts", attrFloats(0, 0, 0)), []tensor.Value{m12()}, "intercepts", "LinearClassifier-1 [intercepts] one intercept per score"},
		{"LinearRegressor intercepts", ml, "LinearRegressor", 1, 1, nil, a("coefficients", attrFloats(1, 2), "intercepts", attrFloats(0, 0)), []tensor.Value{m12()}, "intercepts", "LinearRegressor-1 [intercepts] one intercept per target"},
		{"LinearRegressor bool", ml, "LinearRegressor", 1, 1, nil, a("coefficients", attrFloats(1, 2)), []tensor.Value{bools()}, "type", "LinearRegressor-1 [type] X must be float, double, int64 or int32"},
		{"OneHotEncoder bool", ml, "OneHotEncoder", 1, 1, nil, a("cats_int64s", ints(1)), []tensor.Value{bools()}, "type", "OneHotEncoder-1 [type] X must be string, int64, int32, float or double"},
		{"OneHotEncoder cats_strings of ints", ml, "OneHotEncoder", 1, 1, nil, a("cats_strings", ints(1)), []tensor.Value{int64s(1)}, "attribute", "OneHotEncoder-1 [attribute] cats_strings must be strings"},
		{"OneHotEncoder strings for ints", ml, "OneHotEncoder", 1, 1, nil, a("cats_strings", attrStrs("a")), []tensor.Value{int64s(1)}, "cats", "OneHotEncoder-1 [cats] the category list of X's kind"},
		{"LabelEncoder no keys", ml, "LabelEncoder", 2, 1, nil, a("values_int64s", ints(1)), []tensor.Value{int64s(1)}, "keys", "LabelEncoder-2 [keys] exactly one keys_* attribute must be set"},
		{"TreeEnsembleClassifier bool", ml, "TreeEnsembleClassifier", 3, 2, nil, nil, []tensor.Value{bools()}, "type", "TreeEnsembleClassifier-3 [type] X must be float, double, int64 or int32"},
		{"ArrayFeatureExtractor bool", ml, "ArrayFeatureExtractor", 1, 1, nil, nil, []tensor.Value{bools(), int64s(0)}, "type", "ArrayFeatureExtractor-1 [type] X must be float, double, int64, int32 or string"},
		// The profile's rules that only a run under it reaches
		{"SONNX Clip bound of shape [1]", "", "Clip", 13, 1, sonnx, nil, []tensor.Value{x2(), f32(0)}, "L [C1]", "Clip-13 L [C1] bound 1 has shape [1], not the empty shape of a scalar"},
		{"SONNX SplitToSequence empty input", "", "SplitToSequence", 11, 1, sonnx, nil, []tensor.Value{tensor.MustNew(tensor.Float, 0, 2)}, "DIMS", "SplitToSequence-11 [DIMS] input has shape [0 2]: dimension 0 is 0, and the profile's tensors have positive dimensions"},
		{"SONNX SplitToSequence empty part", "", "SplitToSequence", 11, 1, sonnx, nil, []tensor.Value{x2(), int64s(2, 0)}, "DIMS", "SplitToSequence-11 [DIMS] output 1 would have length 0 on axis 0, and the profile's tensors have positive dimensions"},
		{"SONNX Range delta 0", "", "Range", 11, 1, sonnx, nil, []tensor.Value{tensor.Scalar(int64(0)), tensor.Scalar(int64(3)), tensor.Scalar(int64(0))}, "D [C1]", "Range-11 D [C1] delta is 0"},
		// Kernels' less travelled paths
		{"Gemm int32 alpha NaN", "", "Gemm", 13, 1, nil, a("alpha", attrFloat(float32(nan()))), []tensor.Value{tensor.MustNew(tensor.Int32, 2, 2), tensor.MustNew(tensor.Int32, 2, 2)}, "ok", ""},
		{"Clip min a typed nil", "", "Clip", 13, 1, nil, nil, []tensor.Value{x2(), (*tensor.Tensor)(nil), tensor.Scalar(float32(1))}, "ok", ""},
		{"QLinearMatMul-21 float8", "", "QLinearMatMul", 21, 1, nil, nil, []tensor.Value{tensor.MustNew(tensor.Float8E4M3FN, 2, 2), tensor.Scalar(float32(1)), tensor.MustNew(tensor.Float8E4M3FN), tensor.MustNew(tensor.Float8E4M3FN, 2, 2), tensor.Scalar(float32(1)), tensor.MustNew(tensor.Float8E4M3FN), tensor.Scalar(float32(1)), tensor.MustNew(tensor.Float8E4M3FN)}, "type", "QLinearMatMul-21 [type] float8e4m3fn quantized tensors: unsupported operator"},
		{"DeformConv NaN offset", "", "DeformConv", 22, 1, nil, nil, []tensor.Value{tensor.MustNew(tensor.Float, 1, 1, 3, 3), tensor.MustNew(tensor.Float, 1, 1, 2, 2), tensor.MustFromSlice(slicesRepeat(float32(nan()), 32), 1, 8, 2, 2)}, "ok", ""},
		{"BatchNormalization-15 training with four outputs", "", "BatchNormalization", 15, 4, nil, a("training_mode", one(1)), []tensor.Value{tensor.MustNew(tensor.Float, 1, 1, 2), f32(1), f32(0), f32(0), f32(1)}, "outputs", "BatchNormalization-15 [outputs] 4 outputs, at most 3"},
		{"SONNX Mod by an integer zero", "", "Mod", 13, 1, sonnx, nil, []tensor.Value{tensor.MustFromSlice([]int32{1}, 1), tensor.MustFromSlice([]int32{0}, 1)}, "zero-divisor", "Mod-13 [zero-divisor] integer divisor B holds a zero; the result is undefined"},
		{"SONNX MaxPool window of padding only", "", "MaxPool", 22, 1, sonnx, a("kernel_shape", ints(2, 2), "dilations", ints(3, 3), "pads", ints(2, 2, 2, 2), "strides", ints(1, 1), "auto_pad", str("NOTSET"), "ceil_mode", one(0), "storage_order", one(0)), []tensor.Value{tensor.MustNew(tensor.Float, 1, 1, 1, 1)}, "pads [C2]", "MaxPool-22 pads [C2] axis 2: window 0 holds no element of X, only padding"},
		{"OneHot uint64 depth", "", "OneHot", 11, 1, nil, nil, []tensor.Value{int64s(0, 1), tensor.Scalar(uint64(2)), f32(0, 1)}, "ok", ""},
		{"MatMul batch 2 against 3", "", "MatMul", 13, 1, nil, nil, []tensor.Value{tensor.MustNew(tensor.Float, 2, 2, 2), tensor.MustNew(tensor.Float, 3, 2, 2)}, "broadcast", "MatMul-13 [broadcast] the batch axes of A [2 2 2] and B [3 2 2] do not broadcast (2 against 3)"},
		{"MelWeightMatrix lower edge of two", "", "MelWeightMatrix", 17, 1, nil, nil, []tensor.Value{tensor.Scalar(int64(4)), tensor.Scalar(int64(8)), tensor.Scalar(int64(16000)), f32(0, 1), tensor.Scalar(float32(4000))}, "type", "MelWeightMatrix-17 [type] lower_edge_hertz tensor(float)[2]"},
		{"Where-9 bfloat16", "", "Where", 9, 1, nil, nil, []tensor.Value{tensor.MustNew(tensor.Bool, 2), tensor.MustNew(tensor.BFloat16, 2), tensor.MustNew(tensor.BFloat16, 2)}, "type", "Where-9 [type] X of type bfloat16 is not allowed in version 9"},
		{"Equal of strings", "", "Equal", 19, 1, nil, nil, []tensor.Value{tensor.MustFromSlice([]string{"a", "b"}, 2), tensor.MustFromSlice([]string{"a", "c"}, 2)}, "ok", ""},
		{"Dropout of a zero tensor", "", "Dropout", 22, 1, nil, nil, []tensor.Value{&tensor.Tensor{}}, "input", "Dropout-22 [input] input data has no element type (a zero tensor.Tensor?)"},
		{"DeformConv mask shape", "", "DeformConv", 22, 1, nil, nil, []tensor.Value{tensor.MustNew(tensor.Float, 1, 1, 3, 3), tensor.MustNew(tensor.Float, 1, 1, 2, 2), tensor.MustNew(tensor.Float, 1, 8, 2, 2), nil, tensor.MustNew(tensor.Float, 1, 3, 2, 2)}, "mask", "DeformConv-22 [mask] mask has shape [1 3 2 2], expected [1 4 2 2]"},
		{"LabelEncoder keys_tensor without a tensor", ml, "LabelEncoder", 4, 1, nil, a("keys_int64s", ints(1), "values_int64s", ints(2), "keys_tensor", ops.Attribute{Type: ops.AttrTensor}), []tensor.Value{int64s(1)}, "ok", ""},
		{"TreeEnsemble root out of range", ml, "TreeEnsemble", 5, 1, nil, oneTree("tree_roots", ints(5)), []tensor.Value{x2()}, "tree", "TreeEnsemble-5 [tree] a root out of range"},
		{"TreeEnsemble target out of range", ml, "TreeEnsemble", 5, 1, nil, oneTree("leaf_targetids", ints(0, 3)), []tensor.Value{x2()}, "tree", "TreeEnsemble-5 [tree] a vote for a target out of range"},
		{"TreeEnsembleClassifier base values", ml, "TreeEnsembleClassifier", 3, 2, nil, oneOldClassifier("base_values", attrFloats(1, 2, 3)), []tensor.Value{x2()}, "base_values", "TreeEnsembleClassifier-3 [base_values] as many base values as classes"},
		{"SVMClassifier prob_a of one", ml, "SVMClassifier", 1, 2, nil, oneSVM("prob_a", attrFloats(1), "prob_b", attrFloats(1, 2)), []tensor.Value{m12()}, "prob_a", "SVMClassifier-1 [prob_a] prob_a and prob_b one per pair"},
		{"SVMClassifier linear without rho", ml, "SVMClassifier", 1, 2, nil, oneSVM("support_vectors", attrFloats(), "vectors_per_class", ints(), "coefficients", attrFloats(1, 2, 3, 4), "rho", attrFloats()), []tensor.Value{m12()}, "rho", "SVMClassifier-1 [rho] rho must hold the intercept"},
		{"SVMClassifier linear prob_a of one", ml, "SVMClassifier", 1, 2, nil, oneSVM("support_vectors", attrFloats(), "vectors_per_class", ints(), "coefficients", attrFloats(1, 2, 3, 4), "prob_a", attrFloats(1), "prob_b", attrFloats()), []tensor.Value{m12()}, "prob_a", "SVMClassifier-1 [prob_a] prob_a and prob_b of one length"},
		{"SVMClassifier string labels", ml, "SVMClassifier", 1, 2, nil, oneSVM("classlabels_ints", ints(), "classlabels_strings", attrStrs("no", "yes")), []tensor.Value{m12()}, "ok", ""},
		{"SVMClassifier one class PROBIT", ml, "SVMClassifier", 1, 2, nil, oneSVM("support_vectors", attrFloats(), "vectors_per_class", ints(), "coefficients", attrFloats(1, 2), "classlabels_ints", ints(7), "post_transform", str("PROBIT")), []tensor.Value{m12()}, "ok", ""},
		{"CastMap of string keys", ml, "CastMap", 1, 1, nil, nil, []tensor.Value{mustMap(tensor.MapOf([]string{"a"}, []float32{1}))}, "type", "CastMap-1 [type] X must be map(int64, string) or map(int64, float)"},
		{"CastMap to bool", ml, "CastMap", 1, 1, nil, a("cast_to", str("TO_BOOL")), []tensor.Value{mustMap(tensor.MapOf([]int64{1}, []float32{1}))}, "cast_to", "CastMap-1 [cast_to] one of TO_FLOAT, TO_STRING, TO_INT64"},
		{"CastMap of nothing", ml, "CastMap", 1, 1, nil, nil, nil, "input", "CastMap-1 [input] X must be a map"},
		{"DictVectorizer string_vocabulary of ints", ml, "DictVectorizer", 1, 1, nil, a("string_vocabulary", ints(1)), []tensor.Value{mustMap(tensor.MapOf([]string{"a"}, []float32{1}))}, "attribute", "DictVectorizer-1 [attribute] string_vocabulary must be strings"},
		{"DictVectorizer key twice", ml, "DictVectorizer", 1, 1, nil, a("int64_vocabulary", ints(1)), []tensor.Value{&tensor.Map{Keys: int64s(1, 1), Values: f32(1, 2)}}, "keys", "DictVectorizer-1 [keys] a key appears twice"},
		// ai.onnx.preview.training
		{"Momentum no alpha", training, "Momentum", 1, 2, nil, a("beta", attrFloat(1), "mode", str("standard"), "norm_coefficient", attrFloat(0)), []tensor.Value{tensor.Scalar(float32(1)), tensor.Scalar(int64(0)), x2(), x2(), x2()}, "attribute", "Momentum-1 [attribute] attribute alpha is required"},
		{"Adagrad two inputs", training, "Adagrad", 1, 1, nil, nil, []tensor.Value{tensor.Scalar(float32(1)), tensor.Scalar(int64(0))}, "inputs", "Adagrad-1 [inputs] 2 inputs for 3 lists"},
		{"Adagrad five outputs", training, "Adagrad", 1, 5, nil, nil, []tensor.Value{tensor.Scalar(float32(1)), tensor.Scalar(int64(0)), x2(), x2(), x2()}, "outputs", "Adagrad-1 [outputs] 5 outputs, expected 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := callRefIn(t, c.opt, c.domain, c.op, c.ver, c.attrs, c.outs, c.in...)
			switch {
			case c.rule == "ok":
				if err != nil {
					t.Fatalf("got %v, want outputs", err)
				}
			default:
				wantRefusal(t, out, err, c.op, c.ver, c.rule, c.msg)
			}
		})
	}
}

// oneOldClassifier is TreeEnsembleClassifier's form of oneOldTree: two
// classes, each leaf voting for one.
func oneOldClassifier(kv ...any) map[string]ops.Attribute {
	a := oneOldTree()
	for _, k := range []string{"target_ids", "target_nodeids", "target_treeids", "target_weights", "n_targets"} {
		delete(a, k)
	}
	a["class_ids"] = ints(0, 1)
	a["class_nodeids"] = ints(1, 2)
	a["class_treeids"] = ints(0, 0)
	a["class_weights"] = attrFloats(1, 1)
	a["classlabels_int64s"] = ints(0, 1)
	for i := 0; i < len(kv); i += 2 {
		a[kv[i].(string)] = kv[i+1].(ops.Attribute)
	}
	return a
}

// oneSVM is an SVMClassifier of two classes over two features with one
// support vector each and a linear kernel, changed by the pairs of kv.
func oneSVM(kv ...any) map[string]ops.Attribute {
	a := map[string]ops.Attribute{
		"kernel_type":       str("LINEAR"),
		"support_vectors":   attrFloats(1, 0, 0, 1),
		"vectors_per_class": ints(1, 1),
		"coefficients":      attrFloats(1, -1),
		"rho":               attrFloats(0),
		"classlabels_ints":  ints(0, 1),
	}
	for i := 0; i < len(kv); i += 2 {
		a[kv[i].(string)] = kv[i+1].(ops.Attribute)
	}
	return a
}

func slicesRepeat(v float32, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func mustMap(m *tensor.Map, err error) *tensor.Map {
	if err != nil {
		panic(err)
	}
	return m
}
