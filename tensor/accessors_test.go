package tensor_test

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// TestNilAndZeroTensors checks that every method and function taking a
// Tensor answers a nil or zero one without panicking.
func TestNilAndZeroTensors(t *testing.T) {
	for _, x := range []*tensor.Tensor{nil, {}} {
		_ = x.String()
		_ = fmt.Sprint(x)
		_ = x.Describe()
		if x.Rank() != 0 || x.Len() != 0 || x.DataType() != tensor.Undefined || len(x.Shape()) != 0 ||
			len(x.Bytes()) != 0 || len(x.Strings()) != 0 || x.ByteLen() != 0 {
			t.Errorf("%#v: accessors are not empty", x)
		}
		if _, err := x.Reshape(1); err == nil {
			t.Error("Reshape of a nil tensor")
		}
		if _, err := x.View(); err == nil {
			t.Error("View of a nil tensor")
		}
		_ = x.Clone()
		if !x.Equal(x) || x.Equal(tensor.Scalar(float32(1))) || tensor.Scalar(float32(1)).Equal(x) {
			t.Error("Equal")
		}
		if x.SharesStorage(x) {
			t.Error("SharesStorage")
		}
		for name, f := range map[string]func() error{
			"Float64s": func() error { _, err := x.Float64s(); return err },
			"Float32s": func() error { _, err := x.Float32s(); return err },
			"Int64s":   func() error { _, err := x.Int64s(); return err },
			"ToSlice":  func() error { _, err := tensor.ToSlice[float32](x); return err },
			"Data":     func() error { _, err := tensor.Data[float32](x); return err },
			"WriteNPY": func() error { return tensor.WriteNPY(io.Discard, x) },
		} {
			if err := f(); err == nil {
				t.Errorf("%s of %#v: no error", name, x)
			}
		}
	}
	if got := (&tensor.Tensor{}).String(); got != "<zero tensor>" {
		t.Errorf("zero tensor prints %q", got)
	}
	for _, v := range []tensor.Value{(*tensor.Sequence)(nil), (*tensor.Optional)(nil)} {
		if !strings.HasPrefix(v.Describe(), "<nil") {
			t.Errorf("%T describes as %q", v, v.Describe())
		}
	}
}

func TestNewLimited(t *testing.T) {
	// 40 GB: refused before any allocation.
	if _, err := tensor.NewLimited(1<<30, tensor.Float, 100000, 100000); !errors.Is(err, tensor.ErrLimit) {
		t.Fatalf("got %v, want ErrLimit", err)
	}
	if _, err := tensor.NewLimited(32, tensor.String, 2); err != nil {
		t.Errorf("two strings in 32 bytes: %v", err)
	}
	if _, err := tensor.NewLimited(31, tensor.String, 2); !errors.Is(err, tensor.ErrLimit) {
		t.Errorf("two strings in 31 bytes: %v", err)
	}
	x, err := tensor.NewLimited(24, tensor.Float, 2, 3)
	if err != nil || x.Len() != 6 {
		t.Fatalf("got %v, %v", x, err)
	}
	if _, err := tensor.NewLimited(0, tensor.Float, -1); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("negative dim: %v", err)
	}
}

