package ops

import (
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// Benchmarks of Concat, Split, Slice and CenterCropPad on a float32 image
// batch of 8x64x112x112 (25 MB).

func benchImage() *tensor.Tensor { return tensor.MustNew(tensor.Float, 8, 64, 112, 112) }

func BenchmarkConcatChannels(b *testing.B) {
	x := benchImage()
	b.SetBytes(int64(2 * x.ByteLen()))
	for b.Loop() {
		if _, err := Concat([]*tensor.Tensor{x, x}, ConcatOptions{Axis: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSplitChannels(b *testing.B) {
	x := benchImage()
	b.SetBytes(int64(x.ByteLen()))
	for b.Loop() {
		if _, err := Split(x, SplitOptions{Axis: 1, NumOutputs: 4}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSliceReverseWidth(b *testing.B) {
	x := benchImage()
	b.SetBytes(int64(x.ByteLen()))
	for b.Loop() {
		if _, err := Slice(x, SliceOptions{Starts: []int64{-1}, Ends: []int64{math.MinInt64}, Axes: []int64{3}, Steps: []int64{-1}}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCenterCropPad(b *testing.B) {
	x := benchImage()
	b.SetBytes(int64(x.ByteLen()))
	for b.Loop() {
		if _, err := CenterCropPad(x, CenterCropPadOptions{Shape: []int{100, 128}, Axes: []int{2, 3}}); err != nil {
			b.Fatal(err)
		}
	}
}
