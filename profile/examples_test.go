package profile

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// runUnderProfile checks m, then runs it through package graph under the
// SONNX profile.
func runUnderProfile(t *testing.T, m *pb.ModelProto, inputs map[string]tensor.Value) (map[string]tensor.Value, *Report, error) {
	t.Helper()
	rep := CheckProto(m, "")
	model, err := graph.FromProto(m, "")
	if err != nil {
		t.Fatalf("graph.FromProto: %v", err)
	}
	out, err := model.Run(context.Background(), inputs, &graph.RunOptions{Profile: ops.ProfileSONNX})
	return out.Map(), rep, err
}

func filled(v float32, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func seq(n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(i)
	}
	return out
}

func i64s(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

func assertTensor(t *testing.T, v tensor.Value, shape []int, want []float32) {
	t.Helper()
	got, ok := v.(*tensor.Tensor)
	if !ok {
		t.Fatalf("output is %T, want a tensor", v)
	}
	if !slices.Equal(got.Shape(), shape) {
		t.Fatalf("shape %v, want %v", got.Shape(), shape)
	}
	data, err := tensor.ToSlice[float32](got)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(data, want) {
		t.Errorf("values %v\nwant   %v", data, want)
	}
}

// TestSONNXUnsqueezeExamples runs examples 1-4 of sonnx-unsqueeze.md: X is
// 0..23 of shape [2,3,4]; the values never move.
func TestSONNXUnsqueezeExamples(t *testing.T) {
	cases := []struct {
		name  string
		axes  []int64
		shape []int
	}{
		{"example 1", []int64{0}, []int{1, 2, 3, 4}},
		{"example 2", []int64{-1}, []int{2, 3, 4, 1}},
		{"example 3", []int64{0, 1}, []int{1, 1, 2, 3, 4}},
		{"example 4", []int64{1, 2}, []int{2, 1, 1, 3, 4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(t, 25).input("x", tensor.Float, 2, 3, 4).
				initializer("axes", tensor.MustFromSlice(tc.axes, len(tc.axes))).
				node("Unsqueeze", names("x", "axes"), names("y")).
				output("y", tensor.Float, i64s(tc.shape)...).build()
			out, rep, err := runUnderProfile(t, m, map[string]tensor.Value{"x": tensor.MustFromSlice(seq(24), 2, 3, 4)})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Inside() {
				t.Errorf("the example is outside the profile:\n%s", rep)
			}
			assertTensor(t, out["y"], tc.shape, seq(24))
		})
	}
}

// The tensors of sonnx-concat.md's example 2. The document prints their
// shape as (2,3,3) but writes (2,3,4) data; the data decides.
var (
	concatA0 = []float32{
		1, 2, 3, 10, 4, 5, 6, 11, 7, 8, 9, 12,
		11, 12, 13, 20, 14, 15, 16, 21, 17, 18, 19, 22,
	}
	concatA1 = []float32{
		101, 102, 103, 110, 104, 105, 106, 120, 107, 108, 109, 130,
		111, 112, 113, 120, 114, 115, 116, 121, 117, 118, 119, 122,
	}
)

// TestSONNXConcatExamples runs examples 1-3 of sonnx-concat.md with the
// results the document gives.
func TestSONNXConcatExamples(t *testing.T) {
	type in struct {
		shape []int
		data  []float32
	}
	cases := []struct {
		name   string
		inputs []in
		axis   int64
		shape  []int
		want   []float32
	}{
		{"example 1, axis 0", []in{{[]int{2, 3}, filled(1, 6)}, {[]int{4, 3}, filled(2, 12)}, {[]int{3, 3}, filled(3, 9)}},
			0, []int{9, 3}, append(append(filled(1, 6), filled(2, 12)...), filled(3, 9)...)},
		{"example 2, axis 0", []in{{[]int{2, 3, 4}, concatA0}, {[]int{2, 3, 4}, concatA1}},
			0, []int{4, 3, 4}, append(slices.Clone(concatA0), concatA1...)},
		{"example 2, axis 1", []in{{[]int{2, 3, 4}, concatA0}, {[]int{2, 3, 4}, concatA1}},
			1, []int{2, 6, 4}, []float32{
				1, 2, 3, 10, 4, 5, 6, 11, 7, 8, 9, 12,
				101, 102, 103, 110, 104, 105, 106, 120, 107, 108, 109, 130,
				11, 12, 13, 20, 14, 15, 16, 21, 17, 18, 19, 22,
				111, 112, 113, 120, 114, 115, 116, 121, 117, 118, 119, 122,
			}},
		{"example 2, axis 2", []in{{[]int{2, 3, 4}, concatA0}, {[]int{2, 3, 4}, concatA1}},
			2, []int{2, 3, 8}, []float32{
				1, 2, 3, 10, 101, 102, 103, 110,
				4, 5, 6, 11, 104, 105, 106, 120,
				7, 8, 9, 12, 107, 108, 109, 130,
				11, 12, 13, 20, 111, 112, 113, 120,
				14, 15, 16, 21, 114, 115, 116, 121,
				17, 18, 19, 22, 117, 118, 119, 122,
			}},
		{"example 3, axis 1", []in{{[]int{1, 1, 3, 2}, filled(3, 6)}, {[]int{1, 3, 3, 2}, filled(4, 18)},
			{[]int{1, 2, 3, 2}, filled(5, 12)}, {[]int{1, 4, 3, 2}, filled(6, 24)}},
			1, []int{1, 10, 3, 2}, slices.Concat(filled(3, 6), filled(4, 18), filled(5, 12), filled(6, 24))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := newModel(t, 13)
			inputs := map[string]tensor.Value{}
			var ins []string
			for i, x := range tc.inputs {
				name := string(rune('a' + i))
				b.input(name, tensor.Float, i64s(x.shape)...)
				inputs[name] = tensor.MustFromSlice(x.data, x.shape...)
				ins = append(ins, name)
			}
			m := b.node("Concat", ins, names("y"), attrInt("axis", tc.axis)).
				output("y", tensor.Float, i64s(tc.shape)...).build()
			out, rep, err := runUnderProfile(t, m, inputs)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Inside() {
				t.Errorf("the example is outside the profile:\n%s", rep)
			}
			assertTensor(t, out["y"], tc.shape, tc.want)
		})
	}

	// Example 1 repeated along axis 1 fails: the inputs differ on axis 0.
	t.Run("example 1, axis 1", func(t *testing.T) {
		m := newModel(t, 13).input("a", tensor.Float, 2, 3).input("b", tensor.Float, 4, 3).input("c", tensor.Float, 3, 3).
			node("Concat", names("a", "b", "c"), names("y"), attrInt("axis", 1)).
			output("y", tensor.Float, 2, 9).build()
		_, rep, err := runUnderProfile(t, m, map[string]tensor.Value{
			"a": tensor.MustFromSlice(filled(1, 6), 2, 3),
			"b": tensor.MustFromSlice(filled(2, 12), 4, 3),
			"c": tensor.MustFromSlice(filled(3, 9), 3, 3),
		})
		var opErr *ops.Error
		if !errors.As(err, &opErr) || opErr.Rule != "inputs [C2]" {
			t.Errorf("run: got %v, want a Concat inputs [C2] error", err)
		}
		if got := reportKeys(rep); !slices.Equal(got, []string{"Concat inputs [C2]"}) {
			t.Errorf("check reported %q, want [Concat inputs [C2]]:\n%s", got, rep)
		}
	})
}
