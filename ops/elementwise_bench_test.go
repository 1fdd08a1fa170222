package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// Benchmarks of the elementwise engine, beside a plain copy of as many
// bytes for scale: a broadcast Add of a per-channel bias to an image
// (the [1,64,224,224] + [1,64,1,1] of the standard benchmark) and a Where
// over 25 MB of float32.

func BenchmarkAddBroadcastChannels(b *testing.B) {
	x := tensor.MustNew(tensor.Float, 1, 64, 224, 224)
	bias := tensor.MustNew(tensor.Float, 1, 64, 1, 1)
	b.SetBytes(int64(2 * x.ByteLen())) // read x, write the output
	for b.Loop() {
		if _, err := Add(x, bias); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAddSameShape(b *testing.B) {
	x := benchImage()
	b.SetBytes(int64(3 * x.ByteLen()))
	for b.Loop() {
		if _, err := Add(x, x); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWhere(b *testing.B) {
	x := benchImage()
	cond := tensor.MustNew(tensor.Bool, x.Shape()...)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range cond.Bytes() {
		cond.Bytes()[i] = byte(rng.IntN(2)) // unpredictable, as data is
	}
	b.SetBytes(int64(3*x.ByteLen() + cond.ByteLen()))
	for b.Loop() {
		if _, err := Where(cond, x, x); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRelu(b *testing.B) {
	x := benchImage()
	b.SetBytes(int64(2 * x.ByteLen()))
	for b.Loop() {
		if _, err := Relu(x); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCopyImage is the yardstick: a new tensor and a copy of 25 MB.
func BenchmarkCopyImage(b *testing.B) {
	x := benchImage()
	b.SetBytes(int64(2 * x.ByteLen()))
	for b.Loop() {
		y := tensor.MustNew(tensor.Float, x.Shape()...)
		copy(y.Bytes(), x.Bytes())
	}
}

func BenchmarkSigmoid(b *testing.B) {
	x := benchImage()
	b.SetBytes(int64(2 * x.ByteLen()))
	for b.Loop() {
		if _, err := Sigmoid(x); err != nil {
			b.Fatal(err)
		}
	}
}
