package reference_test

// Valid nodes of the operators that have no generator in the generators
// map, from which TestReferenceMutations breaks one thing at a time.

import (
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
		{"Dropout", 22, 2, a("seed", one(1)), vals(m23(), scalarF(0.5), tensor.Scalar(true))},
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
			name = s.op + "#" + string(rune('0'+i))
		}
		out[name] = func(*rand.Rand) (*ops.Node, []tensor.Value) {
			return &ops.Node{OpType: s.op, Version: s.ver, NumOutputs: s.outs, Attrs: s.attrs}, s.in()
		}
	}
	return out
}
