//go:build ort

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

// A model assembled with package builder loads in onnxruntime, and both
// engines give the same outputs: a pre-processing pipeline built once in Go
// serves both.
func TestBuiltModelRunsInBoth(t *testing.T) {
	b := builder.New(21)
	img := b.Input("image", tensor.Float, 1, 6, 8, 3)
	nchw := b.Op("Transpose", img, builder.Ints("perm", 0, 3, 1, 2))
	crop := b.Op("Slice", nchw, b.Ints64("starts", 1, 1), b.Ints64("ends", 5, 7), b.Ints64("axes", 2, 3))
	padded := b.Op("Pad", crop, b.Ints64("pads", 0, 0, 1, 0, 0, 0, 1, 0), builder.None, builder.None, builder.String("mode", "reflect"))
	big := b.Op("Resize", padded, builder.None, b.Constant("scales", tensor.MustFromSlice([]float32{1, 1, 2, 2})),
		builder.String("mode", "linear"))
	b.Output("pixels", big)
	b.Output("flat", b.Op("Flatten", padded, builder.Int("axis", 1)))
	model, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "built")
	if err := os.MkdirAll(filepath.Join(dir, "test_data_set_0"), 0o755); err != nil {
		t.Fatal(err)
	}
	px := make([]float32, 6*8*3)
	for i := range px {
		px[i] = float32(i%17) / 3
	}
	in, err := onnx.EncodeValue(tensor.MustFromSlice(px, 1, 6, 8, 3), "image")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "model.onnx"), model, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "test_data_set_0", "input_0.pb"), in, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := bench.ReadCase(dir)
	if err != nil {
		t.Fatal(err)
	}
	mo := bench.MeasureOptions{Runs: 1}
	ours := bench.RunOurs(c, bench.RunOptions{MeasureOptions: mo, Threads: 1})
	if ours.Err != nil {
		t.Fatal(ours.Err)
	}
	run, outs, destroy, err := newORT(c, 1)
	defer destroy()
	if err == nil {
		err = run()
	}
	if err != nil {
		t.Fatalf("onnxruntime does not run the built model: %v", err)
	}
	defer func() {
		for _, v := range outs {
			v.Destroy()
		}
	}()
	if check := differential(c, ours, outs, nil); check != "same" {
		t.Errorf("the engines differ: %s", check)
	}
}
