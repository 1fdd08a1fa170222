package ops

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func castBytes(t *testing.T, x *tensor.Tensor, to tensor.DataType, o CastOptions) []byte {
	t.Helper()
	o.To = to
	y, err := Cast(x, o)
	if err != nil {
		t.Fatal(err)
	}
	return y.Bytes()
}

// The float 8 tables of the Cast specification, saturate on and off: 0, -0,
// NaN, Inf, -Inf, a value past the largest, its negative, and 1.
func TestCastFloat8Tables(t *testing.T) {
	inf := float32(math.Inf(1))
	x := tensor.MustFromSlice([]float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), inf, -inf, 1e6, -1e6, 1})
	for _, c := range []struct {
		to          tensor.DataType
		sat, nonSat []byte
	}{
		{tensor.Float8E4M3FN, []byte{0, 0x80, 0x7F, 0x7E, 0xFE, 0x7E, 0xFE, 0x38}, []byte{0, 0x80, 0x7F, 0x7F, 0xFF, 0x7F, 0xFF, 0x38}},
		{tensor.Float8E4M3FNUZ, []byte{0, 0, 0x80, 0x7F, 0xFF, 0x7F, 0xFF, 0x40}, []byte{0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}},
		{tensor.Float8E5M2, []byte{0, 0x80, 0x7E, 0x7B, 0xFB, 0x7B, 0xFB, 0x3C}, []byte{0, 0x80, 0x7E, 0x7C, 0xFC, 0x7C, 0xFC, 0x3C}},
		{tensor.Float8E5M2FNUZ, []byte{0, 0, 0x80, 0x7F, 0xFF, 0x7F, 0xFF, 0x40}, []byte{0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}},
	} {
		if got := castBytes(t, x, c.to, CastOptions{}); string(got) != string(c.sat) {
			t.Errorf("%v saturate: got % x, want % x", c.to, got, c.sat)
		}
		if got := castBytes(t, x, c.to, CastOptions{NoSaturate: true}); string(got) != string(c.nonSat) {
			t.Errorf("%v no saturate: got % x, want % x", c.to, got, c.nonSat)
		}
	}
}

// Integers keep their low bits ("200 (int16) -> -56 (int8)"); bool is
// nonzero; floats truncate toward zero.
func TestCastIntegers(t *testing.T) {
	y, _ := Cast(tensor.MustFromSlice([]int16{200, -1, 300}), CastOptions{To: tensor.Int8})
	if v, _ := tensor.ToSlice[int8](y); v[0] != -56 || v[1] != -1 || v[2] != 44 {
		t.Errorf("int16 to int8: %v", v)
	}
	y, _ = Cast(tensor.MustFromSlice([]float32{2.7, -2.7, 0, float32(math.NaN())}), CastOptions{To: tensor.Bool})
	if v, _ := tensor.ToSlice[bool](y); !v[0] || !v[1] || v[2] || !v[3] {
		t.Errorf("float to bool: %v", v)
	}
	y, _ = Cast(tensor.MustFromSlice([]float64{2.7, -2.7}), CastOptions{To: tensor.Int32})
	if v, _ := tensor.ToSlice[int32](y); v[0] != 2 || v[1] != -2 {
		t.Errorf("double to int32: %v", v)
	}
	y, _ = Cast(tensor.MustFromSlice([]uint64{1<<64 - 1}), CastOptions{To: tensor.Float})
	if v, _ := tensor.ToSlice[float32](y); v[0] != 0x1p64 {
		t.Errorf("uint64 max to float: %v", v)
	}
}

// Strings read as numbers, INF and NaN in any case; numbers write as numpy
// writes them.
func TestCastStrings(t *testing.T) {
	y, err := Cast(tensor.MustFromSlice([]string{"3.14", "1e-5", "1E8", "+INF", "-inf", "nan", "100.5"}), CastOptions{To: tensor.Float})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := tensor.ToSlice[float32](y)
	if v[0] != 3.14 || v[1] != 1e-5 || v[2] != 1e8 || !math.IsInf(float64(v[3]), 1) || !math.IsInf(float64(v[4]), -1) || v[5] == v[5] || v[6] != 100.5 {
		t.Errorf("string to float: %v", v)
	}
	y, _ = Cast(tensor.MustFromSlice([]string{"100.5", "-7"}), CastOptions{To: tensor.Int64})
	if n, _ := tensor.ToSlice[int64](y); n[0] != 100 || n[1] != -7 {
		t.Errorf("string to int64: %v", n)
	}
	_, err = Cast(tensor.MustFromSlice([]string{"Hello World!"}), CastOptions{To: tensor.Float})
	var e *Error
	if !errors.As(err, &e) || e.Rule != "string" {
		t.Errorf("a word: got %v, want rule string", err)
	}
	y, _ = Cast(tensor.MustFromSlice([]float32{314.15926, 1, 1e-5, 1e20, float32(math.Inf(-1)), 0.1}), CastOptions{To: tensor.String})
	want := []string{"314.15927", "1.0", "1e-05", "1e+20", "-inf", "0.1"}
	for i, s := range y.Strings() {
		if s != want[i] {
			t.Errorf("float to string %d: got %q, want %q", i, s, want[i])
		}
	}
	y, _ = Cast(tensor.MustFromSlice([]bool{true, false}), CastOptions{To: tensor.String})
	if s := y.Strings(); s[0] != "True" || s[1] != "False" {
		t.Errorf("bool to string: %v", s)
	}
}

func TestCastWithoutTarget(t *testing.T) {
	_, err := Cast(tensor.MustFromSlice([]float32{1}), CastOptions{})
	if err == nil || !strings.Contains(err.Error(), "Cast") {
		t.Fatalf("Cast with no target type: %v, want a refusal naming Cast", err)
	}
	t.Log(err)
}
