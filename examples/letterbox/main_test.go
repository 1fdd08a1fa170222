package main

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// The generated 480x640 image letterboxed into 32x32: 24 rows of image
// (640 -> 32 wide, 480 -> 24 high) centred between borders of 4 rows, the
// borders black, which normalises to -mean/std.
func TestLetterboxGenerated(t *testing.T) {
	dir := t.TempDir()
	out, model := filepath.Join(dir, "pixels.npy"), filepath.Join(dir, "letterbox.onnx")
	var log bytes.Buffer
	if err := run(32, "", out, model, &log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "image [1 480 640 3] -> tensor(float)[1 3 32 32]") {
		t.Errorf("log:\n%s", log.String())
	}
	m, err := graph.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Outputs()[0].Describe(); got != "tensor(float)[1,3,32,32]" {
		t.Errorf("output declared %s", got)
	}
	y := readNPY(t, out)
	border := func(c int) float32 { return -mean[c] / std[c] }
	at := func(c, row, col int) float32 { return y[c*32*32+row*32+col] }
	for c := range 3 {
		for _, row := range []int{0, 3, 28, 31} {
			if got := at(c, row, 16); math.Abs(float64(got-border(c))) > 1e-5 {
				t.Errorf("channel %d row %d is %v, want the border %v", c, row, got, border(c))
			}
		}
	}
	// Blue is 128 everywhere in the image: inside it, blue is 128/255
	// normalised.
	want := (128.0/255 - mean[2]) / std[2]
	if got := at(2, 16, 16); math.Abs(float64(got-want)) > 0.02 {
		t.Errorf("blue inside the image is %v, want %v", got, want)
	}
}

// A tall PNG is letterboxed with borders left and right.
func TestLetterboxPNG(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 10, 40))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	path := filepath.Join(t.TempDir(), "tall.png")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := filepath.Join(t.TempDir(), "pixels.npy")
	if err := run(16, path, out, "", &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	y := readNPY(t, out)
	white := (1 - mean[0]) / std[0]
	if row := y[8*16 : 9*16]; math.Abs(float64(row[0]-(-mean[0]/std[0]))) > 1e-5 || math.Abs(float64(row[8]-white)) > 1e-5 {
		t.Errorf("middle row of red: %v", row)
	}
}

func readNPY(t *testing.T, path string) []float32 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	x, err := tensor.ReadNPY(f)
	if err != nil {
		t.Fatal(err)
	}
	v, err := x.Float32s()
	if err != nil {
		t.Fatal(err)
	}
	return v
}
