package ops

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The normalization operators: the spec's examples against float64
// formulas, their refusals (one line each, naming the rule), their limits
// and their cancellation. Agreement with the reference engine on random
// nodes is reference/normalization_engines_test.go's; the node tests are
// the conformance suite's.

func f32s(t *testing.T, x *tensor.Tensor) []float32 {
	t.Helper()
	v, err := tensor.ToSlice[float32](x)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func near(t *testing.T, what string, got []float32, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(float64(got[i])-want[i]) > tol*(1+math.Abs(want[i])) {
			t.Fatalf("%s: element %d is %v, want %v", what, i, got[i], want[i])
		}
	}
}

func TestBatchNormalizationExample(t *testing.T) {
	// The spec's example: x [1, 2, 1, 3], per-channel statistics.
	x := tensor.MustFromSlice([]float32{-1, 0, 1, 2, 3, 4}, 1, 2, 1, 3)
	s := tensor.MustFromSlice([]float32{1, 1.5}, 2)
	b := tensor.MustFromSlice([]float32{0, 1}, 2)
	mean := tensor.MustFromSlice([]float32{0, 3}, 2)
	variance := tensor.MustFromSlice([]float32{1, 1.5}, 2)
	y, err := BatchNormalization(x, s, b, mean, variance, BatchNormalizationOptions{Epsilon: new(float32(1e-5))})
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	for i, v := range []float64{-1, 0, 1, 2, 3, 4} {
		c := i / 3
		sc, bb, m, vr := []float64{1, 1.5}[c], []float64{0, 1}[c], []float64{0, 3}[c], []float64{1, 1.5}[c]
		want = append(want, sc*(v-m)/math.Sqrt(vr+float64(float32(1e-5)))+bb)
	}
	near(t, "Y", f32s(t, y), want, 1e-6)
}

func TestBatchNormalizationTraining(t *testing.T) {
	// training_mode 1: Y from the batch's statistics, the running ones
	// updated with momentum.
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 10, 20, 30, 40}, 2, 2, 2)
	one := tensor.MustFromSlice([]float32{1, 1}, 2)
	zero := tensor.MustFromSlice([]float32{0, 0}, 2)
	n := Node{OpType: "BatchNormalization", Attrs: map[string]Attribute{"training_mode": {Type: AttrInt, Int: 1},
		"momentum": {Type: AttrFloat, Float: 0.5}}, NumOutputs: 3}
	out, err := Call(context.Background(), nil, n, x, one, zero, zero, one)
	if err != nil {
		t.Fatal(err)
	}
	// Channel 0: 1, 2, 10, 20 (mean 8.25); channel 1: 3, 4, 30, 40.
	m0, m1 := 8.25, 19.25
	v0 := ((1-m0)*(1-m0) + (2-m0)*(2-m0) + (10-m0)*(10-m0) + (20-m0)*(20-m0)) / 4
	v1 := ((3-m1)*(3-m1) + (4-m1)*(4-m1) + (30-m1)*(30-m1) + (40-m1)*(40-m1)) / 4
	near(t, "running_mean", f32s(t, out[1].(*tensor.Tensor)), []float64{m0 / 2, m1 / 2}, 1e-6)
	near(t, "running_var", f32s(t, out[2].(*tensor.Tensor)), []float64{0.5 + v0/2, 0.5 + v1/2}, 1e-6)
	inv0, inv1 := 1/math.Sqrt(v0+1e-5), 1/math.Sqrt(v1+1e-5)
	near(t, "Y", f32s(t, out[0].(*tensor.Tensor)), []float64{(1 - m0) * inv0, (2 - m0) * inv0, (3 - m1) * inv1, (4 - m1) * inv1,
		(10 - m0) * inv0, (20 - m0) * inv0, (30 - m1) * inv1, (40 - m1) * inv1}, 1e-5)
}

func TestLayerNormalizationExample(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 6, 8}, 2, 3)
	s := tensor.MustFromSlice([]float32{1, 2, 3}, 3)
	b := tensor.MustFromSlice([]float32{0.5, 0, -0.5}, 3)
	y, mean, inv, err := LayerNormalization(x, s, b, NormalizationOptions{Axis: new(-1), Epsilon: new(float32(1e-5))})
	if err != nil {
		t.Fatal(err)
	}
	eps := float64(float32(1e-5))
	i0, i1 := 1/math.Sqrt(2.0/3+eps), 1/math.Sqrt(8.0/3+eps)
	near(t, "Y", f32s(t, y), []float64{-i0 + 0.5, 0, i0*3 - 0.5, -2*i1 + 0.5, 0, 2*i1*3 - 0.5}, 1e-6)
	near(t, "Mean", f32s(t, mean), []float64{2, 6}, 0)
	near(t, "InvStdDev", f32s(t, inv), []float64{i0, i1}, 1e-7)
	if !tensor.SameShape(mean.Shape(), []int{2, 1}) {
		t.Fatalf("Mean has shape %v", mean.Shape())
	}
}

