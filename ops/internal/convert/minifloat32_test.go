package convert

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// float32Cast gives the general path's bytes, NaN and overflow included,
// for each float8 format with and without saturation and for bfloat16: on
// every third (in -short, every 61st) value of a float32's top 23 bits,
// each with a few low 9-bit patterns (which puts values exactly on, just
// below and just above the rounding ties of every format among them), and
// on 2^20 random float32s.
func TestFloat32CastIsGeneralPath(t *testing.T) {
	var bits []uint32
	step := uint32(3)
	if testing.Short() {
		step = 61
	}
	for hi := uint32(0); hi < 1<<23; hi += step {
		for _, low := range []uint32{0, 1, 0x100, 0x1FF} {
			bits = append(bits, hi<<9|low)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 1 << 20 {
		bits = append(bits, r.Uint32())
	}
	n := len(bits)
	src := tensor.MustNew(tensor.Float, n)
	copy(movement.AsElems[uint32](src.Bytes()), bits)
	v := make([]float64, Chunk)
	for _, dt := range []tensor.DataType{tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ, tensor.BFloat16} {
		for _, sat := range []bool{true, false} {
			o := Options{Saturate: sat, RoundMode: "up"}
			got, want := tensor.MustNew(dt, n), tensor.MustNew(dt, n)
			if !float32Cast(got, src, 0, n, o) {
				t.Fatalf("%v: no fast path", dt)
			}
			for c := 0; c < n; c += Chunk {
				m := min(Chunk, n-c)
				DecodeFloats(v[:m], src, c)
				EncodeFloats(want, c, v[:m], o)
			}
			size := dt.Size()
			g, w := got.Bytes(), want.Bytes()
			for i := range n {
				if string(g[i*size:(i+1)*size]) != string(w[i*size:(i+1)*size]) {
					t.Fatalf("%v saturate %v: %g (%#08x) gives %x, want %x", dt, sat, math.Float32frombits(bits[i]), bits[i], g[i*size:(i+1)*size], w[i*size:(i+1)*size])
				}
			}
		}
	}
	// bfloat16 back to float32, NaNs included.
	bf := tensor.MustNew(tensor.BFloat16, 1<<16)
	for i := range 1 << 16 {
		movement.AsElems[uint16](bf.Bytes())[i] = uint16(i)
	}
	got, want := tensor.MustNew(tensor.Float, 1<<16), tensor.MustNew(tensor.Float, 1<<16)
	if !float32Cast(got, bf, 0, 1<<16, DefaultCast) {
		t.Fatal("bfloat16 to float: no fast path")
	}
	for c := 0; c < 1<<16; c += Chunk {
		DecodeFloats(v, bf, c)
		EncodeFloats(want, c, v, DefaultCast)
	}
	if string(got.Bytes()) != string(want.Bytes()) {
		t.Fatal("bfloat16 to float differs from the general path")
	}
}
