package reference_test

// Valid nodes of the operators that have no generator in the generators
// map, from which TestReferenceMutations breaks one thing at a time.

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func mutationSeeds() map[string]func(*rand.Rand) (*ops.Node, []tensor.Value) {
	type seed struct {
		op    string
		ver   int
		outs  int
		attrs map[string]ops.Attribute
		in    func() []tensor.Value
	}
	vals := func(v ...tensor.Value) func() []tensor.Value { return func() []tensor.Value { return v } }
	a := func(kv ...any) map[string]ops.Attribute { return graphAttrs(kv...) }
	m23 := func() *tensor.Tensor { return tensor.MustFromSlice([]float32{1, -2, 3, -4, 5, -6}, 2, 3) }
	scalarF := func(v float32) *tensor.Tensor { return tensor.Scalar(v) }
	strs := func(v ...string) *tensor.Tensor { return tensor.MustFromSlice(v, len(v)) }
	seq2 := func() tensor.Value {
		return &tensor.Sequence{ElemType: tensor.Float, Items: []*tensor.Tensor{f32(1, 2), f32(3, 4)}}
	}
	image := func() *tensor.Tensor {
		return tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, 1, 1, 4, 4)
	}
	seeds := []seed{
		{"Cast", 25, 1, a("to", one(int64(tensor.Int32))), vals(m23())},
		{"Cast", 25, 1, a("to", one(int64(tensor.Float8E4M3FN)), "saturate", one(0)), vals(m23())},
		{"CastLike", 25, 1, nil, vals(m23(), tensor.MustNew(tensor.Float16, 1))},
		{"ReduceSum", 13, 1, a("keepdims", one(0)), vals(m23(), int64s(1))},
		{"ReduceMean", 18, 1, a("noop_with_empty_axes", one(1)), vals(m23(), int64s(0))},
		{"ReduceMean", 11, 1, a("axes", ints(1)), vals(m23())},
		{"ReduceMax", 20, 1, nil, vals(m23(), int64s(-1))},
		{"ReduceMin", 20, 1, nil, vals(m23(), int64s(0))},
		{"ReduceProd", 18, 1, nil, vals(m23(), int64s(1))},
		{"ReduceL1", 18, 1, nil, vals(m23(), int64s(1))},
		{"ReduceL2", 18, 1, nil, vals(m23(), int64s(1))},
		{"ReduceLogSum", 18, 1, nil, vals(f32(1, 2), int64s(0))},
		{"ReduceLogSumExp", 18, 1, nil, vals(m23(), int64s(1))},
		{"ReduceSumSquare", 18, 1, nil, vals(m23(), int64s(1))},
		{"ArgMax", 13, 1, a("axis", one(1), "select_last_index", one(1)), vals(m23())},
		{"ArgMin", 13, 1, a("axis", one(0)), vals(m23())},
		{"Pow", 15, 1, nil, vals(m23(), f32(2))},
		{"Pow", 15, 1, nil, vals(tensor.MustFromSlice([]int32{2, 3}, 2), tensor.MustFromSlice([]int64{2, 1}, 2))},
		{"Div", 14, 1, nil, vals(tensor.MustFromSlice([]int32{7, -7}, 2), tensor.MustFromSlice([]int32{2, 2}, 2))},
		{"Mod", 13, 1, a("fmod", one(1)), vals(m23(), f32(2))},
		{"Clip", 13, 1, nil, vals(m23(), scalarF(-1), scalarF(1))},
		{"PRelu", 16, 1, nil, vals(m23(), f32(1, 2, 3))},
		{"Sum", 13, 1, nil, vals(m23(), f32(1, 2, 3), m23())},
		{"Max", 13, 1, nil, vals(m23(), f32(1, 2, 3))},
		{"Mean", 13, 1, nil, vals(m23(), f32(1, 2, 3))},
		{"Where", 16, 1, nil, vals(tensor.MustFromSlice([]bool{true, false, true}, 3), m23(), f32(0))},
		{"BitShift", 11, 1, a("direction", str("LEFT")), vals(tensor.MustFromSlice([]uint8{1, 2}, 2), tensor.MustFromSlice([]uint8{1, 3}, 2))},
		{"QuantizeLinear", 25, 1, a("axis", one(1)), vals(m23(), f32(0.5, 1, 2), tensor.MustFromSlice([]uint8{1, 2, 3}, 3))},
		{"QuantizeLinear", 25, 1, a("block_size", one(3), "axis", one(1)), vals(m23(), tensor.MustFromSlice([]float32{1, 2}, 2, 1), tensor.MustFromSlice([]int8{1, 2}, 2, 1))},
		{"DequantizeLinear", 25, 1, nil, vals(tensor.MustFromSlice([]uint8{1, 2, 3}, 3), scalarF(0.5), tensor.Scalar(uint8(1)))},
		{"DynamicQuantizeLinear", 11, 3, nil, vals(f32(1, -2, 3))},
		{"TopK", 11, 2, a("axis", one(1)), vals(m23(), int64s(2))},
		{"Dropout", 22, 2, a("seed", one(1)), vals(m23(), scalarF(0), tensor.Scalar(true))},
		{"Range", 11, 1, nil, vals(scalarF(0), scalarF(3), scalarF(0.5))},
		{"ReverseSequence", 10, 1, a("time_axis", one(0), "batch_axis", one(1)), vals(tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 3, 2), int64s(2, 3))},
		{"OneHot", 11, 1, a("axis", one(-1)), vals(int64s(0, 2), tensor.Scalar(int64(3)), f32(0, 1))},
		{"Unique", 11, 4, a("sorted", one(1), "axis", one(0)), vals(tensor.MustFromSlice([]float32{2, 1, 2, 3}, 2, 2))},
		{"NonMaxSuppression", 11, 1, a("center_point_box", one(0)), vals(tensor.MustFromSlice([]float32{0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, 2, 1, 3}, 1, 3, 4), tensor.MustFromSlice([]float32{0.9, 0.8, 0.7}, 1, 1, 3), int64s(2), f32(0.5), f32(0))},
		{"TensorScatter", 24, 1, a("axis", one(1), "mode", str("circular")), vals(tensor.MustNew(tensor.Float, 1, 4, 2), tensor.MustFromSlice([]float32{1, 2, 3, 4}, 1, 2, 2), int64s(3))},
		{"SplitToSequence", 11, 1, a("axis", one(1)), vals(m23(), int64s(1, 2))},
		{"ConcatFromSequence", 11, 1, a("axis", one(0), "new_axis", one(1)), vals(seq2())},
		{"SequenceAt", 11, 1, nil, vals(seq2(), tensor.Scalar(int64(-1)))},
		{"SequenceInsert", 11, 1, nil, vals(seq2(), f32(5, 6), tensor.Scalar(int64(1)))},
		{"SequenceErase", 11, 1, nil, vals(seq2(), tensor.Scalar(int64(0)))},
		{"SequenceLength", 11, 1, nil, vals(seq2())},
		{"SequenceConstruct", 11, 1, nil, vals(f32(1), f32(2))},
		{"SequenceEmpty", 11, 1, a("dtype", one(int64(tensor.Int32))), vals()},
		{"Optional", 15, 1, nil, vals(f32(1))},
		{"OptionalHasElement", 18, 1, nil, vals(&tensor.Optional{Value: f32(1)})},
		{"OptionalGetElement", 18, 1, nil, vals(&tensor.Optional{Value: f32(1)})},
		{"StringNormalizer", 10, 1, a("case_change_action", str("UPPER"), "stopwords", ops.Attribute{Type: ops.AttrStrings, Strings: []string{"b"}}), vals(strs("a", "b", "c"))},
		{"StringSplit", 20, 2, a("delimiter", str(","), "maxsplit", one(1)), vals(strs("a,b,c", "d"))},
		{"RegexFullMatch", 20, 1, a("pattern", str("a+b")), vals(strs("aab", "b"))},
		{"StringConcat", 20, 1, nil, vals(strs("a", "b"), strs("c"))},
		{"CumSum", 14, 1, a("exclusive", one(1), "reverse", one(1)), vals(m23(), tensor.Scalar(int64(1)))},
		{"GatherND", 13, 1, a("batch_dims", one(0)), vals(m23(), tensor.MustFromSlice([]int64{1, 0}, 1, 2))},
		{"GatherElements", 13, 1, a("axis", one(1)), vals(m23(), tensor.MustFromSlice([]int64{0, 2, 1, 0, 0, 0}, 2, 3))},
		{"ScatterElements", 18, 1, a("axis", one(1), "reduction", str("add")), vals(m23(), tensor.MustFromSlice([]int64{0, 2}, 2, 1), tensor.MustFromSlice([]float32{5, 6}, 2, 1))},
		{"ScatterND", 18, 1, a("reduction", str("mul")), vals(m23(), tensor.MustFromSlice([]int64{1}, 1, 1), tensor.MustFromSlice([]float32{5, 6, 7}, 1, 3))},
		{"Gather", 13, 1, a("axis", one(1)), vals(m23(), int64s(0, -1))},
		{"Compress", 11, 1, a("axis", one(1)), vals(m23(), tensor.MustFromSlice([]bool{true, false, true}, 3))},
		{"NonZero", 13, 1, nil, vals(m23())},
		{"GlobalAveragePool", 22, 1, nil, vals(image())},
		{"GlobalMaxPool", 22, 1, nil, vals(image())},
		{"GlobalLpPool", 22, 1, a("p", one(3)), vals(image())},
		{"AveragePool", 22, 1, a("kernel_shape", ints(2, 2), "pads", ints(1, 1, 0, 0), "count_include_pad", one(1), "ceil_mode", one(1)), vals(image())},
		{"LpPool", 22, 1, a("kernel_shape", ints(2, 2), "strides", ints(2, 2), "p", one(1)), vals(image())},
		{"Softmax", 13, 1, a("axis", one(0)), vals(m23())},
		{"LogSoftmax", 13, 1, nil, vals(m23())},
		{"Hardmax", 13, 1, nil, vals(m23())},
		{"Softmax", 11, 1, nil, vals(m23())},
		{"Trilu", 14, 1, a("upper", one(0)), vals(m23(), tensor.Scalar(int64(1)))},
		{"EyeLike", 22, 1, a("k", one(1), "dtype", one(int64(tensor.Int32))), vals(m23())},
		{"ConstantOfShape", 25, 1, a("value", ops.Attribute{Type: ops.AttrTensor, Tensor: tensor.MustFromSlice([]int32{3}, 1)}), vals(int64s(2, 2))},
		{"Shrink", 9, 1, a("lambd", ops.Attribute{Type: ops.AttrFloat, Float: 1.5}, "bias", ops.Attribute{Type: ops.AttrFloat, Float: 1}), vals(m23())},
		{"Celu", 12, 1, a("alpha", ops.Attribute{Type: ops.AttrFloat, Float: 2}), vals(m23())},
		{"Elu", 22, 1, nil, vals(m23())},
		{"Selu", 22, 1, nil, vals(m23())},
		{"HardSigmoid", 22, 1, nil, vals(m23())},
		{"LeakyRelu", 16, 1, nil, vals(m23())},
		{"ThresholdedRelu", 22, 1, nil, vals(m23())},
		{"Gelu", 20, 1, a("approximate", str("tanh")), vals(m23())},
		{"Swish", 24, 1, nil, vals(m23())},
		{"IsInf", 20, 1, a("detect_negative", one(0)), vals(m23())},
		{"Round", 22, 1, nil, vals(m23())},
		{"Einsum", 12, 1, a("equation", str("ij,j->i")), vals(m23(), f32(1, 2, 3))},
		{"Upsample", 9, 1, a("mode", str("linear")), vals(image(), f32(1, 1, 2, 2))},
		{"MaxRoiPool", 22, 1, a("pooled_shape", ints(1, 1)), vals(image(), tensor.MustFromSlice([]float32{0, 0, 0, 2, 2}, 1, 5))},
		{"Bernoulli", 22, 1, a("seed", ops.Attribute{Type: ops.AttrFloat, Float: 1}), vals(f32(0.5, 0.2))},
		{"Multinomial", 22, 1, a("seed", ops.Attribute{Type: ops.AttrFloat, Float: 1}, "sample_size", one(3)), vals(tensor.MustFromSlice([]float32{0.5, 0.2}, 1, 2))},
		{"Attention", 23, 1, nil, vals(tensor.MustNew(tensor.Float, 1, 1, 2, 4), tensor.MustNew(tensor.Float, 1, 1, 3, 4), tensor.MustNew(tensor.Float, 1, 1, 3, 4), tensor.MustNew(tensor.Float, 2, 3))},
		{"Resize", 10, 1, a("mode", str("nearest")), vals(image(), f32(1, 1, 2, 2))},
		{"Resize", 11, 1, a("mode", str("cubic"), "coordinate_transformation_mode", str("tf_crop_and_resize"), "exclude_outside", one(1)), vals(image(), f32(0, 0, 0, 0, 1, 1, 1, 1), f32(1, 1, 0.5, 0.5))},
		{"Resize", 11, 1, a("mode", str("linear"), "coordinate_transformation_mode", str("asymmetric")), vals(image(), f32(), f32(), int64s(1, 1, 3, 5))},
		{"Resize", 13, 1, a("mode", str("nearest"), "nearest_mode", str("ceil"), "coordinate_transformation_mode", str("align_corners")), vals(image(), nil, f32(1, 1, 1.5, 0.5))},
		{"Resize", 18, 1, a("mode", str("linear"), "antialias", one(1), "axes", ints(2, 3), "keep_aspect_ratio_policy", str("not_larger")), vals(image(), nil, nil, int64s(2, 3))},
		{"Resize", 19, 1, a("mode", str("cubic"), "antialias", one(1), "cubic_coeff_a", ops.Attribute{Type: ops.AttrFloat, Float: -0.5}, "coordinate_transformation_mode", str("half_pixel_symmetric")), vals(image(), nil, f32(1, 1, 0.5, 0.75))},
		{"Resize", 19, 1, a("mode", str("nearest"), "axes", ints(-1), "keep_aspect_ratio_policy", str("not_smaller"), "coordinate_transformation_mode", str("pytorch_half_pixel")), vals(image(), nil, nil, int64s(2))},
		{"Split", 2, 2, a("split", ints(1, 2), "axis", one(1)), vals(m23())},
		{"Split", 11, 2, a("axis", one(0)), vals(m23())},
		{"Split", 13, 2, a("axis", one(1)), vals(m23(), int64s(2, 1))},
		{"Split", 18, 2, a("axis", one(1), "num_outputs", one(2)), vals(m23())},
		{"Split", 18, 3, a("axis", one(-1)), vals(m23(), int64s(1, 1, 1))},
		{"Pad", 2, 1, a("pads", ints(0, 1, 0, 1), "mode", str("reflect")), vals(m23())},
		{"Pad", 11, 1, a("mode", str("edge")), vals(m23(), int64s(1, 0, 1, 0), scalarF(0))},
		{"Pad", 13, 1, a("mode", str("constant")), vals(m23(), int64s(1, -1, 0, 1), scalarF(2))},
		{"Pad", 19, 1, a("mode", str("wrap")), vals(m23(), int64s(1, 2), nil, int64s(-1))},
		{"Pad", 25, 1, a("mode", str("reflect")), vals(m23(), int64s(0, 1, 0, 1), f32(3), int64s(0, 1))},
		{"Slice", 1, 1, a("starts", ints(0, 1), "ends", ints(2, 3), "axes", ints(0, 1)), vals(m23())},
		{"Slice", 10, 1, nil, vals(m23(), int64s(-1, 2), int64s(-3, 0), int64s(0, 1), int64s(-1, -1))},
		{"Slice", 13, 1, nil, vals(m23(), tensor.MustFromSlice([]int32{0}, 1), tensor.MustFromSlice([]int32{2}, 1))},
		{"Cast", 21, 1, a("to", one(int64(tensor.Int4))), vals(f32(float32(math.NaN()), 1e20, -1e20, -3.5, 7.5))},
		{"Cast", 25, 1, a("to", one(int64(tensor.Int2))), vals(f32(float32(math.NaN()), 1e20, -1e20, -3.5, 1.5))},
		{"Cast", 25, 1, a("to", one(int64(tensor.Uint2))), vals(f32(float32(math.NaN()), 1e20, -1e20, -3.5, 1.5))},
		{"Cast", 21, 1, a("to", one(int64(tensor.Uint4))), vals(f32(float32(math.NaN()), 1e20, -1e20, -3.5, 1.5))},
		{"Cast", 21, 1, a("to", one(int64(tensor.Int16))), vals(f32(float32(math.NaN()), 1e20, -1e20, -3.5, 1.5))},
		{"Cast", 21, 1, a("to", one(int64(tensor.Uint16))), vals(f32(float32(math.NaN()), 1e20, -1e20, -3.5, 1.5))},
		{"Cast", 21, 1, a("to", one(int64(tensor.Uint32))), vals(f32(float32(math.NaN()), 1e20, -1e20, -3.5, 1.5))},
		{"Cast", 21, 1, a("to", one(int64(tensor.Uint64))), vals(f32(float32(math.NaN()), 1e20, -1e20, -3.5, 1.5))},
		{"Cast", 21, 1, a("to", one(int64(tensor.Int64))), vals(f32(float32(math.NaN()), 1e20, -1e20, -3.5, 1.5))},
		{"Cast", 21, 1, a("to", one(int64(tensor.String))), vals(f32(float32(math.NaN()), 1e20, -3.5))},
		{"Cast", 21, 1, a("to", one(int64(tensor.Float))), vals(strs("1.5", "nan", "-inf"))},
		{"Cast", 21, 1, a("to", one(int64(tensor.Float))), vals(tensor.MustFromSlice([]int16{1, -2}, 2), tensor.MustFromSlice([]uint32{1, 2}, 2))},
		{"Cast", 21, 1, a("to", one(int64(tensor.Double))), vals(tensor.MustFromSlice([]uint64{1, 1 << 63}, 2))},
		{"Cast", 21, 1, a("to", one(int64(tensor.Float))), vals(tensor.MustFromSlice([]uint32{1, 2}, 2))},
		{"ReduceSum", 1, 1, a("axes", ints(0), "keepdims", one(1)), vals(m23())},
		{"ReduceMax", 18, 1, a("keepdims", one(0)), vals(tensor.MustFromSlice([]int32{1, 2, 3, 4}, 2, 2), int64s())},
		{"ReduceMin", 18, 1, a("noop_with_empty_axes", one(1)), vals(tensor.MustFromSlice([]uint8{1, 2, 3, 4}, 2, 2))},
		{"ReduceProd", 13, 1, a("axes", ints(0, 1)), vals(tensor.MustFromSlice([]int64{1, 2, 3, 4}, 2, 2))},
		{"Pow", 15, 1, nil, vals(tensor.MustFromSlice([]int64{2, -3}, 2), tensor.MustFromSlice([]int32{-1, 3}, 2))},
		{"Pow", 15, 1, nil, vals(tensor.MustFromSlice([]int32{2, 3}, 2), f32(0.5, 2))},
		{"Pow", 7, 1, nil, vals(tensor.MustFromSlice([]float64{2, 3}, 2), tensor.MustFromSlice([]float64{0.5, 2}, 2))},
		{"Einsum", 12, 1, a("equation", str("...ij,...jk")), vals(tensor.MustNew(tensor.Float, 2, 2, 3), tensor.MustNew(tensor.Float, 2, 3, 2))},
		{"Einsum", 12, 1, a("equation", str("ii->i")), vals(tensor.MustNew(tensor.Float, 3, 3))},
		{"TopK", 24, 2, a("largest", one(0), "sorted", one(0)), vals(tensor.MustFromSlice([]int32{3, 1, 2}, 3), int64s(2))},
		{"TopK", 1, 2, a("k", one(2)), vals(m23())},
		{"Dropout", 12, 2, nil, vals(m23())},
		{"Dropout", 7, 1, a("ratio", ops.Attribute{Type: ops.AttrFloat, Float: 0.3}), vals(m23())},
		{"Dropout", 22, 2, a("seed", one(1)), vals(m23(), scalarF(0.25), tensor.Scalar(false))},
		{"LabelEncoder", 4, 1, a("keys_strings", ops.Attribute{Type: ops.AttrStrings, Strings: []string{"a", "b"}}, "values_int64s", ints(1, 2), "default_int64", one(-1)), vals(strs("a", "c"))},
		{"LabelEncoder", 1, 1, a("classes_strings", ops.Attribute{Type: ops.AttrStrings, Strings: []string{"a", "b"}}), vals(int64s(0, 3))},
		{"Div", 14, 1, nil, vals(tensor.MustFromSlice([]uint8{7, 8}, 2), tensor.MustFromSlice([]uint8{0, 2}, 2))},
		{"Clip", 6, 1, a("min", ops.Attribute{Type: ops.AttrFloat, Float: -1}), vals(m23())},
		{"Clip", 13, 1, nil, vals(tensor.MustFromSlice([]int32{-5, 5}, 2), nil, tensor.Scalar(int32(1)))},
		{"Range", 11, 1, nil, vals(tensor.Scalar(int64(5)), tensor.Scalar(int64(0)), tensor.Scalar(int64(-2)))},
		{"ConvTranspose", 22, 1, a("output_shape", ints(5, 5), "auto_pad", str("SAME_UPPER"), "strides", ints(2, 2)), vals(tensor.MustNew(tensor.Float, 1, 1, 3, 3), tensor.MustNew(tensor.Float, 1, 2, 2, 2))},
		{"ConvTranspose", 22, 1, a("output_padding", ints(1, 1), "strides", ints(2, 2), "dilations", ints(2, 1), "group", one(1)), vals(tensor.MustNew(tensor.Float, 1, 1, 3, 3), tensor.MustNew(tensor.Float, 1, 2, 2, 2), f32(1, 2))},
		{"MaxPool", 22, 2, a("kernel_shape", ints(2, 2), "storage_order", one(1), "auto_pad", str("SAME_LOWER"), "dilations", ints(2, 1)), vals(image())},
		{"MaxPool", 8, 2, a("kernel_shape", ints(3), "pads", ints(1, 1)), vals(tensor.MustNew(tensor.Float, 1, 1, 5))},
		{"MaxUnpool", 22, 1, a("kernel_shape", ints(2, 2), "strides", ints(2, 2)), vals(tensor.MustNew(tensor.Float, 1, 1, 2, 2), tensor.MustFromSlice([]int64{0, 3, 9, 15}, 1, 1, 2, 2), int64s(1, 1, 4, 4))},
		{"Unsqueeze", 1, 1, a("axes", ints(0, 3)), vals(m23())},
		{"Unsqueeze", 13, 1, nil, vals(m23(), int64s(0, 3))},
		{"Squeeze", 13, 1, nil, vals(tensor.MustNew(tensor.Float, 1, 3, 1), int64s(0, -1))},
		{"ConcatFromSequence", 11, 1, a("axis", one(-1)), vals(seq2())},
		{"SplitToSequence", 11, 1, a("axis", one(0), "keepdims", one(0)), vals(m23())},
		{"SplitToSequence", 11, 1, nil, vals(m23(), tensor.Scalar(int64(1)))},
		{"BatchNormalization", 15, 3, a("training_mode", one(1), "momentum", ops.Attribute{Type: ops.AttrFloat, Float: 0.5}), vals(tensor.MustNew(tensor.Float, 2, 2, 2), f32(1, 1), f32(0, 0), f32(0, 0), f32(1, 1))},
		{"BatchNormalization", 7, 1, a("spatial", one(1)), vals(tensor.MustNew(tensor.Float, 2, 2, 2), f32(1, 1), f32(0, 0), f32(0, 0), f32(1, 1))},
		{"Shape", 21, 1, a("start", one(-2), "end", one(-1)), vals(m23())},
		{"Constant", 25, 1, a("value_int", one(3)), vals()},
		{"Constant", 25, 1, a("value_floats", ops.Attribute{Type: ops.AttrFloats, Floats: []float32{1, 2}}), vals()},
		{"Constant", 25, 1, a("value_string", str("s")), vals()},
		{"Constant", 25, 1, a("value_ints", ints(1, 2)), vals()},
		{"Reshape", 21, 1, a("allowzero", one(1)), vals(m23(), int64s(3, 2))},
		{"QLinearConv", 10, 1, nil, vals(tensor.MustNew(tensor.Uint8, 1, 1, 3, 3), scalarF(0.5), tensor.Scalar(uint8(1)), tensor.MustNew(tensor.Uint8, 1, 1, 2, 2), scalarF(0.5), tensor.Scalar(uint8(1)), scalarF(0.25), tensor.Scalar(uint8(0)), tensor.MustFromSlice([]int32{3}, 1))},
		{"QLinearMatMul", 21, 1, nil, vals(tensor.MustNew(tensor.Int8, 2, 3), scalarF(0.5), tensor.Scalar(int8(1)), tensor.MustNew(tensor.Int8, 3, 2), scalarF(0.5), tensor.Scalar(int8(1)), scalarF(0.25), tensor.Scalar(int8(0)))},
		{"ConvInteger", 10, 1, a("pads", ints(1, 1, 1, 1)), vals(tensor.MustNew(tensor.Uint8, 1, 1, 3, 3), tensor.MustNew(tensor.Int8, 1, 1, 2, 2), tensor.Scalar(uint8(1)), tensor.Scalar(int8(1)))},
		{"MatMulInteger", 10, 1, nil, vals(tensor.MustNew(tensor.Int8, 2, 3), tensor.MustNew(tensor.Int8, 3, 2), tensor.MustFromSlice([]int8{1, 2}, 2), tensor.MustFromSlice([]int8{1, 2}, 2))},
		{"Gemm", 13, 1, a("transA", one(1), "transB", one(1), "alpha", ops.Attribute{Type: ops.AttrFloat, Float: 2}), vals(tensor.MustNew(tensor.Float, 3, 2), tensor.MustNew(tensor.Float, 2, 3), f32(1, 2))},
		{"Gemm", 6, 1, a("broadcast", one(1)), vals(tensor.MustNew(tensor.Float, 2, 3), tensor.MustNew(tensor.Float, 3, 2), f32(1))},
		{"MatMul", 13, 1, nil, vals(f32(1, 2), m23())},
		{"Unique", 11, 4, nil, vals(tensor.MustFromSlice([]int64{3, 1, 3}, 3))},
		{"Unique", 11, 4, a("sorted", one(0)), vals(strs("b", "a", "b"))},
		{"Attention", 24, 4, a("is_causal", one(1), "softmax_precision", one(int64(tensor.Double)), "q_num_heads", one(2), "kv_num_heads", one(1)), vals(tensor.MustNew(tensor.Float, 1, 2, 8), tensor.MustNew(tensor.Float, 1, 3, 4), tensor.MustNew(tensor.Float, 1, 3, 4), tensor.MustFromSlice([]bool{true, false, true, true, true, true}, 2, 3), tensor.MustNew(tensor.Float, 1, 1, 1, 4), tensor.MustNew(tensor.Float, 1, 1, 1, 4), int64s(3))},
		{"Split", 1, 2, a("axis", one(1)), vals(m23(), f32(1, 2))},
		{"Split", 1, 2, a("axis", one(1)), vals(m23(), tensor.MustFromSlice([]int32{2, 1}, 2))},
		{"Split", 18, 3, a("axis", one(1), "num_outputs", one(3)), vals(tensor.MustNew(tensor.Float, 2, 7))},
		{"QuantizeLinear", 21, 1, a("saturate", one(0)), vals(f32(1, -300, 500), scalarF(1), tensor.MustNew(tensor.Float8E4M3FN))},
		{"QuantizeLinear", 25, 1, a("output_dtype", one(int64(tensor.Int4)), "precision", one(int64(tensor.Float))), vals(f32(1, -300, 5), scalarF(1))},
		{"QuantizeLinear", 10, 1, nil, vals(f32(1, -300, 5), scalarF(1), tensor.Scalar(int8(0)))},
		{"DequantizeLinear", 21, 1, a("axis", one(0), "block_size", one(2)), vals(tensor.MustFromSlice([]int8{1, 2, 3, 4}, 4), f32(1, 2), tensor.MustFromSlice([]int8{0, 1}, 2))},
		{"DequantizeLinear", 25, 1, nil, vals(tensor.MustNew(tensor.Int4, 4), scalarF(2))},
		{"Einsum", 12, 1, a("equation", str("ij,ij->")), vals(m23(), m23())},
		{"Einsum", 12, 1, a("equation", str("i , j -> ij")), vals(f32(1, 2), f32(3))},
		{"Einsum", 12, 1, a("equation", str("b...->...b")), vals(tensor.MustNew(tensor.Int32, 2, 3))},
		{"LabelEncoder", 4, 1, a("keys_int64s", ints(1, 2), "values_floats", ops.Attribute{Type: ops.AttrFloats, Floats: []float32{0.5, 1.5}}), vals(int64s(1, 3))},
		{"LabelEncoder", 4, 1, a("keys_floats", ops.Attribute{Type: ops.AttrFloats, Floats: []float32{0.5, float32(math.NaN())}}, "values_strings", ops.Attribute{Type: ops.AttrStrings, Strings: []string{"a", "n"}}), vals(f32(0.5, float32(math.NaN()), 2))},
		{"LabelEncoder", 4, 1, a("keys_tensor", ops.Attribute{Type: ops.AttrTensor, Tensor: int64s(1, 2)}, "values_tensor", ops.Attribute{Type: ops.AttrTensor, Tensor: strs("a", "b")}, "default_tensor", ops.Attribute{Type: ops.AttrTensor, Tensor: strs("z")}), vals(int64s(1, 3))},
		{"Concat", 13, 1, a("axis", one(-1)), vals(m23(), m23())},
		{"Tile", 13, 1, nil, vals(m23(), int64s(2, 0))},
		{"Shape", 15, 1, a("end", one(10)), vals(m23())},
		{"ArgMax", 11, 1, a("keepdims", one(0)), vals(tensor.MustFromSlice([]int8{1, 5, 5, 2}, 4))},
		{"ArgMin", 13, 1, a("select_last_index", one(1)), vals(tensor.MustFromSlice([]float64{1, 1, math.NaN()}, 3))},
		{"OptionalHasElement", 18, 1, nil, vals(&tensor.Optional{})},
		{"OptionalGetElement", 18, 1, nil, vals(f32(1))},
		{"Range", 11, 1, nil, vals(tensor.Scalar(int32(1)), tensor.Scalar(int32(10)), tensor.Scalar(int32(3)))},
		{"Range", 11, 1, nil, vals(tensor.Scalar(float64(1)), tensor.Scalar(float64(0)), tensor.Scalar(float64(0.25)))},
		{"MatMul", 13, 1, nil, vals(tensor.MustNew(tensor.Int32, 2, 1, 2, 3), tensor.MustNew(tensor.Int32, 3, 3, 1))},
		{"Gemm", 13, 1, nil, vals(tensor.MustNew(tensor.Int64, 2, 3), tensor.MustNew(tensor.Int64, 3, 2))},
		{"Upsample", 7, 1, a("scales", ops.Attribute{Type: ops.AttrFloats, Floats: []float32{1, 1, 2, 2}}), vals(image())},
		{"Clip", 11, 1, nil, vals(m23(), scalarF(1), scalarF(-1))},
		{"RotaryEmbedding", 23, 1, a("interleaved", one(1), "num_heads", one(1)), vals(tensor.MustNew(tensor.Float, 1, 2, 4), tensor.MustNew(tensor.Float, 4, 2), tensor.MustNew(tensor.Float, 4, 2), tensor.MustFromSlice([]int64{0, 3}, 1, 2))},
		{"OneHotEncoder", 1, 1, a("cats_int64s", ints(1, 3), "zeros", one(0)), vals(int64s(1, 3))},
		{"Imputer", 1, 1, a("imputed_value_floats", ops.Attribute{Type: ops.AttrFloats, Floats: []float32{0}}, "replaced_value_float", ops.Attribute{Type: ops.AttrFloat, Float: float32(math.NaN())}), vals(f32(1, float32(math.NaN())))},
		{"Imputer", 1, 1, a("imputed_value_int64s", ints(7), "replaced_value_int64", one(0)), vals(int64s(1, 0))},
	}
	out := map[string]func(*rand.Rand) (*ops.Node, []tensor.Value){
		"RotaryEmbedding":           randRotaryEmbedding,
		"CausalConvWithState":       randCausalConvWithState,
		"LinearAttention":           randLinearAttention,
		"FlexAttention":             randFlexAttention,
		"SoftmaxCrossEntropyLoss":   func(r *rand.Rand) (*ops.Node, []tensor.Value) { return randLoss(r, "SoftmaxCrossEntropyLoss") },
		"NegativeLogLikelihoodLoss": func(r *rand.Rand) (*ops.Node, []tensor.Value) { return randLoss(r, "NegativeLogLikelihoodLoss") },
	}
	for _, s := range seeds {
		s := s
		name := s.op
		for i := 2; ; i++ {
			if _, ok := out[name]; !ok {
				break
			}
			name = fmt.Sprintf("%s#%d", s.op, i)
		}
		out[name] = func(*rand.Rand) (*ops.Node, []tensor.Value) {
			domain := ""
			switch s.op {
			case "LabelEncoder", "Imputer", "OneHotEncoder":
				domain = "ai.onnx.ml"
			}
			return &ops.Node{OpType: s.op, Domain: domain, Version: s.ver, NumOutputs: s.outs, Attrs: s.attrs}, s.in()
		}
	}
	return out
}
