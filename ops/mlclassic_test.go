package ops_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Worked examples of the ai.onnx.ml operators of classic-model exporters,
// and the pins of their divergences from onnxruntime (docs/divergences.md).

func ptr[T any](v T) *T { return &v }

func float32sOf(t *testing.T, x *tensor.Tensor) []float32 {
	t.Helper()
	v, err := tensor.Data[float32](x)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func near32(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Abs(float64(x-y)) <= 1e-6 })
}

func TestScalerNormalizerImputerExamples(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3, -4, 0, 4}, 2, 3)
	y, err := ops.Scaler(x, ops.ScalerOptions{Offset: []float32{1, 2, 3}, Scale: []float32{2, 0.5, -1}})
	if err != nil || !near32(float32sOf(t, y), []float32{0, 0, 0, -10, -1, -1}) {
		t.Errorf("Scaler: %v %v", y, err)
	}
	for _, c := range []struct {
		norm string
		want []float32
	}{
		{"MAX", []float32{1.0 / 3, 2.0 / 3, 1, -1, 0, 1}},
		{"L1", []float32{1.0 / 6, 2.0 / 6, 3.0 / 6, -0.5, 0, 0.5}},
		{"L2", []float32{float32(1 / math.Sqrt(14)), float32(2 / math.Sqrt(14)), float32(3 / math.Sqrt(14)), float32(-1 / math.Sqrt2), 0, float32(1 / math.Sqrt2)}},
	} {
		y, err := ops.Normalizer(x, ops.NormalizerOptions{Norm: ptr(c.norm)})
		if err != nil || !near32(float32sOf(t, y), c.want) {
			t.Errorf("Normalizer %s: %v %v", c.norm, y, err)
		}
	}
	nan := float32(math.NaN())
	y, err = ops.Imputer(tensor.MustFromSlice([]float32{nan, 2, nan, 4}, 2, 2),
		ops.ImputerOptions{ImputedValueFloats: []float32{-1, -2}, ReplacedValueFloat: ptr(nan)})
	if err != nil || !slices.Equal(float32sOf(t, y), []float32{-1, 2, -1, 4}) {
		t.Errorf("Imputer: %v %v", y, err)
	}
	_, err = ops.Imputer(tensor.MustFromSlice([]int64{1, 2}, 2), ops.ImputerOptions{ImputedValueFloats: []float32{0}})
	var e *ops.Error
	if !errors.As(err, &e) || e.Rule != "imputed" {
		t.Errorf("Imputer with float values on int64: %v", err)
	}
}

func TestOneHotCategoryFeatureExamples(t *testing.T) {
	y, err := ops.OneHotEncoder(tensor.MustFromSlice([]int64{4, 1, 9}, 3), ops.OneHotEncoderOptions{CatsInt64s: []int64{1, 4, 7}})
	if err != nil || !slices.Equal(y.Shape(), []int{3, 3}) || !slices.Equal(float32sOf(t, y), []float32{0, 1, 0, 1, 0, 0, 0, 0, 0}) {
		t.Errorf("OneHotEncoder: %v %v", y, err)
	}
	if _, err := ops.OneHotEncoder(tensor.MustFromSlice([]int64{9}, 1), ops.OneHotEncoderOptions{CatsInt64s: []int64{1}, Zeros: ptr(int64(0))}); err == nil {
		t.Error("OneHotEncoder with zeros 0 took an unknown category")
	}
	y, err = ops.CategoryMapper(tensor.MustFromSlice([]string{"b", "z", "a"}, 3),
		ops.CategoryMapperOptions{CatsStrings: []string{"a", "b"}, CatsInt64s: []int64{10, 20}})
	if v, _ := tensor.Data[int64](y); err != nil || !slices.Equal(v, []int64{20, -1, 10}) {
		t.Errorf("CategoryMapper: %v %v", y, err)
	}
	y, err = ops.FeatureVectorizer([]*tensor.Tensor{tensor.MustFromSlice([]int64{1, 2, 3, 4}, 2, 2), tensor.MustFromSlice([]int64{5, 6}, 2, 1)},
		ops.FeatureVectorizerOptions{Inputdimensions: []int64{1, 2}})
	if err != nil || !slices.Equal(y.Shape(), []int{2, 3}) || !slices.Equal(float32sOf(t, y), []float32{1, 5, 0, 3, 6, 0}) {
		t.Errorf("FeatureVectorizer: %v %v", y, err)
	}
}

