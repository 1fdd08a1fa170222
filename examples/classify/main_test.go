package main

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

// A MobileNetV2-shaped classifier (seeded weights, a quarter of the width
// and resolution: 56x56) classifies a PNG file end to end, and the top
// classes are those of the model's scores on the same pixels.
func TestClassifyEndToEnd(t *testing.T) {
	var zoo bench.ZooModel
	for _, z := range bench.Zoo() {
		if z.Name == "mobilenetv2" {
			zoo = z
		}
	}
	mp, _, err := zoo.Build(4)
	if err != nil {
		t.Fatal(err)
	}
	data, err := onnx.EncodeModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	modelPath := filepath.Join(dir, "mobilenetv2.onnx")
	if err := os.WriteFile(modelPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 90, 60)) // not the model's size: resized
	for y := range 60 {
		for x := range 90 {
			img.SetNRGBA(x, y, color.NRGBA{uint8(3 * x), uint8(4 * y), uint8(x * y), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	imagePath := filepath.Join(dir, "gradient.png")
	if err := os.WriteFile(imagePath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	labels := filepath.Join(dir, "labels.txt")
	os.WriteFile(labels, []byte("tench\ngoldfish\n"), 0o644)

	var out bytes.Buffer
	if err := run(modelPath, imagePath, labels, 5, &out); err != nil {
		t.Fatal(err)
	}
	lines := regexp.MustCompile(`(?m)^ *\d+\.\d\d%  (tench|goldfish|class \d+)$`).FindAllString(out.String(), -1)
	if len(lines) != 5 {
		t.Fatalf("want 5 classes, got:\n%s", out.String())
	}

	// The same answer from the scores themselves.
	m, err := graph.Load(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	classes, err := Classify(context.Background(), m, img, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(classes); i++ {
		if classes[i].Probability > classes[i-1].Probability {
			t.Fatalf("classes not sorted at %d", i)
		}
	}
	small := image.NewNRGBA(image.Rect(0, 0, 56, 56))
	x, _ := tensor.FromImage(resized(img, small), imagenet)
	res, err := m.Run(context.Background(), map[string]tensor.Value{m.Inputs()[0].Name: x}, nil)
	if err != nil {
		t.Fatal(err)
	}
	scores, _ := res.Map()[m.Outputs()[0].Name].(*tensor.Tensor).Float64s()
	best := 0
	for i, s := range scores {
		if s > scores[best] {
			best = i
		}
	}
	if classes[0].Index != best || len(classes) != len(scores) {
		t.Errorf("top class %d of %d, the scores' argmax is %d of %d", classes[0].Index, len(classes), best, len(scores))
	}

	if _, err := Classify(context.Background(), m, image.NewGray(image.Rect(0, 0, 4, 4)), 5); err != nil {
		t.Errorf("a gray image: %v", err)
	}
}

func resized(img image.Image, dst *image.NRGBA) image.Image {
	// The same resampling as Classify.
	scale(dst, img)
	return dst
}
