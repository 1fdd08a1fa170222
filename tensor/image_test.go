package tensor_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"reflect"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// testImage is 3 wide and 2 high, every pixel a different colour.
func testImage() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	for y := range 2 {
		for x := range 3 {
			img.SetNRGBA(x, y, color.NRGBA{uint8(10*x + y), uint8(100 + x), uint8(200 + y), 255})
		}
	}
	return img
}

func TestFromImageLayouts(t *testing.T) {
	img := testImage()
	imagenet := tensor.ImageOptions{Mean: [3]float32{0.485, 0.456, 0.406}, Std: [3]float32{0.229, 0.224, 0.225}}
	x, err := tensor.FromImage(img, imagenet)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(x.Shape(), []int{1, 3, 2, 3}) || x.DataType() != tensor.Float {
		t.Fatalf("NCHW: %v %v", x.DataType(), x.Shape())
	}
	f, _ := tensor.Data[float32](x)
	// Green of pixel (x=2, y=1): channel 1, row 1, column 2.
	want := (102.0/255 - 0.485 + 0.029) / 0.224 // (green/255 - mean) / std
	if got := f[1*6+1*3+2]; math.Abs(float64(got)-want) > 1e-6 {
		t.Errorf("green at (2,1) = %v, want %v", got, want)
	}

	u, err := tensor.FromImage(img, tensor.ImageOptions{Layout: tensor.NHWC, DataType: tensor.Uint8, BGR: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(u.Shape(), []int{1, 2, 3, 3}) {
		t.Fatalf("NHWC: %v", u.Shape())
	}
	b := u.Bytes()
	// Pixel (x=1, y=1) in BGR: blue 201, green 101, red 11.
	if at := (1*3 + 1) * 3; b[at] != 201 || b[at+1] != 101 || b[at+2] != 11 {
		t.Errorf("BGR pixel (1,1) = %v", b[at:at+3])
	}

	g, err := tensor.FromImage(img, tensor.ImageOptions{Gray: true, DataType: tensor.Uint8})
	if err != nil {
		t.Fatal(err)
	}
	if want := color.GrayModel.Convert(img.At(2, 1)).(color.Gray).Y; g.Bytes()[5] != want || !reflect.DeepEqual(g.Shape(), []int{1, 1, 2, 3}) {
		t.Errorf("gray %v at (2,1) = %d, want %d", g.Shape(), g.Bytes()[5], want)
	}

	if _, err := tensor.FromImage(img, tensor.ImageOptions{DataType: tensor.Int64}); !errors.Is(err, tensor.ErrType) {
		t.Errorf("int64 image: %v", err)
	}
	if _, err := tensor.FromImage(nil, tensor.ImageOptions{}); err == nil {
		t.Error("nil image accepted")
	}
}

// A decoded JPEG (YCbCr, offset bounds) reads as its At says.
func TestFromImageJPEG(t *testing.T) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, testImage(), nil); err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	sub := img.(*image.YCbCr).SubImage(image.Rect(1, 0, 3, 2))
	x, err := tensor.FromImage(sub, tensor.ImageOptions{Layout: tensor.NHWC, DataType: tensor.Uint8})
	if err != nil {
		t.Fatal(err)
	}
	b := x.Bytes()
	for y := range 2 {
		for i := range 2 {
			c := color.NRGBAModel.Convert(sub.At(1+i, y)).(color.NRGBA)
			at := (y*2 + i) * 3
			if b[at] != c.R || b[at+1] != c.G || b[at+2] != c.B {
				t.Errorf("pixel (%d,%d) = %v, want %v", 1+i, y, b[at:at+3], c)
			}
		}
	}
}

func TestToImageUndoesFromImage(t *testing.T) {
	img := testImage()
	for _, o := range []tensor.ImageOptions{
		{},
		{Layout: tensor.NHWC, BGR: true, Mean: [3]float32{0.5, 0.4, 0.3}, Std: [3]float32{0.2, 0.3, 0.4}},
		{DataType: tensor.Uint8},
		{Layout: tensor.NHWC, DataType: tensor.Uint8, Scale: 1},
	} {
		x, err := tensor.FromImage(img, o)
		if err != nil {
			t.Fatal(err)
		}
		back, err := tensor.ToImage(x, o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if got := back.(*image.NRGBA); !reflect.DeepEqual(got.Pix, img.Pix) {
			t.Errorf("%+v: got %v, want %v", o, got.Pix, img.Pix)
		}
	}
	gray := tensor.MustFromSlice([]float32{-1, 0.5, float32(math.NaN()), 2}, 2, 2)
	g, err := tensor.ToImage(gray, tensor.ImageOptions{Gray: true, Layout: tensor.NHWC, Scale: 1.0 / 255})
	if err == nil {
		t.Fatalf("a [2,2] tensor is no NHWC gray image: %v", g)
	}
	g, err = tensor.ToImage(tensor.MustFromSlice([]float32{-1, 100.0 / 255, float32(math.NaN()), 2}, 1, 2, 2), tensor.ImageOptions{Gray: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := g.(*image.Gray).Pix; !reflect.DeepEqual(got, []uint8{0, 100, 0, 255}) {
		t.Errorf("clamped gray = %v", got)
	}
	if _, err := tensor.ToImage(tensor.MustNew(tensor.Float, 1, 4, 2, 2), tensor.ImageOptions{}); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("4 channels: %v", err)
	}
}
