package tensor

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	cases := []struct {
		x    *Tensor
		want string
	}{
		{MustFromSlice([]float32{1, 2.5, 3, 4, 5, 6}, 2, 3), "tensor(float)[2 3]\n[[1 2.5 3]\n [4 5 6]]"},
		{Scalar(int64(-7)), "tensor(int64)[]\n-7"},
		{MustFromSlice([]bool{true, false}), "tensor(bool)[2]\n[true false]"},
		{MustFromSlice([]string{"a", "b c"}), "tensor(string)[2]\n[\"a\" \"b c\"]"},
		{MustFromSlice([]I4{-8, 7}), "tensor(int4)[2]\n[-8 7]"},
		{MustFromSlice([]uint8{1, 2, 3, 4, 5, 6, 7, 8}, 2, 2, 2), "tensor(uint8)[2 2 2]\n[[[1 2]\n  [3 4]]\n\n [[5 6]\n  [7 8]]]"},
		{MustNew(Float, 2, 0), "tensor(float)[2 0]\n[[]\n []]"},
	}
	for _, c := range cases {
		if got := c.x.String(); got != c.want {
			t.Errorf("got\n%s\nwant\n%s", got, c.want)
		}
	}
	big := MustNew(Int32, 2000)
	if s := big.String(); !strings.Contains(s, "[0 0 0 ... 0 0 0]") {
		t.Errorf("a large tensor must be elided: %s", s)
	}
}
