package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

// Cast float32 -> float16 of 25 MB, beside the plain copy of the bytes it
// touches (25 MB read, 12.5 MB written).
func BenchmarkCastFloatToFloat16(b *testing.B) {
	x := tensor.MustNew(tensor.Float, 8, 64, 112, 112)
	v := asElems[float32](x.Bytes())
	r := rand.New(rand.NewPCG(1, 2))
	for i := range v {
		v[i] = r.Float32()*200 - 100
	}
	y := tensor.MustNew(tensor.Float16, x.Shape()...)
	b.SetBytes(int64(x.ByteLen() + y.ByteLen()))
	for b.Loop() {
		if err := convertAll(&defaultOptions, opRef{"Cast", 25}, y, x, convert.DefaultCast); err != nil {
			b.Fatal(err)
		}
	}
}

// The copy Cast is measured against: the same bytes read and written.
func BenchmarkCastBaselineCopy(b *testing.B) {
	src := make([]byte, 8*64*112*112*4)
	dst := make([]byte, len(src)/2)
	b.SetBytes(int64(len(src) + len(dst)))
	for b.Loop() {
		_ = parallelRange(&defaultOptions, len(dst), len(src)/4, func(lo, hi int) error {
			copy(dst[lo:hi], src[2*lo:2*hi])
			return nil
		})
	}
}

// Gather of rows: an embedding lookup of 50000 random rows of 128 floats.
func BenchmarkGatherRows(b *testing.B) {
	table := tensor.MustNew(tensor.Float, 50000, 128)
	r := rand.New(rand.NewPCG(1, 2))
	idx := make([]int64, 50000)
	for i := range idx {
		idx[i] = r.Int64N(50000)
	}
	indices := tensor.MustFromSlice(idx)
	b.SetBytes(int64(2 * table.ByteLen()))
	for b.Loop() {
		if _, err := Gather(table, indices, GatherOptions{Axis: 0}); err != nil {
			b.Fatal(err)
		}
	}
}