func TestReshapeInfers(t *testing.T) {
	x := tensor.MustFromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	for _, tc := range []struct {
		shape []int
		want  []int // nil: an error
	}{
		{[]int{-1, 6}, []int{1, 6}},
		{[]int{3, -1}, []int{3, 2}},
		{[]int{-1}, []int{6}},
		{[]int{-1, -1}, nil},
		{[]int{4, -1}, nil},
		{[]int{0, -1}, []int{2, 3}}, // 0 copies x's dimension 0
		{[]int{-1, 0}, []int{2, 3}}, // 0 copies x's dimension 1
		{[]int{0, 0}, []int{2, 3}},
		{[]int{0, 0, 1}, []int{2, 3, 1}},
		{[]int{0, 0, 0}, nil}, // x has no dimension 2 to copy
		{[]int{1, 1, 0}, nil},
		{[]int{-2, 3}, nil},
		{[]int{6}, []int{6}},
	} {
		y, err := x.Reshape(tc.shape...)
		if tc.want == nil {
			if err == nil || !errors.Is(err, tensor.ErrShape) {
				t.Errorf("Reshape(%v) = %v, %v; want an ErrShape", tc.shape, y, err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(y.Shape(), tc.want) || !y.SharesStorage(x) {
			t.Errorf("Reshape(%v) = %v, %v; want a view %v", tc.shape, y, err, tc.want)
		}
	}
	empty := tensor.MustNew(tensor.Float, 0, 3)
	if y, err := empty.View(3, 0); err != nil || !reflect.DeepEqual(y.Shape(), []int{3, 0}) {
		t.Errorf("View: a 0 stays a 0: %v, %v", y, err)
	}
	if y, err := empty.Reshape(-1, 0); err != nil || !reflect.DeepEqual(y.Shape(), []int{0, 3}) {
		t.Errorf("Reshape(-1, 0) of [0 3]: %v, %v; want [0 3]", y, err)
	}
	if _, err := empty.Reshape(3, 0); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("Reshape(3, 0) of [0 3] (9 elements): %v, want ErrShape", err)
	}
	if _, err := empty.View(-1); err == nil {
		t.Error("View inferred a -1")
	}
}

func TestScalarOf(t *testing.T) {
	for _, tc := range []struct {
		dt   tensor.DataType
		v    float64
		want *tensor.Tensor
	}{
		{tensor.Float, 114.0 / 255, tensor.Scalar(float32(114.0 / 255))},
		{tensor.Double, 0.5, tensor.Scalar(0.5)},
		{tensor.Float16, 1.5, tensor.Scalar(tensor.F16FromFloat32(1.5))},
		{tensor.BFloat16, 2, tensor.Scalar(tensor.BF16FromFloat32(2))},
		{tensor.Uint8, 114, tensor.Scalar(uint8(114))},
		{tensor.Int64, -3, tensor.Scalar(int64(-3))},
		{tensor.Bool, 2, tensor.Scalar(true)},
	} {
		got, err := tensor.ScalarOf(tc.dt, tc.v)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("ScalarOf(%v, %v) = %v, %v", tc.dt, tc.v, got, err)
		}
	}
	for _, dt := range []tensor.DataType{tensor.String, tensor.Complex64, tensor.Float8E4M3FN, tensor.Undefined} {
		if _, err := tensor.ScalarOf(dt, 1); !errors.Is(err, tensor.ErrType) {
			t.Errorf("ScalarOf(%v): %v", dt, err)
		}
	}
	if _, err := tensor.ScalarOf(tensor.Int32, math.NaN()); err == nil {
		t.Error("NaN as an int32")
	}
}

func TestTypedAccessors(t *testing.T) {
	i8 := tensor.MustFromSlice([]int8{-1, 2})
	if v, err := i8.Int64s(); err != nil || !reflect.DeepEqual(v, []int64{-1, 2}) {
		t.Errorf("Int64s(int8) = %v, %v", v, err)
	}
	if v, err := tensor.MustFromSlice([]bool{true, false}).Int64s(); err != nil || !reflect.DeepEqual(v, []int64{1, 0}) {
		t.Errorf("Int64s(bool) = %v, %v", v, err)
	}
	if v, err := tensor.MustFromSlice([]uint16{65535}).Int64s(); err != nil || !reflect.DeepEqual(v, []int64{65535}) {
		t.Errorf("Int64s(uint16) = %v, %v", v, err)
	}
	if v, err := tensor.MustFromSlice([]tensor.I4{-8, 7}).Int64s(); err != nil || !reflect.DeepEqual(v, []int64{-8, 7}) {
		t.Errorf("Int64s(int4) = %v, %v", v, err)
	}
	if v, err := tensor.MustFromSlice([]int64{math.MaxInt64}).Int64s(); err != nil || v[0] != math.MaxInt64 {
		t.Errorf("Int64s(int64) = %v, %v", v, err)
	}
	if _, err := tensor.MustFromSlice([]uint64{math.MaxUint64}).Int64s(); err == nil {
		t.Error("Integers of a uint64 above MaxInt64")
	}
	if _, err := tensor.MustFromSlice([]float32{1}).Int64s(); !errors.Is(err, tensor.ErrType) {
		t.Errorf("Int64s(float): %v", err)
	}
	if v, err := i8.Float32s(); err != nil || !reflect.DeepEqual(v, []float32{-1, 2}) {
		t.Errorf("Float32s(int8) = %v, %v", v, err)
	}
	if v, err := tensor.ToSlice[int8](i8); err != nil || !reflect.DeepEqual(v, []int8{-1, 2}) {
		t.Errorf("ToSlice[int8] = %v, %v", v, err)
	}
	if _, err := tensor.ToSlice[uint8](i8); !errors.Is(err, tensor.ErrType) {
		t.Errorf("ToSlice[uint8] of int8: %v", err)
	}
	h := tensor.MustFromSlice([]tensor.F16{tensor.F16FromFloat32(0.25)})
	if v, err := tensor.ToSlice[tensor.F16](h); err != nil || v[0].Float32() != 0.25 {
		t.Errorf("ToSlice[F16] = %v, %v", v, err)
	}
}

func TestParseDataTypeSpellings(t *testing.T) {
	for s, want := range map[string]tensor.DataType{
		"float": tensor.Float, "float32": tensor.Float, "FLOAT": tensor.Float, "tensor(float)": tensor.Float,
		"float64": tensor.Double, "double": tensor.Double, "fp16": tensor.Float16, "half": tensor.Float16,
		"FLOAT16": tensor.Float16, "bf16": tensor.BFloat16, "bfloat16": tensor.BFloat16, "boolean": tensor.Bool,
		"uint8": tensor.Uint8, "U8": tensor.Uint8, "float8e4m3fn": tensor.Float8E4M3FN, " int64 ": tensor.Int64,
	} {
		if got, err := tensor.ParseDataType(s); err != nil || got != want {
			t.Errorf("ParseDataType(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	_, err := tensor.ParseDataType("float33")
	if err == nil || !strings.Contains(err.Error(), "float, uint8") {
		t.Errorf("the error does not list the types: %v", err)
	}
}
