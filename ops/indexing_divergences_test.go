package ops

import (
	"errors"
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The choices of the conversion, creation and indexing operators where the
// specification is silent or where onnxshape and onnxruntime differ
// (docs/divergences.md, "Conversion, creation, indexing, sequences,
// quantization and strings").

func ruleOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Rule
	}
	return ""
}

// Float to integer out of range (undefined by ONNX): truncation, NaN and
// values past int64 becoming math.MinInt64 and then its low bits.
func TestDivergenceCastFloatToIntOutOfRange(t *testing.T) {
	x := tensor.MustFromSlice([]float32{float32(math.NaN()), float32(math.Inf(1)), 3e9, -2.9, 1e20})
	y, _ := Cast(x, CastOptions{To: tensor.Int64})
	if v, _ := tensor.ToSlice[int64](y); v[0] != math.MinInt64 || v[1] != math.MinInt64 || v[2] != 3e9 || v[3] != -2 || v[4] != math.MinInt64 {
		t.Errorf("to int64: %v", v)
	}
	y, _ = Cast(x, CastOptions{To: tensor.Int32})
	if v, _ := tensor.ToSlice[int32](y); v[0] != 0 || v[2] != -1294967296 || v[3] != -2 {
		t.Errorf("to int32: %v", v)
	}
}

// NaN to float4e2m1 (a type without NaN) gives the bits of -0, as ml_dtypes;
// infinity to float8e8m0 gives 0xFF (NaN) even with saturate, as the
// reference evaluator's to_float8e8m0 (the specification's table says the
// largest value).
func TestDivergenceCastSpecialValues(t *testing.T) {
	x := tensor.MustFromSlice([]float32{float32(math.NaN()), float32(math.Inf(1))})
	if b := castBytes(t, x, tensor.Float4E2M1, CastOptions{}); b[0] != 0x8 || b[1] != 0x7 {
		t.Errorf("float4e2m1: % x", b)
	}
	if b := castBytes(t, x, tensor.Float8E8M0, CastOptions{}); b[0] != 0xFF || b[1] != 0xFF {
		t.Errorf("float8e8m0: % x", b)
	}
}

// Range computes start + i*delta (the specification's pseudocode, numpy's
// arange), not an accumulation; delta 0 is refused.
func TestDivergenceRange(t *testing.T) {
	y, err := Range(tensor.Scalar(float32(0)), tensor.Scalar(float32(1)), tensor.Scalar(float32(0.1)))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := tensor.ToSlice[float32](y)
	for i := range v {
		if want := float32(float32(i) * 0.1); v[i] != want {
			t.Errorf("element %d is %v, want %v", i, v[i], want)
		}
	}
	if len(v) != 10 {
		t.Errorf("%d elements, want 10", len(v))
	}
	if _, err := Range(tensor.Scalar(int32(0)), tensor.Scalar(int32(1)), tensor.Scalar(int32(0))); ruleOf(err) != "delta" {
		t.Errorf("delta 0: %v", err)
	}
}

// Gather-1 and OneHot-9 read negative indices as later versions do.
func TestDivergenceNegativeIndicesAtEveryVersion(t *testing.T) {
	data := tensor.MustFromSlice([]int32{1, 2, 3})
	n := &Node{OpType: "Gather", Version: 1, NumOutputs: 1}
	out, err := gatherNode(nil, n, []tensor.Value{data, tensor.MustFromSlice([]int64{-1})})
	if err != nil || !out[0].(*tensor.Tensor).Equal(tensor.MustFromSlice([]int32{3})) {
		t.Errorf("Gather-1: %v %v", out, err)
	}
	n = &Node{OpType: "OneHot", Version: 9, NumOutputs: 1}
	out, err = oneHotNode(nil, n, []tensor.Value{tensor.MustFromSlice([]int64{-1}), tensor.Scalar(int64(3)), tensor.MustFromSlice([]float32{0, 1})})
	if err != nil || !out[0].(*tensor.Tensor).Equal(tensor.MustFromSlice([]float32{0, 0, 1}, 1, 3)) {
		t.Errorf("OneHot-9: %v %v", out, err)
	}
}

// Without a reduction, duplicate scatter indices are applied in order: the
// last update wins (ONNX leaves it undefined).
func TestDivergenceScatterDuplicates(t *testing.T) {
	data := tensor.MustFromSlice([]float32{0, 0, 0})
	y, err := ScatterElements(data, tensor.MustFromSlice([]int64{1, 1}), tensor.MustFromSlice([]float32{5, 7}), ScatterElementsOptions{})
	if err != nil || !y.Equal(tensor.MustFromSlice([]float32{0, 7, 0})) {
		t.Errorf("ScatterElements: %v %v", y, err)
	}
	y, err = ScatterND(data, tensor.MustFromSlice([]int64{2, 2}, 2, 1), tensor.MustFromSlice([]float32{5, 7}), ScatterNDOptions{Reduction: ""})
	if err != nil || !y.Equal(tensor.MustFromSlice([]float32{0, 0, 7})) {
		t.Errorf("ScatterND: %v %v", y, err)
	}
}

