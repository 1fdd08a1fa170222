package ops

// The spec's examples of the reductions, the softmax family, ArgMax/ArgMin,
// CumSum, TopK and the pooling operators beside MaxPool, and the choices
// this implementation makes where the spec is silent (docs/divergences.md,
// "Reductions, softmax, arg/cum/topk and pooling").

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/tensor"
)

// familyCase is one run of one operator version and the outputs it must
// give, as float64 values (NaN matching NaN) and shapes.
type familyCase struct {
	name    string
	op      string
	version int
	attrs   map[string]Attribute
	in      []tensor.Value
	shapes  [][]int
	want    [][]float64
}

func familyFloats(shape []int, v ...float32) *tensor.Tensor { return tensor.MustFromSlice(v, shape...) }

func runFamilyCases(t *testing.T, cases []familyCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := runKernel(nil, c.op, c.version, len(c.want), c.attrs, c.in...)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range c.want {
				y := out[i].(*tensor.Tensor)
				got, err := y.Float64s()
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(y.Shape(), c.shapes[i]) {
					t.Fatalf("output %d has shape %v, want %v", i, y.Shape(), c.shapes[i])
				}
				same := len(got) == len(w)
				for j := range got {
					if same && got[j] != w[j] && !(math.IsNaN(got[j]) && math.IsNaN(w[j])) &&
						math.Abs(got[j]-w[j]) > 1e-5*math.Abs(w[j]) {
						same = false
					}
				}
				if !same {
					t.Fatalf("output %d is %v, want %v", i, got, w)
				}
			}
		})
	}
}

var familyNaN, familyInf = math.NaN(), math.Inf(1)

