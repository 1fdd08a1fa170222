package reference_test

// Agree's report when the engines disagree: each case feeds it results
// that differ in one way (count, kind, type, shape, one element, beyond or
// within an operator's bound) or inputs an operator's bound cannot read,
// and asserts the report, or that the results are accepted.

import (
	"math"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

func TestAgreeReports(t *testing.T) {
	node := func(op string, ver int, kv ...any) *ops.Node {
		return &ops.Node{OpType: op, Version: ver, Attrs: graphAttrs(kv...)}
	}
	vals := func(v ...tensor.Value) []tensor.Value { return v }
	f16 := func(v ...float32) *tensor.Tensor {
		h := make([]tensor.F16, len(v))
		for i, x := range v {
			h[i] = tensor.F16FromFloat32(x)
		}
		return tensor.MustFromSlice(h, len(v))
	}
	bf16 := func(v ...float32) *tensor.Tensor {
		h := make([]tensor.BF16, len(v))
		for i, x := range v {
			h[i] = tensor.BF16FromFloat32(x)
		}
		return tensor.MustFromSlice(h, len(v))
	}
	four := func(x *tensor.Tensor) *tensor.Tensor {
		y, err := x.Reshape(1, 1, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		return y
	}
	f64 := func(v ...float64) *tensor.Tensor { return tensor.MustFromSlice(v, len(v)) }
	i32 := func(v ...int32) *tensor.Tensor { return tensor.MustFromSlice(v, len(v)) }
	strs := func(v ...string) *tensor.Tensor { return tensor.MustFromSlice(v, len(v)) }
	c64 := tensor.MustFromSlice([]complex64{1, 2}, 2)
	seq := func(items ...*tensor.Tensor) *tensor.Sequence {
		return &tensor.Sequence{ElemType: tensor.Float, Items: items}
	}
	transpose := node("Transpose", 21)
	linear := node("Resize", 19, "mode", str("linear"))
	cubic := node("Resize", 19, "mode", str("cubic"))
	conv := node("Conv", 22)
	matmul := node("MatMul", 13)
	nan32 := float32(math.NaN())
	inf := math.Inf(1)
	for _, c := range []struct {
		name      string
		n         *ops.Node
		in        []tensor.Value
		fast, ref []tensor.Value
		want      string // a fragment of the report; "" when they agree
	}{
		{"output counts", transpose, nil, vals(f32(1)), vals(f32(1), f32(2)), "1 outputs from the fast engine, 2 from the reference"},
		{"a tensor for a sequence", transpose, nil, vals(seq(f32(1))), vals(f32(1)), "output 0: fast seq(tensor(float))"},
		{"no value for a tensor", transpose, nil, vals(nil), vals(f32(1)), "output 0: fast no value, reference tensor(float)[1]"},
		{"nil reference tensor", transpose, nil, vals(f32(1)), vals((*tensor.Tensor)(nil)), "output 0: fast tensor(float)[1]"},
		{"sequences agree", transpose, nil, vals(seq(f32(1), f32(2))), vals(seq(f32(1), f32(2))), ""},
		{"sequence lengths", transpose, nil, vals(seq(f32(1))), vals(seq(f32(1), f32(2))), "output 0: fast seq(tensor(float))"},
		{"sequence element types", transpose, nil, vals(&tensor.Sequence{ElemType: tensor.Double}), vals(seq()), "output 0: fast seq(tensor(double))"},
		{"a tensor for a sequence, reversed", transpose, nil, vals(f32(1)), vals(seq()), "output 0: fast tensor(float)[1], reference seq(tensor(float))"},
		{"sequence items", transpose, nil, vals(seq(f32(1), f32(2))), vals(seq(f32(1), f32(3))), "output 0: item 1: the engines differ (bit for bit) at element [0]"},
		{"optionals agree", transpose, nil, vals(&tensor.Optional{Value: f32(1)}), vals(&tensor.Optional{Value: f32(1)}), ""},
		{"empty optionals", transpose, nil, vals(&tensor.Optional{}), vals(&tensor.Optional{}), ""},
		{"an empty optional for a full one", transpose, nil, vals(&tensor.Optional{}), vals(&tensor.Optional{Value: f32(1)}), "output 0: fast optional"},
		{"a tensor for an optional", transpose, nil, vals(f32(1)), vals(&tensor.Optional{}), "output 0: fast tensor(float)[1]"},
		{"optional values", transpose, nil, vals(&tensor.Optional{Value: f32(2)}), vals(&tensor.Optional{Value: f32(1)}), "output 0: the engines differ (bit for bit) at element [0]"},
		{"a value of no kind", transpose, nil, vals(oddValue{}), vals(oddValue{}), "output 0: fast odd value, reference odd value"},
		{"strings", transpose, nil, vals(strs("a", "b")), vals(strs("a", "c")), "output 0: the engines differ at element [1]"},
		{"complex", transpose, nil, vals(c64), vals(tensor.MustFromSlice([]complex64{1, 3}, 2)), "output 0: the engines differ at element [1]"},
		{"types", transpose, nil, vals(f32(1)), vals(f64(1)), "output 0: fast tensor(float)[1], reference tensor(double)[1]"},
		{"float16 NaN payloads", transpose, nil, vals(tensor.MustFromSlice([]tensor.F16{0x7e00}, 1)), vals(tensor.MustFromSlice([]tensor.F16{0x7e01}, 1)), ""},
		// Conv's bound: none where an input is not finite, or a sum may
		// overflow; none for integer outputs or inputs it cannot read.
		{"Conv NaN input", conv, vals(tensor.MustFromSlice([]float32{nan32}, 1, 1, 1), tensor.MustFromSlice([]float32{1}, 1, 1, 1)), vals(f32(1)), vals(f32(2)), ""},
		{"Conv huge input", conv, vals(tensor.MustFromSlice([]float32{3e38}, 1, 1, 1), tensor.MustFromSlice([]float32{3e38}, 1, 1, 1)), vals(f32(1)), vals(f32(2)), ""},
		{"Conv complex weights", conv, vals(f32(1), tensor.MustFromSlice([]complex64{1, 2}, 1, 2)), vals(f32(1)), vals(f32(2)), ""},
		{"Conv int32", conv, vals(i32(1), i32(1)), vals(i32(1)), vals(i32(2)), "output 0: the engines differ (bit for bit) at element [0]"},
		{"Conv no X", conv, vals(seq()), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"Conv W of rank 1", conv, vals(f32(1), f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"Conv float16 within the bound", conv, vals(tensor.MustFromSlice([]float32{1}, 1, 1, 1), tensor.MustFromSlice([]float32{1}, 1, 1, 1)), vals(f16(1)), vals(f16(1.0009765625)), ""},
		{"Conv bfloat16 beyond the bound", conv, vals(tensor.MustFromSlice([]float32{1}, 1, 1, 1), tensor.MustFromSlice([]float32{1}, 1, 1, 1)), vals(bf16(1)), vals(bf16(4)), "more than the bound"},
		{"Col2Im without block_shape", node("Col2Im", 18), vals(f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"Col2Im complex block_shape", node("Col2Im", 18), vals(f32(1), nil, c64), vals(f32(1)), vals(f32(2)), "bit for bit"},
		// Resize's bound: linear and cubic only, float types and integers.
		{"Resize float16", linear, vals(f16(8)), vals(f16(1)), vals(f16(1.0009765625)), ""},
		{"Resize bfloat16", cubic, vals(bf16(8)), vals(bf16(1)), vals(bf16(1.0078125)), ""},
		{"Resize double beyond", linear, vals(f64(1)), vals(f64(1)), vals(f64(1.001)), "more than the bound"},
		{"Resize NaN for a number", linear, vals(f32(1)), vals(f32(1, nan32)), vals(f32(1.0000001, 1)), "fast NaN, reference 1"},
		{"Resize both NaN", linear, vals(f32(1)), vals(f32(1, nan32)), vals(f32(1.0000001, nan32)), ""},
		{"Resize infinity", linear, vals(f64(1)), vals(f64(1, inf)), vals(f64(1, 1)), "element [1]: fast +Inf, reference 1"},
		{"Resize X a sequence", linear, vals(seq()), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"Resize X complex", linear, vals(c64), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"Resize bool output", linear, vals(f32(1)), vals(tensor.MustFromSlice([]bool{true}, 1)), vals(tensor.MustFromSlice([]bool{false}, 1)), "bit for bit"},
		// The sums of products: MatMul, Gemm, Einsum.
		{"MatMul float16", matmul, vals(f16(1), f16(1)), vals(f16(1)), vals(f16(1.0009765625)), ""},
		{"MatMul bfloat16", matmul, vals(bf16(1), bf16(1)), vals(bf16(1)), vals(bf16(1.0078125)), ""},
		{"MatMul int32", matmul, vals(i32(1), i32(1)), vals(i32(1)), vals(i32(2)), "bit for bit"},
		{"MatMul complex", matmul, vals(c64, c64), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"MatMul no tensor input", matmul, vals(seq()), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"MatMul scalars", matmul, vals(tensor.Scalar(float32(1))), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"MatMul refused", matmul, vals(f32(1, 2), f32(1, 2, 3)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"MatMul of no version", node("MatMul", 2), vals(f32(1), f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"MatMul other length", matmul, vals(f32(1), f32(1)), vals(f32(1, 1)), vals(f32(2, 2)), "bit for bit"},
		{"Gemm of rank 1", node("Gemm", 13), vals(f32(1), f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"Einsum terms", node("Einsum", 12, "equation", str("i,i->")), vals(f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"Einsum rank short", node("Einsum", 12, "equation", str("ij->")), vals(f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"Einsum ellipsis past the rank", node("Einsum", 12, "equation", str("...ij->")), vals(f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		// The recurrent operators.
		{"LSTM X of rank 2", node("LSTM", 22), vals(f32(1), f32(1), f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"LSTM int32", node("LSTM", 22), vals(tensor.MustNew(tensor.Float, 1, 1, 1), nil, tensor.MustNew(tensor.Float, 1, 1, 1)), vals(i32(1)), vals(i32(2)), "bit for bit"},
		{"LSTM complex", node("LSTM", 22), vals(tensor.MustNew(tensor.Float, 1, 1, 1), nil, tensor.MustNew(tensor.Float, 1, 1, 1)), vals(c64), vals(tensor.MustFromSlice([]complex64{1, 3}, 2)), "the engines differ at element [1]"},
		// Attention and FlexAttention.
		{"Attention no K", node("Attention", 23), vals(f32(1), nil, f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"Attention complex mask", node("Attention", 23), vals(tensor.MustNew(tensor.Float, 1, 1, 1, 1), tensor.MustNew(tensor.Float, 1, 1, 1, 1), tensor.MustNew(tensor.Float, 1, 1, 1, 1), c64), vals(bf16(1)), vals(bf16(1.0078125)), ""},
		{"Attention int32 output", node("Attention", 23), vals(tensor.MustNew(tensor.Float, 1, 1, 1, 1), tensor.MustNew(tensor.Float, 1, 1, 1, 1), tensor.MustNew(tensor.Float, 1, 1, 1, 1)), vals(i32(1)), vals(i32(2)), "bit for bit"},
		{"FlexAttention rank 3", &ops.Node{OpType: "FlexAttention", Domain: "ai.onnx.preview", Version: 1}, vals(tensor.MustNew(tensor.Float, 1, 1, 1), tensor.MustNew(tensor.Float, 1, 1, 1), tensor.MustNew(tensor.Float, 1, 1, 1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"FlexAttention complex", &ops.Node{OpType: "FlexAttention", Domain: "ai.onnx.preview", Version: 1}, vals(tensor.MustNew(tensor.Complex64, 1, 1, 1, 1), tensor.MustNew(tensor.Float, 1, 1, 1, 1), tensor.MustNew(tensor.Float, 1, 1, 1, 1)), vals(f16(1)), vals(f16(1.0009765625)), "more than the bound 0 apart"},
		{"FlexAttention bfloat16", &ops.Node{OpType: "FlexAttention", Domain: "ai.onnx.preview", Version: 1}, vals(four(bf16(1)), four(bf16(1)), four(bf16(1))), vals(bf16(1)), vals(bf16(1.0078125)), ""},
		{"FlexAttention float16", &ops.Node{OpType: "FlexAttention", Domain: "ai.onnx.preview", Version: 1}, vals(four(f16(1)), four(f16(1)), four(f16(1))), vals(f16(1)), vals(f16(1.0009765625)), ""},
		// DFT and STFT.
		{"DFT int32", node("DFT", 20), vals(f32(1)), vals(i32(1)), vals(i32(2)), "bit for bit"},
		{"DFT X a sequence", node("DFT", 20), vals(seq()), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"DFT X complex", node("DFT", 20), vals(c64), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"STFT window complex", node("STFT", 17), vals(tensor.MustNew(tensor.Float, 1, 4, 1), nil, c64), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"STFT no window", node("STFT", 17), vals(tensor.MustNew(tensor.Float, 1, 4, 1), int64s(1), nil), vals(f32(1)), vals(f32(1.0000001)), ""},
		{"DFT float16", node("DFT", 20), vals(f16(1)), vals(f16(1)), vals(f16(1.0009765625)), ""},
		// BatchNormalization.
		{"BatchNormalization a sequence", node("BatchNormalization", 15), vals(f32(1), seq(), f32(1), f32(1), f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"BatchNormalization complex", node("BatchNormalization", 15), vals(f32(1), c64, f32(1), f32(1), f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"BatchNormalization short B", node("BatchNormalization", 15), vals(f32(1), f32(1, 1), f32(1), f32(1, 1), f32(1, 1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
		{"BatchNormalization double", node("BatchNormalization", 15), vals(f64(1), f64(1), f64(0), f64(0), f64(1)), vals(f64(1)), vals(f64(1.0000000000000002)), ""},
		{"BatchNormalization float16", node("BatchNormalization", 15), vals(f32(1), f32(1), f32(0), f32(0), f32(1)), vals(f16(1)), vals(f16(1.0009765625)), ""},
		{"BatchNormalization bfloat16", node("BatchNormalization", 15), vals(f32(1), f32(1), f32(0), f32(0), f32(1)), vals(bf16(1)), vals(bf16(1.0078125)), ""},
		{"BatchNormalization int32", node("BatchNormalization", 15), vals(f32(1), f32(1), f32(0), f32(0), f32(1)), vals(i32(1)), vals(i32(2)), "bit for bit"},
		{"BatchNormalization infinite scale", node("BatchNormalization", 15), vals(f32(1), f64(inf), f32(0), f32(0), f32(1)), vals(f32(1)), vals(f32(2)), "bit for bit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := reference.Agree(c.n, c.in, c.fast, c.ref)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("got %v, want agreement", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want a report with %q", err, c.want)
			}
		})
	}
}