// NonZero of a scalar has shape [1, N] (numpy; the specification says
// [0, N]); Compress refuses a true condition past the axis (numpy does);
// ReverseSequence refuses lengths outside [0, T]; GatherElements refuses
// indices longer than data off the axis.
func TestDivergenceShapeRules(t *testing.T) {
	out, err := nonZeroNode(nil, &Node{OpType: "NonZero", Version: 13, NumOutputs: 1}, []tensor.Value{tensor.Scalar(float32(2))})
	if err != nil || !tensor.SameShape(out[0].(*tensor.Tensor).Shape(), []int{1, 1}) {
		t.Errorf("NonZero of a scalar: %v %v", out, err)
	}
	_, err = compressNode(nil, &Node{OpType: "Compress", Version: 11, NumOutputs: 1},
		[]tensor.Value{tensor.MustFromSlice([]int32{1, 2}), tensor.MustFromSlice([]bool{false, true, true})})
	if ruleOf(err) != "condition" {
		t.Errorf("Compress: %v", err)
	}
	_, err = reverseSequenceNode(nil, &Node{OpType: "ReverseSequence", Version: 10, NumOutputs: 1},
		[]tensor.Value{tensor.MustNew(tensor.Float, 2, 2), tensor.MustFromSlice([]int64{3, 1})})
	if ruleOf(err) != "sequence_lens" {
		t.Errorf("ReverseSequence: %v", err)
	}
	_, err = GatherElements(tensor.MustNew(tensor.Float, 2, 2), tensor.MustNew(tensor.Int64, 2, 3), GatherElementsOptions{Axis: 0})
	if ruleOf(err) != "indices-shape" {
		t.Errorf("GatherElements: %v", err)
	}
}

// Unique treats every NaN as equal and sorts them last (numpy's equal_nan).
func TestDivergenceUniqueNaN(t *testing.T) {
	nan := float32(math.NaN())
	out, err := uniqueNode(nil, &Node{OpType: "Unique", Version: 11, NumOutputs: 4}, []tensor.Value{tensor.MustFromSlice([]float32{nan, 1, nan, 0})})
	if err != nil {
		t.Fatal(err)
	}
	y, _ := tensor.ToSlice[float32](out[0].(*tensor.Tensor))
	counts, _ := tensor.ToSlice[int64](out[3].(*tensor.Tensor))
	if len(y) != 3 || y[0] != 0 || y[1] != 1 || y[2] == y[2] || counts[2] != 2 {
		t.Errorf("Unique: %v counts %v", y, counts)
	}
}

// A symmetric window of one point is [1] (torch's windows; the formula
// divides 0 by 0); a periodic one is the window's first value.
func TestDivergenceWindowOfOne(t *testing.T) {
	for _, c := range []struct {
		op       string
		periodic int64
		want     float32
	}{{"HannWindow", 0, 1}, {"HammingWindow", 0, 1}, {"BlackmanWindow", 0, 1}, {"HannWindow", 1, 0}} {
		n := &Node{OpType: c.op, Version: 17, NumOutputs: 1, Attrs: map[string]Attribute{"periodic": {Type: AttrInt, Int: c.periodic}}}
		s, err := Lookup("", c.op, 17)
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Run(nil, n, []tensor.Value{tensor.Scalar(int64(1))})
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := tensor.ToSlice[float32](out[0].(*tensor.Tensor)); len(v) != 1 || math.Abs(float64(v[0]-c.want)) > 1e-7 {
			t.Errorf("%s periodic %d: %v, want [%v]", c.op, c.periodic, v, c.want)
		}
	}
}

// Empty tensors with huge dims neither hang nor allocate by their dims.
func TestHugeEmptyInputs(t *testing.T) {
	empty := tensor.MustNew(tensor.Float, 0, 1<<30)
	opt := &Options{MaxTensorBytes: 1 << 20}
	run := func(op string, version int, attrs map[string]Attribute, in ...tensor.Value) error {
		s, err := Lookup("", op, version)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Run(opt, &Node{OpType: op, Version: s.Since, NumOutputs: 1, Attrs: attrs}, in)
		return err
	}
	if err := run("SplitToSequence", 11, map[string]Attribute{"axis": {Type: AttrInt, Int: 1}}, empty); ruleOf(err) != "size" {
		t.Errorf("SplitToSequence: %v", err)
	}
	if err := run("Unique", 11, map[string]Attribute{"axis": {Type: AttrInt, Int: 1}}, empty); ruleOf(err) != "size" {
		t.Errorf("Unique: %v", err)
	}
	if err := run("Trilu", 14, nil, tensor.MustNew(tensor.Float, 1<<30, 0)); err != nil {
		t.Errorf("Trilu: %v", err)
	}
	if err := run("OneHot", 11, map[string]Attribute{"axis": {Type: AttrInt, Int: 1}}, tensor.MustNew(tensor.Int64, 1<<20, 0),
		tensor.Scalar(int64(1<<30)), tensor.MustFromSlice([]float32{0, 1})); err != nil {
		t.Errorf("OneHot: %v", err)
	}
}

func TestHugeEmptyInputsRunFast(t *testing.T) {
	for _, c := range []struct {
		op    string
		attrs map[string]Attribute
		in    []tensor.Value
	}{
		{"ReverseSequence", nil, []tensor.Value{tensor.MustNew(tensor.Float, 1<<30, 1, 0), tensor.MustFromSlice([]int64{1})}},
		{"Unique", map[string]Attribute{"axis": {Type: AttrInt, Int: 1}}, []tensor.Value{tensor.MustNew(tensor.Float, 1<<30, 3, 0)}},
	} {
		s, _ := Lookup("", c.op, 20)
		if _, err := s.Run(nil, &Node{OpType: c.op, Version: s.Since, NumOutputs: 1, Attrs: c.attrs}, c.in); err != nil {
			t.Errorf("%s: %v", c.op, err)
		}
	}
}
