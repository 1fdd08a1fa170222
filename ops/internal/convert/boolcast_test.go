package convert

import (
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// The bool casts give what the general path (through int64 or float64)
// gives, for ±0, NaN, infinities, denormals and both bools, at odd lengths
// and offsets, through the vector loops and their tails.
func TestBoolCastIsGeneralPath(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1e-310, 5e-324, 1, -1, 0.5, 3}
	for _, ft := range []tensor.DataType{tensor.Float, tensor.Double} {
		for _, reps := range []int{2, 7, 13} { // 23 to 144: the vector loops and their tails
			n := reps*len(vals) + 1
			src := tensor.MustNew(ft, n)
			v := make([]float64, n)
			for i := range v {
				v[i] = vals[i%len(vals)]
			}
			EncodeFloats(src, 0, v, DefaultCast)
			got, want := tensor.MustNew(tensor.Bool, n), tensor.MustNew(tensor.Bool, n)
			if !boolCast(got, src, 1, n) {
				t.Fatalf("%v to bool: no fast path", ft)
			}
			d := make([]float64, n)
			DecodeFloats(d, src, 0)
			EncodeFloats(want, 0, d, DefaultCast)
			for i := 1; i < n; i++ {
				if got.Bytes()[i] != want.Bytes()[i] {
					t.Errorf("%v %g to bool: %d, want %d", ft, v[i], got.Bytes()[i], want.Bytes()[i])
				}
			}
			b := tensor.MustNew(tensor.Bool, n)
			for i := range n {
				b.Bytes()[i] = byte(i % 3 % 2)
			}
			gf, wf := tensor.MustNew(ft, n), tensor.MustNew(ft, n)
			if !boolCast(gf, b, 0, n) {
				t.Fatalf("bool to %v: no fast path", ft)
			}
			ints := make([]int64, n)
			DecodeInts(ints, b, 0)
			encodeInts(wf, 0, ints, true, DefaultCast)
			if string(gf.Bytes()) != string(wf.Bytes()) {
				t.Errorf("bool to %v: %v, want %v", ft, movement.AsElems[byte](gf.Bytes()), movement.AsElems[byte](wf.Bytes()))
			}
		}
	}
}
