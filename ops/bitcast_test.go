package ops

import (
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// BitCast keeps the bits: float32 1.0 is int32 1065353216, complex64 1+2i
// is the uint64 of its real then imaginary float32 (little-endian), and a
// complex128 only reinterprets as itself.
func TestBitCastKeepsBits(t *testing.T) {
	to := func(dt tensor.DataType) map[string]Attribute {
		return map[string]Attribute{"to": intAttribute(int64(dt))}
	}
	y, err := runNode(nil, "BitCast", 26, to(tensor.Int32), tensor.MustFromSlice([]float32{1, -2}))
	checkRule(t, err, "")
	if !y.Equal(tensor.MustFromSlice([]int32{1065353216, -1073741824})) {
		t.Errorf("float32 as int32: %v", y)
	}
	y, err = runNode(nil, "BitCast", 26, to(tensor.Uint64), tensor.MustFromSlice([]complex64{1 + 2i}))
	checkRule(t, err, "")
	want := uint64(math.Float32bits(1)) | uint64(math.Float32bits(2))<<32
	if !y.Equal(tensor.MustFromSlice([]uint64{want})) {
		t.Errorf("complex64 as uint64: %v, want %d", y, want)
	}
	back, err := runNode(nil, "BitCast", 26, to(tensor.Complex64), y)
	checkRule(t, err, "")
	if !back.Equal(tensor.MustFromSlice([]complex64{1 + 2i})) {
		t.Errorf("uint64 back to complex64: %v", back)
	}
	z := tensor.MustFromSlice([]complex128{3 - 4i})
	y, err = runNode(nil, "BitCast", 26, to(tensor.Complex128), z)
	checkRule(t, err, "")
	if !y.Equal(z) {
		t.Errorf("complex128 as itself: %v", y)
	}
	_, err = runNode(nil, "BitCast", 26, to(tensor.Double), z)
	checkRule(t, err, "to") // 128 bits are not 64
	_, err = runNode(nil, "BitCast", 26, to(tensor.String), tensor.MustFromSlice([]float32{1}))
	checkRule(t, err, "to")
}