func TestRMSNormalizationExample(t *testing.T) {
	x := tensor.MustFromSlice([]float32{3, 4, 0, 0}, 2, 2)
	s := tensor.MustFromSlice([]float64{1, 2}, 2)
	y, err := RMSNormalization(x, s, NormalizationOptions{Axis: new(-1), Epsilon: new(float32(0))})
	if err != nil {
		t.Fatal(err)
	}
	if y.DataType() != tensor.Double { // Y has scale's type V
		t.Fatalf("Y is %v", y.DataType())
	}
	v, _ := tensor.ToSlice[float64](y)
	r := math.Sqrt(12.5)
	if v[0] != 3/r || v[1] != 8/r || !math.IsNaN(v[2]) {
		t.Fatalf("Y is %v", v)
	}
}

// TestNormalizationRefusals: each bad node is one *Error naming the rule,
// on one line.
func TestNormalizationRefusals(t *testing.T) {
	f := func(shape ...int) *tensor.Tensor { return tensor.MustNew(tensor.Float, shape...) }
	attrs := func(kv ...any) map[string]Attribute {
		m := map[string]Attribute{}
		for i := 0; i < len(kv); i += 2 {
			switch v := kv[i+1].(type) {
			case int:
				m[kv[i].(string)] = Attribute{Type: AttrInt, Int: int64(v)}
			case []int64:
				m[kv[i].(string)] = Attribute{Type: AttrInts, Ints: v}
			}
		}
		return m
	}
	cases := []struct {
		op      string
		version int
		attrs   map[string]Attribute
		outputs int
		in      []tensor.Value
		rule    string
	}{
		{"BatchNormalization", 15, nil, 1, []tensor.Value{f(2, 3, 4), f(4), f(3), f(3), f(3)}, "shape"},
		{"BatchNormalization", 15, nil, 1, []tensor.Value{tensor.MustNew(tensor.Int32, 2, 3), f(3), f(3), f(3), f(3)}, "type"},
		{"BatchNormalization", 14, nil, 1, []tensor.Value{f(2, 3), tensor.MustNew(tensor.Double, 3), f(3), f(3), f(3)}, "type"},
		{"BatchNormalization", 15, nil, 3, []tensor.Value{f(2, 3), f(3), f(3), f(3), f(3)}, "outputs"},
		{"BatchNormalization", 7, nil, 1, []tensor.Value{f(3), f(1), f(1), f(1), f(1)}, "rank"},
		{"LayerNormalization", 17, attrs("axis", 2), 1, []tensor.Value{f(2, 3), f(3)}, "axis"},
		{"LayerNormalization", 17, nil, 1, []tensor.Value{f(2, 3), f(2)}, "scale"},
		{"LayerNormalization", 17, attrs("stash_type", 11), 1, []tensor.Value{f(2, 3), f(3)}, "stash_type"},
		{"RMSNormalization", 23, attrs("axis", -3), 1, []tensor.Value{f(2, 3), f(3)}, "axis"},
		{"InstanceNormalization", 6, nil, 1, []tensor.Value{f(2, 3, 4), f(2), f(3)}, "scale"},
		{"InstanceNormalization", 6, nil, 1, []tensor.Value{tensor.MustNew(tensor.BFloat16, 2, 3, 4), tensor.MustNew(tensor.BFloat16, 3), tensor.MustNew(tensor.BFloat16, 3)}, "type"},
		{"GroupNormalization", 21, attrs("num_groups", 4), 1, []tensor.Value{f(2, 6, 4), f(6), f(6)}, "num_groups"},
		{"GroupNormalization", 21, nil, 1, []tensor.Value{f(2, 6, 4), f(6), f(6)}, "num_groups"},
		{"GroupNormalization", 21, attrs("num_groups", 2), 1, []tensor.Value{f(2, 6, 4), f(2), f(2)}, "scale"},
		{"GroupNormalization", 18, attrs("num_groups", 2), 1, []tensor.Value{f(2, 6, 4), f(6), f(6)}, "scale"},
		{"MeanVarianceNormalization", 13, attrs("axes", []int64{0, 0}), 1, []tensor.Value{f(2, 3)}, "axes"},
		{"MeanVarianceNormalization", 13, nil, 1, []tensor.Value{f(2, 3)}, "axes"},
		{"LpNormalization", 22, attrs("p", 3), 1, []tensor.Value{f(2, 3)}, "p"},
		{"LpNormalization", 1, attrs("axis", 2), 1, []tensor.Value{f(2, 3)}, "axis"},
		{"LRN", 13, nil, 1, []tensor.Value{f(1, 3, 4, 4)}, "size"},
		{"LRN", 13, attrs("size", 0), 1, []tensor.Value{f(1, 3, 4, 4)}, "size"},
		{"LRN", 13, attrs("size", 3), 1, []tensor.Value{f(3)}, "rank"},
	}
	for _, c := range cases {
		n := Node{OpType: c.op, Version: c.version, Attrs: c.attrs, NumOutputs: c.outputs}
		s, err := Lookup("", c.op, c.version)
		if err != nil {
			t.Fatal(err)
		}
		n.Version = s.Since
		_, err = s.Run(nil, &n, c.in)
		var e *Error
		if !errors.As(err, &e) || e.Rule != c.rule || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s-%d %v: got %v, want rule %q", c.op, c.version, c.attrs, err, c.rule)
		}
	}
}

