package examples_test

import (
	"context"
	"testing"

	"github.com/onnxshape/onnxshape/examples"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestLetterbox runs the bundled model and checks every output value
// against the pipeline written out by hand.
func TestLetterbox(t *testing.T) {
	if n := len(examples.Model()); n == 0 || n > 20<<10 {
		t.Fatalf("letterbox.onnx is %d bytes", n)
	}
	m, err := graph.LoadBytes(examples.Model(), "")
	if err != nil {
		t.Fatal(err)
	}
	in, err := examples.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Run(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	img, _ := tensor.Data[uint8](in["image"].(*tensor.Tensor))
	const W, C = 8, 3 // the image is [1, 6, W, C]

	// crop rows 1..5 and columns 1..7, add alpha 255, pad one row of zeros
	// above and below, then repeat every pixel 2x2; pixels is that as
	// float32 divided by 255.
	want := make([]uint8, 4*12*12)
	for c := range 4 {
		for y := range 12 {
			for x := range 12 {
				row := y/2 - 1 // row in the 4x6 crop; -1 and 4 are the bars
				col := x / 2
				if row < 0 || row >= 4 {
					continue
				}
				v := uint8(255)
				if c < C {
					v = img[((row+1)*W+(col+1))*C+c]
				}
				want[(c*12+y)*12+x] = v
			}
		}
	}
	normalised := make([]float32, len(want))
	for i, v := range want {
		normalised[i] = float32(v) / 255
	}
	if got := out.Map()["pixels"].(*tensor.Tensor); !got.Equal(tensor.MustFromSlice(normalised, 1, 4, 12, 12)) {
		t.Fatalf("pixels:\n%v", got)
	}
	square := make([]uint8, 4*6*6)
	for i := range square {
		c, y, x := i/36, i/6%6, i%6
		square[i] = want[(c*12+2*y)*12+2*x]
	}
	if got := out.Map()["square"].(*tensor.Tensor); !got.Equal(tensor.MustFromSlice(square, 1, 4, 6, 6)) {
		t.Fatalf("square:\n%v", got)
	}
}
