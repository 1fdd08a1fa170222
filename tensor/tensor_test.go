package tensor

import (
	"errors"
	"math"
	"testing"

	"github.com/x448/float16"
)

func TestFromSliceRoundTrip(t *testing.T) {
	x, err := FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if x.DataType() != Float || x.Len() != 6 || x.Rank() != 2 || !SameShape(x.Shape(), []int{2, 3}) {
		t.Fatalf("got %s", x.Describe())
	}
	back, err := ToSlice[float32](x)
	if err != nil {
		t.Fatal(err)
	}
	if back[5] != 6 {
		t.Fatalf("got %v", back)
	}
	back[0] = 99 // a copy: the tensor must not change
	if v, _ := Data[float32](x); v[0] != 1 {
		t.Fatal("ToSlice shares storage")
	}
	if _, err := ToSlice[int64](x); !errors.Is(err, ErrType) {
		t.Fatalf("reading float as int64: %v", err)
	}
}

func TestEveryTypeBuilds(t *testing.T) {
	for _, dt := range AllTypes() {
		x, err := New(dt, 2, 0, 3)
		if err != nil || x.Len() != 0 || x.DataType() != dt {
			t.Errorf("%v: %v %v", dt, x, err)
		}
		s, err := New(dt)
		if err != nil || s.Len() != 1 || s.Rank() != 0 {
			t.Errorf("%v scalar: %v", dt, err)
		}
		if dt != String && len(s.Bytes()) != dt.Size() {
			t.Errorf("%v scalar takes %d bytes", dt, len(s.Bytes()))
		}
	}
}

func TestShapeErrors(t *testing.T) {
	if _, err := New(Float, 2, -1); !errors.Is(err, ErrShape) {
		t.Errorf("negative dim: %v", err)
	}
	if _, err := New(Float, math.MaxInt/2, 3); !errors.Is(err, ErrShape) {
		t.Errorf("overflow: %v", err)
	}
	if _, err := New(Float, math.MaxInt/4, math.MaxInt/4); !errors.Is(err, ErrShape) {
		t.Errorf("overflow: %v", err)
	}
	if _, err := FromSlice([]int8{1, 2, 3}, 2, 2); !errors.Is(err, ErrShape) {
		t.Errorf("length mismatch: %v", err)
	}
	if _, err := New(DataType(99), 1); !errors.Is(err, ErrType) {
		t.Errorf("unknown type: %v", err)
	}
	if _, err := FromSlice([]I4{7, -8, 9}); !errors.Is(err, ErrType) {
		t.Errorf("int4 out of range: %v", err)
	}
	if _, err := FromBytes(Bool, []byte{2}, 1); !errors.Is(err, ErrType) {
		t.Errorf("bool 2: %v", err)
	}
}

func TestReshapeIsAView(t *testing.T) {
	x := MustFromSlice([]string{"a", "b", "c", "d"}, 2, 2)
	y, err := x.Reshape(4)
	if err != nil {
		t.Fatal(err)
	}
	if !y.SharesStorage(x) || !SameShape(x.Shape(), []int{2, 2}) {
		t.Fatal("Reshape must share storage and leave x's shape alone")
	}
	if _, err := x.Reshape(3); !errors.Is(err, ErrShape) {
		t.Fatalf("bad reshape: %v", err)
	}
}

func TestEqualIsBitwise(t *testing.T) {
	nan := float32(math.NaN())
	a := MustFromSlice([]float32{nan, 0})
	b := MustFromSlice([]float32{nan, 0})
	c := MustFromSlice([]float32{nan, float32(math.Copysign(0, -1))})
	if !a.Equal(b) || a.Equal(c) {
		t.Fatal("Equal must compare bits")
	}
	if !a.Clone().Equal(a) || a.Clone().SharesStorage(a) {
		t.Fatal("Clone must copy")
	}
}

func TestMinifloats(t *testing.T) {
	cases := []struct {
		name string
		got  float64
		want float64
	}{
		{"e4m3fn 1", F8E4M3FN(0x38).Float64(), 1},
		{"e4m3fn max", F8E4M3FN(0x7E).Float64(), 448},
		{"e4m3fn min subnormal", F8E4M3FN(0x01).Float64(), math.Ldexp(1, -9)},
		{"e4m3fnuz 1", F8E4M3FNUZ(0x40).Float64(), 1},
		{"e5m2 1", F8E5M2(0x3C).Float64(), 1},
		{"e5m2 max", F8E5M2(0x7B).Float64(), 57344},
		{"e5m2 -inf", F8E5M2(0xFC).Float64(), math.Inf(-1)},
		{"e5m2fnuz 1", F8E5M2FNUZ(0x40).Float64(), 1},
		{"e8m0 1", F8E8M0(127).Float64(), 1},
		{"e8m0 2^-127", F8E8M0(0).Float64(), math.Ldexp(1, -127)},
		{"e2m1 6", F4E2M1(0x7).Float64(), 6},
		{"e2m1 -0.5", F4E2M1(0x9).Float64(), -0.5},
		{"bf16 1", float64(BF16(0x3F80).Float32()), 1},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	for _, nan := range []float64{F8E4M3FN(0xFF).Float64(), F8E4M3FNUZ(0x80).Float64(), F8E5M2(0x7F).Float64(),
		F8E5M2FNUZ(0x80).Float64(), F8E8M0(0xFF).Float64()} {
		if !math.IsNaN(nan) {
			t.Errorf("want NaN, got %v", nan)
		}
	}
	if BF16FromFloat32(1.00390625) != 0x3F80 || BF16FromFloat32(1.01171875) != 0x3F82 {
		t.Error("bfloat16 must round half to even")
	}
	h := MustFromSlice([]float16.Float16{float16.Fromfloat32(0.5)})
	if v, _ := h.Float64s(); v[0] != 0.5 {
		t.Errorf("float16: %v", v)
	}
}

func TestDataTypeNames(t *testing.T) {
	for _, dt := range AllTypes() {
		back, err := ParseDataType(dt.String())
		if err != nil || back != dt {
			t.Errorf("%v: %v %v", dt, back, err)
		}
	}
	if Int4.Bits() != 4 || Uint2.Bits() != 2 || Float.Bits() != 32 || Int4.Size() != 1 {
		t.Error("bits/size")
	}
}

func TestNewRefusesWhatCannotBeAllocated(t *testing.T) {
	for _, dt := range []DataType{String, Float, Uint8} {
		if _, err := New(dt, math.MaxInt/16+1); !errors.Is(err, ErrShape) && dt == String {
			t.Errorf("%v: %v", dt, err)
		}
		if _, err := New(dt, math.MaxInt); !errors.Is(err, ErrShape) {
			t.Errorf("%v: %v", dt, err)
		}
	}
}