func TestNormalizationLimitAndCancel(t *testing.T) {
	x := floats(64, 1024)
	s := floats(1024)
	// The output alone passes a cap of 64 KiB.
	_, _, _, err := LayerNormalization(x, s, nil, NormalizationOptions{}, WithMaxTensorBytes(64<<10))
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("LayerNormalization over the cap: %v", err)
	}
	// Cancelled from the first look at the context in the kernel.
	big := floats(1024, 2048)
	for _, run := range []func(context.Context) error{
		func(ctx context.Context) error {
			_, _, _, err := LayerNormalization(big, floats(2048), nil, NormalizationOptions{}, WithContext(ctx))
			return err
		},
		func(ctx context.Context) error {
			x := floats(8, 64, 64, 64)
			c := floats(64)
			_, err := BatchNormalization(x, c, c, c, c, BatchNormalizationOptions{}, WithContext(ctx))
			return err
		},
	} {
		ctx := &errAfterContext{Context: context.Background(), live: 1}
		if err := run(ctx); !errors.Is(err, context.Canceled) || ctx.calls.Load() < 2 {
			t.Fatalf("cancelled run: %v after %d looks", err, ctx.calls.Load())
		}
	}
}

// errAfterContext is cancelled after live looks at Err: the plain
// function's check before it starts sees it live, the kernel's first look
// between parts a cancelled one.
type errAfterContext struct {
	context.Context
	live  int64
	calls atomic.Int64
}

func (c *errAfterContext) Err() error {
	if c.calls.Add(1) > c.live {
		return context.Canceled
	}
	return nil
}

// The spec's results where onnxruntime differs (docs/divergences.md).
func TestMeanVarianceConstantSlice(t *testing.T) {
	x := tensor.MustFromSlice([]float32{3, -2}, 1, 2, 1, 1)
	out, err := Call(context.Background(), nil, Node{OpType: "MeanVarianceNormalization", Attrs: map[string]Attribute{"axes": {Type: AttrInts, Ints: []int64{2, 3}}}}, x)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Y", f32s(t, out[0].(*tensor.Tensor)), []float64{0, 0}, 0)
}

func TestLRNEvenSize(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3}, 1, 3, 1, 1)
	n := Node{OpType: "LRN", Attrs: map[string]Attribute{"size": {Type: AttrInt, Int: 2}, "alpha": {Type: AttrFloat, Float: 1},
		"beta": {Type: AttrFloat, Float: 1}, "bias": {Type: AttrFloat, Float: 1}}}
	out, err := Call(context.Background(), nil, n, x)
	if err != nil {
		t.Fatal(err)
	}
	// size 2: channels c and c+1 (floor(1/2) = 0 before, ceil(1/2) = 1 after).
	near(t, "Y", f32s(t, out[0].(*tensor.Tensor)), []float64{1 / (1 + 0.5*5), 2 / (1 + 0.5*13), 3 / (1 + 0.5*9)}, 1e-7)
}
