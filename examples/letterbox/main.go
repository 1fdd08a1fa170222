// Command letterbox prepares an image for a vision model, end to end
// through onnxshape's public API: it builds (package builder) one ONNX
// model with symbolic height and width that turns an NHWC uint8 image of
// any size into the float32 tensor a network takes: a letterboxed square
// NCHW image (Transpose, Resize keeping the aspect ratio, CenterCropPad),
// normalised with the ImageNet statistics (Cast to float, Div by 255, Sub
// the mean, Div by the standard deviation). It saves the model, loads it
// (package graph), reads its declared inputs and runs it with a size cap.
//
//	go run ./examples/letterbox [-size 224] [-out pixels.npy] [IMAGE.png|IMAGE.jpg]
//
// Without an image it letterboxes a generated 480x640 gradient. The model
// is an ordinary .onnx file (-model keeps it), which onnxruntime runs too.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	_ "image/jpeg" // decoders for image.Decode
	_ "image/png"
	"io"
	"os"
	"path/filepath"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The ImageNet statistics most vision models are trained with, per RGB
// channel, on pixels scaled to [0, 1].
var (
	mean = [3]float32{0.485, 0.456, 0.406}
	std  = [3]float32{0.229, 0.224, 0.225}
)

func main() {
	size := flag.Int("size", 224, "side of the square the image is letterboxed into")
	out := flag.String("out", "", "write the normalised tensor to this .npy file")
	modelPath := flag.String("model", "", "keep the built model in this .onnx file")
	flag.Parse()
	if flag.NArg() > 1 {
		fmt.Fprintln(os.Stderr, "letterbox: give at most one IMAGE")
		os.Exit(2)
	}
	if err := run(*size, flag.Arg(0), *out, *modelPath, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "letterbox:", err)
		os.Exit(1)
	}
}

// run letterboxes the image at path (a generated one when path is "") into
// a size x size square and reports what it did on w.
func run(size int, path, outPath, modelPath string, w io.Writer) error {
	if modelPath == "" {
		dir, err := os.MkdirTemp("", "letterbox")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		modelPath = filepath.Join(dir, "letterbox.onnx")
	}
	if err := buildModel(size).Save(modelPath); err != nil {
		return err
	}
	m, err := graph.Load(modelPath)
	if err != nil {
		return err
	}
	for _, in := range m.Inputs() {
		dims, _ := in.Shape()
		fmt.Fprintf(w, "model input %s: %v %v\n", in.Name, in.ElemType(), dims)
	}

	img, err := readImage(path)
	if err != nil {
		return err
	}
	x, err := imageTensor(img)
	if err != nil {
		return err
	}
	// A cap on the run's live bytes: a huge image is refused, not
	// allocated.
	res, err := m.Run(context.Background(), map[string]tensor.Value{"image": x},
		&graph.RunOptions{MaxRunBytes: 256 << 20})
	switch {
	case errors.Is(err, graph.ErrInvalidInput), errors.Is(err, graph.ErrLimit):
		return fmt.Errorf("the image does not fit the model: %w", err)
	case err != nil:
		return err
	}
	y, err := res.Tensor("pixels")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "image %v -> %v\n", x.Shape(), y.Describe())
	if outPath != "" {
		f, err := os.Create(outPath)
		if err != nil {
			return err
		}
		if err := tensor.WriteNPY(f, y); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	return nil
}

// buildModel is image [1, H, W, 3] uint8 -> pixels [1, 3, size, size]
// float32: the image scaled to fit the square, aspect ratio kept, centred
// on a black border, then each channel c as (p/255 - mean[c]) / std[c].
func buildModel(size int) *builder.Builder {
	b := builder.New(21)
	img := b.InputDims("image", tensor.Uint8, graph.Const(1), graph.Sym("H"), graph.Sym("W"), graph.Const(3))
	nchw := b.Op("Transpose", img, builder.Ints("perm", 0, 3, 1, 2))
	square := b.Ints64("square", int64(size), int64(size))
	fitted := b.Op("Resize", nchw, builder.None, builder.None, square,
		builder.Ints("axes", 2, 3),
		builder.String("mode", ops.Linear),
		builder.String("keep_aspect_ratio_policy", ops.NotLarger),
		builder.Int("antialias", 1))
	boxed := b.Op("CenterCropPad", fitted, square, builder.Ints("axes", 2, 3))
	floats := b.Op("Cast", boxed, builder.Int("to", int(tensor.Float)))
	unit := b.Op("Div", floats, b.Constant("max_value", tensor.Scalar(float32(255))))
	perChannel := func(name string, v [3]float32) builder.Value {
		return b.Constant(name, tensor.MustFromSlice(v[:], 1, 3, 1, 1)) // broadcast over N, H and W
	}
	centred := b.Op("Sub", unit, perChannel("mean", mean))
	b.Output("pixels", b.Op("Div", centred, perChannel("std", std)))
	return b
}

// readImage decodes the PNG or JPEG at path, or makes a 480x640 gradient
// when path is "".
func readImage(path string) (image.Image, error) {
	if path == "" {
		img := image.NewRGBA(image.Rect(0, 0, 640, 480))
		for y := range 480 {
			for x := range 640 {
				i := img.PixOffset(x, y)
				img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(x*255/639), uint8(y*255/479), 128, 255
			}
		}
		return img, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return img, nil
}

// imageTensor is img as a [1, H, W, 3] uint8 tensor of its RGB values.
func imageTensor(img image.Image) (*tensor.Tensor, error) {
	r := img.Bounds()
	h, w := r.Dy(), r.Dx()
	rgb := make([]uint8, 0, h*w*3)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			rgb = append(rgb, uint8(cr>>8), uint8(cg>>8), uint8(cb>>8))
		}
	}
	return tensor.FromSlice(rgb, 1, h, w, 3)
}
