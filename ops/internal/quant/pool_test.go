package quant

import (
	"math/rand/v2"
	"testing"
)

// TestMaxPoolRowsAgree: MaxInto and MaxWindows (vector and Go paths)
// against plain loops, int8 and uint8, strides 1 to 3, dilations, lengths
// about the vector width.
func TestMaxPoolRowsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	less := func(a, b byte, signed bool) bool {
		if signed {
			return int8(a) < int8(b)
		}
		return a < b
	}
	for it := range 500 {
		signed := r.IntN(2) == 0
		n := r.IntN(200)
		dst, src := make([]byte, n), make([]byte, n)
		for i := range dst {
			dst[i], src[i] = byte(r.IntN(256)), byte(r.IntN(256))
		}
		want := append([]byte(nil), dst...)
		for i := range want {
			if less(want[i], src[i], signed) {
				want[i] = src[i]
			}
		}
		MaxInto(dst, src, signed)
		if string(dst) != string(want) {
			t.Fatalf("%d: MaxInto n %d signed %v", it, n, signed)
		}
		taps, dil, stride := 1+r.IntN(4), 1+r.IntN(2), 1+r.IntN(3)
		out := r.IntN(100)
		in := make([]byte, max(0, (out-1)*stride+(taps-1)*dil+1)+r.IntN(3))
		for i := range in {
			in[i] = byte(r.IntN(256))
		}
		got := make([]byte, out)
		MaxWindows(got, in, taps, dil, stride, signed)
		for j := range out {
			m := in[j*stride]
			for q := 1; q < taps; q++ {
				if less(m, in[j*stride+q*dil], signed) {
					m = in[j*stride+q*dil]
				}
			}
			if got[j] != m {
				t.Fatalf("%d: MaxWindows taps %d dil %d stride %d signed %v: [%d] = %d, want %d", it, taps, dil, stride, signed, j, got[j], m)
			}
		}
	}
}
