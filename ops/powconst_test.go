package ops

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// A single exponent with a loop of its own (elementwise.PowConst32) gives
// the bits of the general loop, which runs when the exponent is a tensor of
// several elements: float32, float16 and bfloat16 bases, exponents of
// several types, random values and the special ones.
func TestPowConstExponent(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 4096
	bits := make([]uint32, n)
	for i := range bits {
		switch i % 4 {
		case 0:
			bits[i] = r.Uint32()
		default:
			bits[i] = math.Float32bits(float32(r.NormFloat64() * 4))
		}
	}
	for i, v := range []float32{0, float32(math.Inf(1)), float32(math.NaN()), 1, 1e-40, 3e38} {
		bits[2*i], bits[2*i+1] = math.Float32bits(v), math.Float32bits(-v)
	}
	bases := map[string]*tensor.Tensor{}
	f := make([]float32, n)
	h := make([]uint16, n)
	for i, b := range bits {
		f[i] = math.Float32frombits(b)
		h[i] = uint16(b >> 16)
	}
	bases["float"] = tensor.MustFromSlice(f, 4, n/4)
	for _, dt := range []tensor.DataType{tensor.Float16, tensor.BFloat16} {
		x := tensor.MustNew(dt, 4, n/4)
		copy(x.Bytes(), tensor.MustFromSlice(h, n).Bytes())
		bases[dt.String()] = x
	}
	for name, x := range bases {
		for _, e := range []float64{3, 2, 0.5, -0.5, -1, -2, 4, 7, 16, -16, 0, 1, 2.5, 17} {
			for _, ydt := range []tensor.DataType{tensor.Float, tensor.Int64, tensor.Double} {
				if ydt == tensor.Int64 && e != math.Trunc(e) {
					continue
				}
				one, each := exponents(ydt, e, 1), exponents(ydt, e, 4)
				fast, err := runNode(nil, "Pow", 15, nil, x, one)
				if err != nil {
					t.Fatal(err)
				}
				general, err := runNode(nil, "Pow", 15, nil, x, each)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(fast.Bytes(), general.Bytes()) {
					t.Errorf("%s ^ %v (%v): the single exponent's bits differ from the general loop's", name, e, ydt)
				}
			}
		}
	}
}

// exponents is a [k, 1] tensor of type dt holding e k times.
func exponents(dt tensor.DataType, e float64, k int) *tensor.Tensor {
	switch dt {
	case tensor.Int64:
		return tensor.MustFromSlice([]int64{int64(e), int64(e), int64(e), int64(e)}[:k], k, 1)
	case tensor.Double:
		return tensor.MustFromSlice([]float64{e, e, e, e}[:k], k, 1)
	}
	return tensor.MustFromSlice([]float32{float32(e), float32(e), float32(e), float32(e)}[:k], k, 1)
}
