package conformance

import (
	"math"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
	"github.com/x448/float16"
)

func mapOf[K int64 | string, V tensor.Element](keys []K, values []V) *tensor.Map {
	m, err := tensor.MapOf(keys, values)
	if err != nil {
		panic(err)
	}
	return m
}

func TestCompare(t *testing.T) {
	f32 := func(v ...float32) *tensor.Tensor { return tensor.MustFromSlice(v) }
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		name      string
		got, want tensor.Value
		err       string // "" when they match
	}{
		{"equal floats", f32(1, 2), f32(1, 2), ""},
		{"within tolerance", f32(1000.9), f32(1000), ""},
		{"outside tolerance", f32(1001.1), f32(1000), "element [0] is 1001.0999755859375, want 1000"},
		{"tiny absolute", f32(1e-8), f32(0), ""},
		{"NaN equals NaN", f32(nan, 1), f32(nan, 1), ""},
		{"NaN against number", f32(nan), f32(1), "element [0] is NaN, want 1"},
		{"infinities", f32(inf, -inf), f32(inf, -inf), ""},
		{"infinity sign", f32(-inf), f32(inf), "element [0] is -Inf, want +Inf"},
		{"float16 tolerance", tensor.MustFromSlice([]float16.Float16{float16.Fromfloat32(2.002)}), tensor.MustFromSlice([]float16.Float16{float16.Fromfloat32(2)}), ""},
		{"shape", tensor.MustFromSlice([]float32{1, 2}, 1, 2), f32(1, 2), "got tensor(float)[1 2], want tensor(float)[2]"},
		{"type", tensor.MustFromSlice([]float64{1, 2}), f32(1, 2), "got tensor(double)[2], want tensor(float)[2]"},
		{"integers exactly", tensor.MustFromSlice([]int64{1, 2, 3, 4}, 2, 2), tensor.MustFromSlice([]int64{1, 2, 3, 5}, 2, 2), "element [1 1] is 4, want 5"},
		{"strings", tensor.MustFromSlice([]string{"a", "b"}), tensor.MustFromSlice([]string{"a", "c"}), `element [1] is "b", want "c"`},
		{"complex exactly", tensor.MustFromSlice([]complex64{1 + 1i}), tensor.MustFromSlice([]complex64{1 + 1.0001i}), "element [0]"},
		{"tensor against sequence", f32(1), &tensor.Sequence{ElemType: tensor.Float}, "got tensor(float)[1], want seq(tensor(float))[0 items]"},
		{"sequences", &tensor.Sequence{ElemType: tensor.Float, Items: []*tensor.Tensor{f32(1), f32(2)}},
			&tensor.Sequence{ElemType: tensor.Float, Items: []*tensor.Tensor{f32(1), f32(3)}}, "item 1: element [0] is 2, want 3"},
		{"sequence lengths", &tensor.Sequence{ElemType: tensor.Float, Items: []*tensor.Tensor{f32(1)}},
			&tensor.Sequence{ElemType: tensor.Float}, "got seq(tensor(float))[1 items], want seq(tensor(float))[0 items]"},
		{"empty optionals", &tensor.Optional{}, &tensor.Optional{}, ""},
		{"optional presence", &tensor.Optional{Value: f32(1)}, &tensor.Optional{}, "want optional"},
		{"optional values", &tensor.Optional{Value: f32(1)}, &tensor.Optional{Value: f32(1)}, ""},
		{"missing output", nil, f32(1), "got no value, want tensor(float)[1]"},
		{"maps in any key order", mapOf([]string{"b", "a"}, []float32{2, 1.0000001}), mapOf([]string{"a", "b"}, []float32{1, 2}), ""},
		{"map values", mapOf([]int64{1, 2}, []int64{5, 6}), mapOf([]int64{2, 1}, []int64{6, 4}), "key 1: element [] is 5, want 4"},
		{"map keys", mapOf([]string{"a", "c"}, []float32{1, 2}), mapOf([]string{"a", "b"}, []float32{1, 2}), "got no key b"},
		{"map types", mapOf([]string{"a"}, []float64{1}), mapOf([]string{"a"}, []float32{1}), "got map(string,tensor(double))[1 entries], want map(string,tensor(float))[1 entries]"},
		{"map against tensor", f32(1), mapOf([]int64{1}, []float32{1}), "got tensor(float)[1], want map(int64,tensor(float))[1 entries]"},
		{"sequences of maps", &tensor.MapSequence{KeyType: tensor.Int64, ValueType: tensor.Float, Items: []*tensor.Map{mapOf([]int64{1}, []float32{1}), mapOf([]int64{1}, []float32{3})}},
			&tensor.MapSequence{KeyType: tensor.Int64, ValueType: tensor.Float, Items: []*tensor.Map{mapOf([]int64{1}, []float32{1}), mapOf([]int64{1}, []float32{2})}}, "item 1: key 1: element [] is 3, want 2"},
		{"sequences of maps, lengths", &tensor.MapSequence{KeyType: tensor.Int64, ValueType: tensor.Float},
			&tensor.MapSequence{KeyType: tensor.Int64, ValueType: tensor.Float, Items: []*tensor.Map{mapOf([]int64{1}, []float32{1})}}, "got seq(map(int64,tensor(float)))[0 items], want seq(map(int64,tensor(float)))[1 items]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Compare(tc.got, tc.want)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("got %v, want a match", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("got %v, want an error saying %q", err, tc.err)
			}
		})
	}
}

func TestManifestUpdate(t *testing.T) {
	old, err := ParseManifest(strings.NewReader(`# comment
pass test_a
exclude test_b cubic mode not written yet
exclude test_c skip: unsupported operator: Resize
exclude test_gone hand reason
`))
	if err != nil {
		t.Fatal(err)
	}
	results := []Result{
		{"test_a", Fail, "output 0 differs\nbadly"},
		{"test_b", Fail, "cubic"},
		{"test_c", Fail, "wrong value"},
		{"test_d", Pass, ""},
		{"test_e", Skip, "unsupported operator: Foo"},
	}
	var b strings.Builder
	old.Update(results).WriteTo(&b)
	got := b.String()[len(manifestHeader):]
	want := `exclude test_a fail: output 0 differs badly
exclude test_b cubic mode not written yet
exclude test_c fail: wrong value
pass test_d
exclude test_e skip: unsupported operator: Foo
exclude test_gone hand reason
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	back, err := ParseManifest(strings.NewReader(b.String()))
	if err != nil || len(back) != 6 || !back["test_d"].Pass || back["test_b"].Reason != "cubic mode not written yet" {
		t.Fatalf("reading back: %v %v", back, err)
	}
	for _, bad := range []string{"pass", "pass a b", "exclude a", "maybe a", "pass a\npass a"} {
		if _, err := ParseManifest(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseManifest(%q) accepted it", bad)
		}
	}
}

func TestFindCasesAndRunCaseErrors(t *testing.T) {
	dir := t.TempDir()
	if cases, err := FindCases(dir); err != nil || len(cases) != 0 {
		t.Fatalf("empty folder: %v %v", cases, err)
	}
	if _, err := FindCases(dir + "/missing"); err == nil {
		t.Fatal("a missing folder is no error")
	}
	r := RunCase(dir, nil)
	if r.Status != Fail || !strings.Contains(r.Reason, "model.onnx") {
		t.Fatalf("got %+v", r)
	}
}
