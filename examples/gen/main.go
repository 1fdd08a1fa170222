// Command gen writes the bundled example: letterbox.onnx, a model that
// prepares an image for a vision network, and image.npy, its input.
//
//	go run ./examples/gen            # rewrites examples/letterbox.onnx and examples/image.npy
//	go run ./examples/gen -out DIR
//
// The model takes an NHWC uint8 image [1, 6, 8, 3] and
//
//  1. Transpose  perm [0, 3, 1, 2]          -> NCHW [1, 3, 6, 8]
//  2. Slice      rows 1..5, columns 1..7    -> the centre crop [1, 3, 4, 6]
//  3. Concat     an opaque alpha plane      -> RGBA [1, 4, 4, 6]
//  4. Pad        a row of zeros above and below (transparent bars)
//     -> "square" [1, 4, 6, 6]
//  5. Resize     nearest, scales [1, 1, 2, 2] -> [1, 4, 12, 12]
//  6. Cast       to float                   -> [1, 4, 12, 12] float32, 0 to 255
//  7. Div        by 255                     -> "pixels" [1, 4, 12, 12] float32, 0 to 1
//
// Steps 6 and 7 normalise the image to the floats a vision network takes,
// inside the model. Cast is outside the SONNX profile's operator set (the
// working group does not specify it), so onnxshape check finds this model
// outside the profile for that one node; steps 1 to 5 meet it.
//
// It is assembled with package builder, which declares the type of every
// intermediate value. The constants are initializers; every attribute and
// optional input is written out and Slice and Pad list every axis, as the
// SONNX profile requires (onnxshape check examples/letterbox.onnx).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/tensor"
)

// Image is the size of the example's input, NHWC.
const (
	Height   = 6
	Width    = 8
	Channels = 3
)

func main() {
	out := flag.String("out", "examples", "folder to write letterbox.onnx and image.npy into")
	flag.Parse()
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	model, err := letterbox()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "letterbox.onnx"), model, 0o644); err != nil {
		return err
	}
	var img bytes.Buffer
	if err := tensor.WriteNPY(&img, image()); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "image.npy"), img.Bytes(), 0o644)
}

// image is a small test card: red grows along the rows, green along the
// columns, blue is constant, so every pixel can be told apart.
func image() *tensor.Tensor {
	px := make([]uint8, 0, Height*Width*Channels)
	for h := range Height {
		for w := range Width {
			px = append(px, uint8(10*h), uint8(100+10*w), 200)
		}
	}
	return tensor.MustFromSlice(px, 1, Height, Width, Channels)
}

func letterbox() ([]byte, error) {
	alpha := make([]uint8, 4*6)
	for i := range alpha {
		alpha[i] = 255
	}
	b := builder.New(21)
	b.Describe("letterbox", "NHWC uint8 image -> centre crop -> RGBA -> letterboxed square -> 2x nearest upscale, NCHW -> float in [0, 1]")
	image := b.Input("image", tensor.Uint8, 1, Height, Width, Channels)
	axes := b.Ints64("axes", 0, 1, 2, 3)
	nchw := b.Op("Transpose", builder.Name("to_nchw"), image, builder.Ints("perm", 0, 3, 1, 2))
	crop := b.Op("Slice", builder.Name("crop"), nchw,
		b.Ints64("crop_starts", 0, 0, 1, 1), b.Ints64("crop_ends", 1, 3, 5, 7), axes, b.Ints64("crop_steps", 1, 1, 1, 1))
	rgba := b.Op("Concat", builder.Name("add_alpha"), crop, b.Constant("alpha", tensor.MustFromSlice(alpha, 1, 1, 4, 6)),
		builder.Int("axis", 1))
	square := b.Op("Pad", builder.Name("letterbox"), rgba, b.Ints64("pads", 0, 0, 1, 0, 0, 0, 1, 0),
		b.Constant("zero", tensor.Scalar(uint8(0))), axes, builder.String("mode", "constant"))
	upscaled := b.Op("Resize", builder.Name("upscale"), square, builder.None,
		b.Constant("scales", tensor.MustFromSlice([]float32{1, 1, 2, 2})),
		builder.String("mode", "nearest"), builder.String("coordinate_transformation_mode", "half_pixel"),
		builder.String("nearest_mode", "round_prefer_floor"), builder.Float("cubic_coeff_a", -0.75),
		builder.Int("exclude_outside", 0), builder.Float("extrapolation_value", 0), builder.Int("antialias", 0),
		builder.Ints("axes", 0, 1, 2, 3), builder.String("keep_aspect_ratio_policy", "stretch"))
	floats := b.Op("Cast", builder.Name("to_float"), upscaled, builder.Int("to", int(tensor.Float)), builder.Int("saturate", 1))
	pixels := b.Op("Div", builder.Name("normalise"), floats, b.Constant("max_value", tensor.Scalar(float32(255))))
	b.Output("pixels", pixels)
	b.Output("square", square)
	return b.Encode()
}