func TestReductionExamples(t *testing.T) {
	// The examples of the ONNX documentation: data of shape [3, 2, 2].
	data := familyFloats([]int{3, 2, 2}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
	maxData := familyFloats([]int{3, 2, 2}, 5, 1, 20, 2, 30, 1, 40, 2, 55, 1, 60, 2)
	axes1 := tensor.MustFromSlice([]int64{1})
	keep := map[string]Attribute{"keepdims": intAttribute(1)}
	drop := map[string]Attribute{"keepdims": intAttribute(0)}
	runFamilyCases(t, []familyCase{
		{"ReduceSum keepdims", "ReduceSum", 13, keep, []tensor.Value{data, axes1}, [][]int{{3, 1, 2}}, [][]float64{{4, 6, 12, 14, 20, 22}}},
		{"ReduceSum-1 axes attribute", "ReduceSum", 1, map[string]Attribute{"axes": ints(1), "keepdims": intAttribute(0)},
			[]tensor.Value{data}, [][]int{{3, 2}}, [][]float64{{4, 6, 12, 14, 20, 22}}},
		{"ReduceSum default axes", "ReduceSum", 13, keep, []tensor.Value{data}, [][]int{{1, 1, 1}}, [][]float64{{78}}},
		{"ReduceMean do not keepdims", "ReduceMean", 18, drop, []tensor.Value{data, axes1}, [][]int{{3, 2}}, [][]float64{{2, 3, 6, 7, 10, 11}}},
		{"ReduceMax keepdims", "ReduceMax", 18, keep, []tensor.Value{maxData, axes1}, [][]int{{3, 1, 2}}, [][]float64{{20, 2, 40, 2, 60, 2}}},
		{"ReduceMin keepdims", "ReduceMin", 18, keep, []tensor.Value{maxData, axes1}, [][]int{{3, 1, 2}}, [][]float64{{5, 1, 30, 1, 55, 1}}},
		{"ReduceProd keepdims", "ReduceProd", 18, keep, []tensor.Value{data, axes1}, [][]int{{3, 1, 2}}, [][]float64{{3, 8, 35, 48, 99, 120}}},
		{"ReduceL1 axes 2", "ReduceL1", 18, keep, []tensor.Value{data, tensor.MustFromSlice([]int64{2})}, [][]int{{3, 2, 1}},
			[][]float64{{3, 7, 11, 15, 19, 23}}},
		{"ReduceL2 axes 2", "ReduceL2", 18, keep, []tensor.Value{data, tensor.MustFromSlice([]int64{2})}, [][]int{{3, 2, 1}},
			[][]float64{{math.Sqrt(5), 5, math.Sqrt(61), math.Sqrt(113), math.Sqrt(181), math.Sqrt(265)}}},
		{"ReduceSumSquare keepdims", "ReduceSumSquare", 18, keep, []tensor.Value{data, axes1}, [][]int{{3, 1, 2}},
			[][]float64{{10, 20, 74, 100, 202, 244}}},
		{"ReduceLogSum axes 2,1", "ReduceLogSum", 18, keep, []tensor.Value{data, tensor.MustFromSlice([]int64{2, 1})}, [][]int{{3, 1, 1}},
			[][]float64{{math.Log(10), math.Log(26), math.Log(42)}}},
		{"ReduceLogSumExp keepdims", "ReduceLogSumExp", 18, keep, []tensor.Value{data, axes1}, [][]int{{3, 1, 2}},
			[][]float64{{math.Log(math.Exp(1) + math.Exp(3)), math.Log(math.Exp(2) + math.Exp(4)), math.Log(math.Exp(5) + math.Exp(7)),
				math.Log(math.Exp(6) + math.Exp(8)), math.Log(math.Exp(9) + math.Exp(11)), math.Log(math.Exp(10) + math.Exp(12))}}},
		// Reduce-middle and the general walk (axes 0 and 2 are not adjacent).
		{"ReduceSum axes 0,2", "ReduceSum", 13, drop, []tensor.Value{data, tensor.MustFromSlice([]int64{0, 2})}, [][]int{{2}},
			[][]float64{{1 + 2 + 5 + 6 + 9 + 10, 3 + 4 + 7 + 8 + 11 + 12}}},
		{"ReduceMax axis 1 of 4-D", "ReduceMax", 18, drop, []tensor.Value{familyFloats([]int{1, 3, 2, 1}, 1, 9, 4, 2, 7, 3), axes1}, [][]int{{1, 2, 1}},
			[][]float64{{7, 9}}},
	})
}

// TestReductionChoices pins what the reductions do where ONNX is silent or
// says "undefined" (docs/divergences.md).
func TestReductionChoices(t *testing.T) {
	keep := map[string]Attribute{"keepdims": intAttribute(0)}
	i32 := func(v ...int32) *tensor.Tensor { return tensor.MustFromSlice(v) }
	empty := familyFloats([]int{0})
	runFamilyCases(t, []familyCase{
		{"int32 sum wraps", "ReduceSum", 13, keep, []tensor.Value{i32(math.MaxInt32, 1)}, [][]int{{}}, [][]float64{{math.MinInt32}}},
		{"int32 mean truncates toward zero", "ReduceMean", 18, keep, []tensor.Value{i32(-1, -2)}, [][]int{{}}, [][]float64{{-1}}},
		{"int32 mean of the wrapped sum", "ReduceMean", 18, keep, []tensor.Value{i32(math.MaxInt32, 1)}, [][]int{{}}, [][]float64{{math.MinInt32 / 2}}},
		{"mean of no element is NaN", "ReduceMean", 18, keep, []tensor.Value{empty}, [][]int{{}}, [][]float64{{familyNaN}}},
		{"int32 mean of no element is 0", "ReduceMean", 18, keep, []tensor.Value{tensor.MustFromSlice([]int32{})}, [][]int{{}}, [][]float64{{0}}},
		{"sum of no element", "ReduceSum", 13, keep, []tensor.Value{empty}, [][]int{{}}, [][]float64{{0}}},
		{"product of no element", "ReduceProd", 18, keep, []tensor.Value{empty}, [][]int{{}}, [][]float64{{1}}},
		{"max of no element", "ReduceMax", 18, keep, []tensor.Value{empty}, [][]int{{}}, [][]float64{{-familyInf}}},
		{"min of no element", "ReduceMin", 18, keep, []tensor.Value{empty}, [][]int{{}}, [][]float64{{familyInf}}},
		{"int32 max of no element", "ReduceMax", 18, keep, []tensor.Value{tensor.MustFromSlice([]int32{})}, [][]int{{}}, [][]float64{{math.MinInt32}}},
		{"bool min of no element", "ReduceMin", 20, keep, []tensor.Value{tensor.MustFromSlice([]bool{})}, [][]int{{}}, [][]float64{{1}}},
		{"log-sum-exp of no element", "ReduceLogSumExp", 18, keep, []tensor.Value{empty}, [][]int{{}}, [][]float64{{-familyInf}}},
		{"max: a NaN propagates", "ReduceMax", 18, keep, []tensor.Value{familyFloats([]int{3}, 1, float32(familyNaN), 3)}, [][]int{{}}, [][]float64{{familyNaN}}},
		{"min: a NaN propagates", "ReduceMin", 18, keep, []tensor.Value{familyFloats([]int{3}, 1, float32(familyNaN), 3)}, [][]int{{}}, [][]float64{{familyNaN}}},
		{"log-sum-exp of large numbers", "ReduceLogSumExp", 18, keep, []tensor.Value{familyFloats([]int{2}, 1000, 1000)}, [][]int{{}},
			[][]float64{{1000 + math.Ln2}}},
		{"log-sum-exp with +familyInf", "ReduceLogSumExp", 18, keep, []tensor.Value{familyFloats([]int{2}, float32(familyInf), 1)}, [][]int{{}}, [][]float64{{familyInf}}},
		{"log-sum-exp of -familyInf only", "ReduceLogSumExp", 18, keep, []tensor.Value{familyFloats([]int{2}, float32(-familyInf), float32(-familyInf))}, [][]int{{}},
			[][]float64{{-familyInf}}},
		{"int32 L2 truncates", "ReduceL2", 18, keep, []tensor.Value{i32(1, 1)}, [][]int{{}}, [][]float64{{1}}},
		{"int32 log-sum of 0 saturates", "ReduceLogSum", 18, keep, []tensor.Value{i32(0)}, [][]int{{}}, [][]float64{{math.MinInt32}}},
		{"noop_with_empty_axes still squares", "ReduceSumSquare", 18,
			map[string]Attribute{"noop_with_empty_axes": intAttribute(1)}, []tensor.Value{familyFloats([]int{2}, 2, 3)}, [][]int{{2}},
			[][]float64{{4, 9}}},
	})
}

func TestArgCumTopKChoices(t *testing.T) {
	withNaN := familyFloats([]int{4}, 1, float32(familyNaN), 3, float32(familyNaN))
	runFamilyCases(t, []familyCase{
		{"ArgMax: the first NaN", "ArgMax", 13, map[string]Attribute{"keepdims": intAttribute(0)}, []tensor.Value{withNaN},
			[][]int{{}}, [][]float64{{1}}},
		{"ArgMax: the last NaN with select_last_index", "ArgMax", 13,
			map[string]Attribute{"keepdims": intAttribute(0), "select_last_index": intAttribute(1)}, []tensor.Value{withNaN},
			[][]int{{}}, [][]float64{{3}}},
		{"ArgMin: a NaN too", "ArgMin", 13, nil, []tensor.Value{withNaN}, [][]int{{1}}, [][]float64{{1}}},
		{"ArgMax ties: first", "ArgMax", 13, nil, []tensor.Value{familyFloats([]int{2, 3}, 2, 7, 5, 7, 7, 1)},
			[][]int{{1, 3}}, [][]float64{{1, 0, 0}}},
		{"ArgMax along axis 1, last", "ArgMax", 13, map[string]Attribute{"axis": intAttribute(1), "select_last_index": intAttribute(1)},
			[]tensor.Value{familyFloats([]int{2, 3}, 2, 7, 5, 7, 7, 1)}, [][]int{{2, 1}}, [][]float64{{1, 1}}},
		{"CumSum int32 wraps", "CumSum", 14, nil, []tensor.Value{tensor.MustFromSlice([]int32{math.MaxInt32, 1}), tensor.Scalar(int32(0))},
			[][]int{{2}}, [][]float64{{math.MaxInt32, math.MinInt32}}},
		{"CumSum exclusive reverse", "CumSum", 14, map[string]Attribute{"exclusive": intAttribute(1), "reverse": intAttribute(1)},
			[]tensor.Value{familyFloats([]int{5}, 1, 2, 3, 4, 5), tensor.Scalar(int64(0))}, [][]int{{5}}, [][]float64{{14, 12, 9, 5, 0}}},
		{"CumSum axis 0 of 2-D", "CumSum", 11, nil, []tensor.Value{familyFloats([]int{2, 3}, 1, 2, 3, 4, 5, 6), tensor.MustFromSlice([]int64{0})},
			[][]int{{2, 3}}, [][]float64{{1, 2, 3, 5, 7, 9}}},
		// CumProd-26's example: [1, 2, 3] inclusive, exclusive, reverse, both.
		{"CumProd", "CumProd", 26, nil, []tensor.Value{familyFloats([]int{3}, 1, 2, 3), tensor.Scalar(int64(0))},
			[][]int{{3}}, [][]float64{{1, 2, 6}}},
		{"CumProd exclusive", "CumProd", 26, map[string]Attribute{"exclusive": intAttribute(1)},
			[]tensor.Value{familyFloats([]int{3}, 1, 2, 3), tensor.Scalar(int64(0))}, [][]int{{3}}, [][]float64{{1, 1, 2}}},
		{"CumProd reverse", "CumProd", 26, map[string]Attribute{"reverse": intAttribute(1)},
			[]tensor.Value{familyFloats([]int{3}, 1, 2, 3), tensor.Scalar(int64(0))}, [][]int{{3}}, [][]float64{{6, 6, 3}}},
		{"CumProd exclusive reverse", "CumProd", 26, map[string]Attribute{"exclusive": intAttribute(1), "reverse": intAttribute(1)},
			[]tensor.Value{familyFloats([]int{3}, 1, 2, 3), tensor.Scalar(int32(-1))}, [][]int{{3}}, [][]float64{{6, 3, 1}}},
		{"CumProd axis 1 of 2-D", "CumProd", 26, nil, []tensor.Value{familyFloats([]int{2, 3}, 1, 2, 3, 4, 5, 6), tensor.MustFromSlice([]int64{1})},
			[][]int{{2, 3}}, [][]float64{{1, 2, 6, 4, 20, 120}}},
		{"CumProd exclusive along axis 0 starts rows at 1", "CumProd", 26, map[string]Attribute{"exclusive": intAttribute(1)},
			[]tensor.Value{familyFloats([]int{2, 2}, 2, 3, 4, 5), tensor.Scalar(int64(0))}, [][]int{{2, 2}}, [][]float64{{1, 1, 2, 3}}},
		{"CumProd int32 wraps", "CumProd", 26, nil, []tensor.Value{tensor.MustFromSlice([]int32{1 << 30, 4}), tensor.Scalar(int32(0))},
			[][]int{{2}}, [][]float64{{1 << 30, 0}}},
		{"TopK: a NaN is the largest", "TopK", 11, nil, []tensor.Value{familyFloats([]int{3}, 1, float32(familyNaN), 3), tensor.MustFromSlice([]int64{2})},
			[][]int{{2}, {2}}, [][]float64{{familyNaN, 3}, {1, 2}}},
		{"TopK smallest: a NaN is last", "TopK", 11, map[string]Attribute{"largest": intAttribute(0)},
			[]tensor.Value{familyFloats([]int{3}, float32(familyNaN), 3, 1), tensor.MustFromSlice([]int64{3})},
			[][]int{{3}, {3}}, [][]float64{{1, 3, familyNaN}, {2, 1, 0}}},
		{"TopK ties by lower index", "TopK", 11, nil, []tensor.Value{familyFloats([]int{4}, 2, 1, 2, 2), tensor.MustFromSlice([]int64{3})},
			[][]int{{3}, {3}}, [][]float64{{2, 2, 2}, {0, 2, 3}}},
		{"TopK-1 along axis 0", "TopK", 1, map[string]Attribute{"k": intAttribute(1), "axis": intAttribute(0)},
			[]tensor.Value{familyFloats([]int{2, 2}, 1, 4, 3, 2)}, [][]int{{1, 2}, {1, 2}}, [][]float64{{3, 4}, {1, 0}}},
	})
}

func TestSoftmaxFamilyExamples(t *testing.T) {
	x := familyFloats([]int{2, 2}, 0, 1, 2, 3)
	e := 1 / (1 + math.E)
	all := math.Exp(0) + math.Exp(1) + math.Exp(2) + math.Exp(3)
	runFamilyCases(t, []familyCase{
		{"Softmax-13 along the last axis", "Softmax", 13, nil, []tensor.Value{x}, [][]int{{2, 2}}, [][]float64{{e, 1 - e, e, 1 - e}}},
		{"Softmax-13 along axis 0", "Softmax", 13, map[string]Attribute{"axis": intAttribute(0)}, []tensor.Value{x}, [][]int{{2, 2}},
			[][]float64{{1 / (1 + math.Exp(2)), 1 / (1 + math.Exp(2)), 1 - 1/(1+math.Exp(2)), 1 - 1/(1+math.Exp(2))}}},
		{"Softmax-11 coerces to 2-D at axis 0", "Softmax", 11, map[string]Attribute{"axis": intAttribute(0)}, []tensor.Value{x},
			[][]int{{2, 2}}, [][]float64{{1 / all, math.E / all, math.Exp(2) / all, math.Exp(3) / all}}},
		{"Softmax of large numbers", "Softmax", 13, nil, []tensor.Value{familyFloats([]int{2}, 1000, 1000)}, [][]int{{2}}, [][]float64{{0.5, 0.5}}},
		{"LogSoftmax-13", "LogSoftmax", 13, nil, []tensor.Value{x}, [][]int{{2, 2}},
			[][]float64{{math.Log(e), math.Log(1 - e), math.Log(e), math.Log(1 - e)}}},
		{"Hardmax: the first maximum", "Hardmax", 13, nil, []tensor.Value{familyFloats([]int{2, 3}, 3, 1, 3, 0, 2, 2)}, [][]int{{2, 3}},
			[][]float64{{1, 0, 0, 0, 1, 0}}},
		{"Hardmax: a NaN is the maximum", "Hardmax", 13, nil, []tensor.Value{familyFloats([]int{3}, 3, float32(familyNaN), 4)}, [][]int{{3}},
			[][]float64{{0, 1, 0}}},
	})
}

func TestPoolingChoices(t *testing.T) {
	x := familyFloats([]int{1, 1, 3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	k3p1 := map[string]Attribute{"kernel_shape": ints(3, 3), "pads": ints(1, 1, 1, 1)}
	withPad := map[string]Attribute{"kernel_shape": ints(3, 3), "pads": ints(1, 1, 1, 1), "count_include_pad": intAttribute(1)}
	// A window of padding only: 1-D X of length 1, kernel 2, 2 pads at the
	// beginning; the first window holds no real element.
	padOnly := map[string]Attribute{"kernel_shape": ints(2), "pads": ints(2, 0)}
	runFamilyCases(t, []familyCase{
		{"AveragePool 3x3 pads 1", "AveragePool", 22, k3p1, []tensor.Value{x}, [][]int{{1, 1, 3, 3}},
			[][]float64{{3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7}}},
		{"AveragePool count_include_pad", "AveragePool", 22, withPad, []tensor.Value{x}, [][]int{{1, 1, 3, 3}},
			[][]float64{{12.0 / 9, 21.0 / 9, 16.0 / 9, 27.0 / 9, 5, 33.0 / 9, 24.0 / 9, 39.0 / 9, 28.0 / 9}}},
		{"AveragePool: a window of padding only is NaN", "AveragePool", 22, padOnly, []tensor.Value{familyFloats([]int{1, 1, 1}, 4)},
			[][]int{{1, 1, 2}}, [][]float64{{familyNaN, 4}}},
		{"AveragePool: ... or 0 with count_include_pad", "AveragePool", 22,
			map[string]Attribute{"kernel_shape": ints(2), "pads": ints(2, 0), "count_include_pad": intAttribute(1)},
			[]tensor.Value{familyFloats([]int{1, 1, 1}, 4)}, [][]int{{1, 1, 2}}, [][]float64{{0, 2}}},
		{"LpPool p=1 is the sum of |x|", "LpPool", 18, map[string]Attribute{"kernel_shape": ints(2, 2), "p": intAttribute(1)},
			[]tensor.Value{familyFloats([]int{1, 1, 2, 2}, -1, 2, -3, 4)}, [][]int{{1, 1, 1, 1}}, [][]float64{{10}}},
		{"GlobalAveragePool", "GlobalAveragePool", 22, nil, []tensor.Value{x}, [][]int{{1, 1, 1, 1}}, [][]float64{{5}}},
		{"GlobalMaxPool", "GlobalMaxPool", 22, nil, []tensor.Value{x}, [][]int{{1, 1, 1, 1}}, [][]float64{{9}}},
		{"GlobalLpPool p=2", "GlobalLpPool", 2, nil, []tensor.Value{familyFloats([]int{1, 1, 2}, 3, 4)}, [][]int{{1, 1, 1}}, [][]float64{{5}}},
		{"GlobalAveragePool of an empty plane is NaN", "GlobalAveragePool", 22, nil, []tensor.Value{familyFloats([]int{1, 1, 0})},
			[][]int{{1, 1, 1}}, [][]float64{{familyNaN}}},
	})
}

// TestFamilyErrors checks that bad inputs are errors naming the rule.
func TestFamilyErrors(t *testing.T) {
	x := familyFloats([]int{2, 2}, 1, 2, 3, 4)
	for _, c := range []struct {
		op      string
		version int
		attrs   map[string]Attribute
		in      []tensor.Value
		rule    string
	}{
		{"ReduceSum", 13, nil, []tensor.Value{x, tensor.MustFromSlice([]int64{2})}, "axes"},
		{"ReduceSum", 13, nil, []tensor.Value{x, tensor.MustFromSlice([]int64{0, -2})}, "axes"},
		{"ReduceSum", 13, map[string]Attribute{"axes": ints(0)}, []tensor.Value{x}, "attribute"},
		{"ReduceMean", 18, nil, []tensor.Value{tensor.MustFromSlice([]int8{1})}, "type"},
		{"ReduceMax", 11, nil, []tensor.Value{tensor.MustFromSlice([]int8{1})}, "type"},
		{"ArgMax", 13, map[string]Attribute{"axis": intAttribute(2)}, []tensor.Value{x}, "axis"},
		{"ArgMax", 13, nil, []tensor.Value{familyFloats([]int{0, 2})}, "axis"},
		{"ArgMax", 11, map[string]Attribute{"select_last_index": intAttribute(1)}, []tensor.Value{x}, "attribute"},
		{"Softmax", 13, nil, []tensor.Value{tensor.MustFromSlice([]int32{1})}, "type"},
		{"Softmax", 1, map[string]Attribute{"axis": intAttribute(-3)}, []tensor.Value{x}, "axis"},
		{"CumSum", 11, nil, []tensor.Value{x, tensor.MustFromSlice([]int64{0, 1})}, "axis"},
		{"CumSum", 11, nil, []tensor.Value{familyFloats([]int{1}, 1).Clone(), tensor.Scalar(float32(0))}, "axis"},
		{"CumProd", 26, nil, []tensor.Value{tensor.MustFromSlice([]int8{1}), tensor.Scalar(int64(0))}, "type"},
		{"CumProd", 26, nil, []tensor.Value{x, tensor.Scalar(int64(-4))}, "axis"},
		{"CumProd", 26, map[string]Attribute{"reverse": intAttribute(2)}, []tensor.Value{x, tensor.Scalar(int64(0))}, "reverse"},
		{"TopK", 11, nil, []tensor.Value{x, tensor.MustFromSlice([]int64{3})}, "k"},
		{"TopK", 11, nil, []tensor.Value{x, tensor.MustFromSlice([]int64{-1})}, "k"},
		{"TopK", 1, nil, []tensor.Value{x}, "k"},
		{"AveragePool", 22, map[string]Attribute{"kernel_shape": ints(3, 3)}, []tensor.Value{familyFloats([]int{1, 1, 2, 2}, 1, 2, 3, 4)}, "kernel_shape"},
		{"AveragePool", 10, map[string]Attribute{"kernel_shape": ints(1, 1), "dilations": ints(1, 1)},
			[]tensor.Value{familyFloats([]int{1, 1, 2, 2}, 1, 2, 3, 4)}, "attribute"},
		{"LpPool", 18, map[string]Attribute{"kernel_shape": ints(1, 1), "p": intAttribute(0)},
			[]tensor.Value{familyFloats([]int{1, 1, 2, 2}, 1, 2, 3, 4)}, "p"},
		{"GlobalAveragePool", 22, nil, []tensor.Value{x}, "input-rank"},
	} {
		t.Run(fmt.Sprintf("%s-%d %s", c.op, c.version, c.rule), func(t *testing.T) {
			_, err := runKernel(nil, c.op, c.version, 2, c.attrs, c.in...)
			wantRule(t, err, c.rule, "")
		})
	}
}

// TestReductionLimits checks that the size limit and the charge see the
// outputs and the scratch before they are allocated.
func TestReductionLimits(t *testing.T) {
	x := familyFloats([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	_, err := runKernel(&Options{MaxTensorBytes: 8}, "Softmax", 13, 1, nil, x)
	wantRule(t, err, "size", "")
	charged := int64(0)
	opt := &Options{env: runenv.Env{Charge: func(n int64) error { charged += n; return nil }}}
	if _, err := runKernel(opt, "ReduceSum", 13, 1, nil, tensor.MustFromSlice([]float32{1, 2, 3, 4}, 2, 1, 2), tensor.MustFromSlice([]int64{0, 2})); err != nil {
		t.Fatal(err)
	}
	if charged < 4 {
		t.Fatalf("charged %d bytes, want the output's 4 at least", charged)
	}
}

// TestArgMaxSoftmaxProfile checks the SONNX rules of ArgMax and Softmax
// (argmax.md, softmax.md of the working group) and that ONNX runs the same
// nodes.
func TestArgMaxSoftmaxProfile(t *testing.T) {
	sonnx := &Options{Profile: ProfileSONNX}
	x := familyFloats([]int{2, 2}, 1, 2, 3, 4)
	all := map[string]Attribute{"axis": intAttribute(1), "keepdims": intAttribute(1), "select_last_index": intAttribute(0)}
	with := func(name string, v int64) map[string]Attribute {
		a := map[string]Attribute{}
		for k, w := range all {
			a[k] = w
		}
		a[name] = intAttribute(v)
		return a
	}
	for _, c := range []struct {
		op    string
		attrs map[string]Attribute
		in    *tensor.Tensor
		rule  string
	}{
		{"ArgMax", map[string]Attribute{"axis": intAttribute(1), "keepdims": intAttribute(1)}, x, "R3"},
		{"ArgMax", map[string]Attribute{"keepdims": intAttribute(1), "select_last_index": intAttribute(0)}, x, "R1"},
		{"ArgMax", with("axis", -1), x, "axis [C1]"},
		{"ArgMax", with("axis", 2), x, "axis [C2]"},
		{"ArgMax", with("keepdims", 2), x, "keepdims [C1]"},
		{"ArgMax", all, familyFloats([]int{2, 0}), "X [C2]"},
		{"ArgMax", all, tensor.MustFromSlice([]tensor.BF16{1}, 1, 1), "TYPES"},
		{"Softmax", map[string]Attribute{"axis": intAttribute(-1)}, x, "axis [C1]"},
		{"Softmax", map[string]Attribute{"axis": intAttribute(2)}, x, "axis [C2]"},
	} {
		t.Run(c.op+" "+c.rule, func(t *testing.T) {
			_, err := runKernel(sonnx, c.op, 13, 1, c.attrs, c.in)
			wantRule(t, err, c.rule, "")
		})
	}
	if _, err := runKernel(sonnx, "ArgMax", 13, 1, all, x); err != nil {
		t.Fatalf("ArgMax with every attribute under SONNX: %v", err)
	}
	// softmax.md: "0, if X[i] = -familyInf" when no element is NaN or +familyInf; ONNX's
	// reference gives NaN (0/0) for a slice of -familyInf only.
	negInf := familyFloats([]int{2, 2}, float32(-familyInf), float32(-familyInf), 1, float32(-familyInf))
	for _, c := range []struct {
		opt  *Options
		want []float64
	}{{sonnx, []float64{0, 0, 1, 0}}, {nil, []float64{familyNaN, familyNaN, 1, 0}}} {
		out, err := runKernel(c.opt, "Softmax", 13, 1, map[string]Attribute{"axis": intAttribute(1)}, negInf)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := out[0].(*tensor.Tensor).Float64s()
		for i := range got {
			if got[i] != c.want[i] && !(math.IsNaN(got[i]) && math.IsNaN(c.want[i])) {
				t.Fatalf("Softmax of %v: got %v, want %v", negInf, got, c.want)
			}
		}
	}
}

// TestFamilyParallelSameBits runs large inputs (split across the worker
// pool) on every core and on one: the same bits, for every layout.
func TestFamilyParallelSameBits(t *testing.T) {
	x := randomOf(rand.New(rand.NewPCG(9, 10)), tensor.Float, []int{2, 3, 40, 300})
	axes := func(v ...int64) tensor.Value { return tensor.MustFromSlice(v) }
	for _, c := range []struct {
		op    string
		v     int
		attrs map[string]Attribute
		in    []tensor.Value
	}{
		{"ReduceMean", 18, nil, []tensor.Value{x, axes(3)}},
		{"ReduceSum", 13, nil, []tensor.Value{x, axes(0)}},
		{"ReduceMax", 18, nil, []tensor.Value{x, axes(2)}},
		{"ReduceLogSumExp", 18, nil, []tensor.Value{x, axes(1, 3)}},
		{"ReduceL2", 18, nil, []tensor.Value{x, axes(0, 2)}},
		{"Softmax", 13, nil, []tensor.Value{x}},
		{"LogSoftmax", 13, map[string]Attribute{"axis": intAttribute(2)}, []tensor.Value{x}},
		{"ArgMax", 13, map[string]Attribute{"axis": intAttribute(3)}, []tensor.Value{x}},
		{"ArgMin", 13, map[string]Attribute{"axis": intAttribute(1)}, []tensor.Value{x}},
		{"CumSum", 14, nil, []tensor.Value{x, tensor.Scalar(int64(2))}},
		{"CumProd", 26, map[string]Attribute{"reverse": intAttribute(1)}, []tensor.Value{x, tensor.Scalar(int64(1))}},
		{"TopK", 11, nil, []tensor.Value{x, tensor.MustFromSlice([]int64{5})}},
		{"AveragePool", 22, map[string]Attribute{"kernel_shape": ints(3, 3), "pads": ints(1, 1, 1, 1)}, []tensor.Value{x}},
		{"GlobalAveragePool", 22, nil, []tensor.Value{x}},
	} {
		one, err := runKernel(&Options{Threads: 1}, c.op, c.v, 2, c.attrs, c.in...)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		all, err := runKernel(nil, c.op, c.v, 2, c.attrs, c.in...)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		for i := range one {
			if !one[i].(*tensor.Tensor).Equal(all[i].(*tensor.Tensor)) {
				t.Fatalf("%s: output %d differs between one core and all", c.op, i)
			}
		}
	}
}

// TestFamilyDirtyStorage runs the family with Options.Alloc handing out
// storage full of garbage, as graph.Pool recycles it: every output element
// must be written.
func TestFamilyDirtyStorage(t *testing.T) {
	dirty := &Options{env: runenv.Env{Alloc: func(size int) []byte {
		b := make([]byte, size)
		for i := range b {
			b[i] = 0xA5
		}
		return b
	}}}
	rng := rand.New(rand.NewPCG(11, 12))
	x := randomOf(rng, tensor.Float, []int{2, 3, 9, 10})
	h := randomOf(rng, tensor.Float16, []int{2, 3, 9, 10})
	empty := familyFloats([]int{2, 0, 3})
	axes := func(v ...int64) tensor.Value { return tensor.MustFromSlice(v) }
	pool := map[string]Attribute{"kernel_shape": ints(3, 3), "pads": ints(2, 2, 2, 2)}
	for _, c := range []struct {
		op    string
		v     int
		attrs map[string]Attribute
		in    []tensor.Value
	}{
		{"ReduceMean", 18, nil, []tensor.Value{x, axes(3)}},
		{"ReduceSum", 13, nil, []tensor.Value{x, axes(0, 2)}},
		{"ReduceMin", 18, nil, []tensor.Value{h, axes(1)}},
		{"ReduceProd", 18, nil, []tensor.Value{empty, axes(1)}},
		{"ReduceMin", 20, nil, []tensor.Value{tensor.MustFromSlice([]bool{}, 0, 2), axes(0)}},
		{"Softmax", 13, map[string]Attribute{"axis": intAttribute(1)}, []tensor.Value{x}},
		{"Hardmax", 13, nil, []tensor.Value{h}},
		{"ArgMin", 13, map[string]Attribute{"axis": intAttribute(2)}, []tensor.Value{x}},
		{"CumSum", 14, map[string]Attribute{"exclusive": intAttribute(1)}, []tensor.Value{h, tensor.Scalar(int32(3))}},
		{"CumProd", 26, map[string]Attribute{"exclusive": intAttribute(1)}, []tensor.Value{x, tensor.Scalar(int32(2))}},
		{"TopK", 11, nil, []tensor.Value{x, tensor.MustFromSlice([]int64{4})}},
		{"AveragePool", 22, pool, []tensor.Value{x}},
		{"LpPool", 22, pool, []tensor.Value{h}},
		{"GlobalMaxPool", 22, nil, []tensor.Value{x}},
	} {
		clean, err := runKernel(nil, c.op, c.v, 2, c.attrs, c.in...)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		got, err := runKernel(dirty, c.op, c.v, 2, c.attrs, c.in...)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		for i := range clean {
			if !clean[i].(*tensor.Tensor).Equal(got[i].(*tensor.Tensor)) {
				t.Fatalf("%s: output %d differs on recycled storage:\n%v\nwant\n%v", c.op, i, got[i], clean[i])
			}
		}
	}
}
