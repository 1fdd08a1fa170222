// ImageDecoder decodes encoded_stream, the bytes of one image file, into
// a uint8 tensor [H, W, 3] of RGB (the default) or BGR pixels, or [H, W,
// 1] for pixel_format Grayscale (PIL's "L" conversion of the RGB pixels,
// (19595 R + 38470 G + 7471 B + 2^15) >> 16, which the reference
// evaluator uses). Alpha is dropped (PIL's convert("RGB")).
//
// Version 20. The decoders are the Go ecosystem's: image/jpeg, image/png,
// image/gif and golang.org/x/image's bmp, tiff and webp; JPEG 2000 and
// PNM have none and are refused. Go's JPEG decoder upsamples chroma and
// rounds its inverse DCT differently from libjpeg, which the node tests'
// expected outputs (PIL) come from: see the manifest.
//
// The rules: [type] encoded_stream a 1-D uint8 tensor; [pixel_format]
// RGB, BGR or Grayscale; [encoded_stream] a format a decoder knows,
// decoding without error; [size] the header's width x height, charged
// (the decoder's own pixels at 8 bytes a pixel and the output) before any
// pixel is decoded.

package ops

import (
	"bytes"
	"image"
	"image/color"
	_ "image/gif"  // registers GIF
	_ "image/jpeg" // registers JPEG
	_ "image/png"  // registers PNG

	_ "golang.org/x/image/bmp"  // registers BMP
	_ "golang.org/x/image/tiff" // registers TIFF
	_ "golang.org/x/image/webp" // registers WebP

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ImageDecoder", []int{20}, [2]int{1, 1}, [2]int{1, 1}, imageDecoderNode)
	declareAttrs("ImageDecoder", AttrSpec{Name: "pixel_format", Type: AttrString})
}

// imageDecoderBytesPerPixel bounds what a decoder holds for one pixel
// (16-bit RGBA, the widest Go image) while decoding.
const imageDecoderBytesPerPixel = 8

func imageDecoderNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	opt = opt.orDefault()
	x, err := n.requiredInput(in, 0, "encoded_stream")
	if err != nil {
		return nil, err
	}
	if x.DataType() != tensor.Uint8 || x.Rank() != 1 {
		return nil, op.errorf("type", "encoded_stream is %s, expected a 1-D uint8 tensor", x.Describe())
	}
	format, err := n.Str("pixel_format", "RGB")
	if err != nil {
		return nil, err
	}
	channels := 3
	switch format {
	case "RGB", "BGR":
	case "Grayscale":
		channels = 1
	default:
		return nil, op.errorf("pixel_format", "pixel_format %q is not RGB, BGR or Grayscale", format)
	}
	cfg, kind, err := image.DecodeConfig(bytes.NewReader(x.Bytes()))
	if err != nil {
		return nil, op.wrap("encoded_stream", err, "the image's header")
	}
	shape := []int{cfg.Height, cfg.Width, channels}
	if err := opt.checkSize(op, tensor.Uint8, shape); err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "the decoder's "+kind+" pixels", mulCounts(cfg.Width, cfg.Height), imageDecoderBytesPerPixel); err != nil {
		return nil, err
	}
	if err := opt.cancelled(); err != nil {
		return nil, op.stopped(err)
	}
	img, _, err := image.Decode(bytes.NewReader(x.Bytes()))
	if err != nil {
		return nil, op.wrap("encoded_stream", err, "decoding the %s image", kind)
	}
	b := img.Bounds()
	if b.Dx() != cfg.Width || b.Dy() != cfg.Height {
		return nil, op.errorf("encoded_stream", "the %s image decodes to %dx%d, its header says %dx%d", kind, b.Dx(), b.Dy(), cfg.Width, cfg.Height)
	}
	y, err := opt.newOverwritten(op, tensor.Uint8, shape)
	if err != nil {
		return nil, err
	}
	out := y.Bytes()
	err = parallelRange(opt, cfg.Height, cfg.Width*4, func(lo, hi int) error {
		for row := lo; row < hi; row++ {
			o := out[row*cfg.Width*channels:]
			for col := range cfg.Width {
				r, g, bl := imagePixel(img, b.Min.X+col, b.Min.Y+row)
				switch format {
				case "RGB":
					o[3*col], o[3*col+1], o[3*col+2] = r, g, bl
				case "BGR":
					o[3*col], o[3*col+1], o[3*col+2] = bl, g, r
				default:
					o[col] = grayOf(r, g, bl)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, op.stopped(err)
	}
	return values(y), nil
}

// imagePixel returns the 8-bit RGB of img at (x, y), alpha dropped.
func imagePixel(img image.Image, x, y int) (r, g, b uint8) {
	switch m := img.(type) {
	case *image.YCbCr:
		c := m.YCbCrAt(x, y)
		return color.YCbCrToRGB(c.Y, c.Cb, c.Cr)
	case *image.Gray:
		v := m.GrayAt(x, y).Y
		return v, v, v
	}
	c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
	return c.R, c.G, c.B
}

// grayOf is PIL's RGB to "L": ITU-R 601-2 luma in 16-bit fixed point.
func grayOf(r, g, b uint8) uint8 {
	return uint8((uint32(r)*19595 + uint32(g)*38470 + uint32(b)*7471 + 0x8000) >> 16)
}