func TestLinearExamples(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, -1, 0.5}, 2, 2)
	y, err := ops.LinearRegressor(x, ops.LinearRegressorOptions{Coefficients: []float32{1, 1, 2, -2}, Intercepts: []float32{0.5, 0}, Targets: ptr(int64(2))})
	if err != nil || !slices.Equal(float32sOf(t, y), []float32{3.5, -2, 0, -3}) {
		t.Errorf("LinearRegressor: %v %v", y, err)
	}
	out, err := ops.LinearClassifier(x, ops.LinearClassifierOptions{Coefficients: []float32{1, 1, 2, -2, 0, 0},
		ClasslabelsStrings: []string{"a", "b", "c"}, PostTransform: ptr("SOFTMAX")})
	if err != nil || !slices.Equal(out[0].Strings(), []string{"a", "c"}) {
		t.Fatalf("LinearClassifier: %v %v", out, err)
	}
	if z := float32sOf(t, out[1]); !near32(z[3:], []float32{float32(math.Exp(-0.5) / (math.Exp(-0.5) + math.Exp(-3) + 1)),
		float32(math.Exp(-3) / (math.Exp(-0.5) + math.Exp(-3) + 1)), float32(1 / (math.Exp(-0.5) + math.Exp(-3) + 1))}) {
		t.Errorf("LinearClassifier scores %v", z)
	}
}

// TestLinearTransformsOneScore pins the divergence from onnxruntime: with
// one score per row (LinearRegressor of one target, LinearClassifier's
// binary form), post_transform still applies, as the specification says;
// onnxruntime skips it (but PROBIT).
func TestLinearTransformsOneScore(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 1}, 1, 2)
	y, err := ops.LinearRegressor(x, ops.LinearRegressorOptions{Coefficients: []float32{1, 1}, PostTransform: ptr("LOGISTIC")})
	if want := float32(1 / (1 + math.Exp(-2))); err != nil || float32sOf(t, y)[0] != want {
		t.Errorf("LinearRegressor LOGISTIC of 2: %v %v, want %v", y, err, want)
	}
	out, err := ops.LinearClassifier(x, ops.LinearClassifierOptions{Coefficients: []float32{1, 1}, ClasslabelsInts: []int64{0, 1}, PostTransform: ptr("LOGISTIC")})
	if err != nil {
		t.Fatal(err)
	}
	p := float32(1 / (1 + math.Exp(-2)))
	if lab, _ := tensor.Data[int64](out[0]); lab[0] != 1 || !near32(float32sOf(t, out[1]), []float32{1 - p, p}) {
		t.Errorf("binary LinearClassifier LOGISTIC of 2: %v %v, want label 1 and [%v %v]", out[0], out[1], 1-p, p)
	}
}

// SOFTMAX_ZERO is the ONNX reference implementation's: a score within 1e-7
// of zero is scaled by exp(-max) instead of exponentiated, and a row whose
// scores are all zero becomes 0.5 everywhere (onnxruntime divides 0 by 0
// and returns NaN there).
func TestSoftmaxZeroAsTheReferenceImplementation(t *testing.T) {
	x := tensor.MustFromSlice([]float32{0, 0, 0, 1, 0, 2, 5e-8, 0, 1}, 3, 3)
	identity := []float32{1, 0, 0, 0, 1, 0, 0, 0, 1}
	y, err := ops.LinearRegressor(x, ops.LinearRegressorOptions{Coefficients: identity, Targets: ptr(int64(3)), PostTransform: ptr("SOFTMAX_ZERO")})
	if err != nil {
		t.Fatal(err)
	}
	e1 := math.Exp(-1)
	s := 5e-8*math.Exp(-1) + 0 + 1
	want := []float32{0.5, 0.5, 0.5,
		float32(e1 / (e1 + 1)), 0, float32(1 / (e1 + 1)),
		float32(5e-8 * math.Exp(-1) / s), 0, float32(1 / s)}
	if got := float32sOf(t, y); !near32(got, want) || got[0] != 0.5 {
		t.Errorf("SOFTMAX_ZERO of %v: %v, want %v", x, got, want)
	}
}
