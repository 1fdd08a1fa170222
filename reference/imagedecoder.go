// ImageDecoder (20), after the ONNX specification: "Loads and decodes and
// image from a file", encoded_stream a 1-D uint8 tensor holding the file;
// "pixel_format: Pixel format. Can be one of "RGB", "BGR", or
// "Grayscale"" (default RGB); the output is "[H, W, C]", uint8, C = 3, or
// 1 for Grayscale. As the reference evaluator (PIL): RGB drops alpha,
// BGR reverses the channels, Grayscale is PIL's "L" conversion,
// (19595 R + 38470 G + 7471 B + 32768) >> 16. The decoders are Go's
// (image/jpeg, image/png, image/gif, golang.org/x/image/bmp, tiff, webp);
// a YCbCr pixel converts with color.YCbCrToRGB. The header's width x
// height is checked against the run's cap before decoding.

package reference

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

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ImageDecoder", []int{20}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "encoded_stream")
		if err != nil {
			return nil, err
		}
		if x.DataType() != tensor.Uint8 || x.Rank() != 1 {
			return nil, op.errorf("type", "encoded_stream %s", x.Describe())
		}
		format, err := n.Str("pixel_format", "RGB")
		if err != nil {
			return nil, err
		}
		if format != "RGB" && format != "BGR" && format != "Grayscale" {
			return nil, op.errorf("pixel_format", "%q", format)
		}
		channels := 3
		if format == "Grayscale" {
			channels = 1
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(x.Bytes()))
		if err != nil {
			return nil, op.wrap("encoded_stream", err, "header")
		}
		shape := []int{cfg.Height, cfg.Width, channels}
		if err := checkSize(opt, op, tensor.Uint8, shape); err != nil {
			return nil, err
		}
		// What a decoder holds: up to 8 bytes a pixel.
		if float64(cfg.Width)*float64(cfg.Height)*8 > float64(opt.TensorLimit()) {
			return nil, op.errorf("size", "a %dx%d image", cfg.Width, cfg.Height)
		}
		img, _, err := image.Decode(bytes.NewReader(x.Bytes()))
		if err != nil {
			return nil, op.wrap("encoded_stream", err, "decoding")
		}
		b := img.Bounds()
		if b.Dx() != cfg.Width || b.Dy() != cfg.Height {
			return nil, op.errorf("encoded_stream", "decoded %v, header %dx%d", b, cfg.Width, cfg.Height)
		}
		y, err := newTensor(opt, op, tensor.Uint8, shape)
		if err != nil {
			return nil, err
		}
		out := y.Bytes()
		for row := range cfg.Height {
			for col := range cfg.Width {
				var r, g, bl uint8
				switch c := img.At(b.Min.X+col, b.Min.Y+row).(type) {
				case color.YCbCr:
					r, g, bl = color.YCbCrToRGB(c.Y, c.Cb, c.Cr)
				case color.Gray:
					r, g, bl = c.Y, c.Y, c.Y
				default:
					nc := color.NRGBAModel.Convert(c).(color.NRGBA)
					r, g, bl = nc.R, nc.G, nc.B
				}
				p := (row*cfg.Width + col) * channels
				switch format {
				case "RGB":
					out[p], out[p+1], out[p+2] = r, g, bl
				case "BGR":
					out[p], out[p+1], out[p+2] = bl, g, r
				default:
					out[p] = uint8((uint32(r)*19595 + uint32(g)*38470 + uint32(bl)*7471 + 32768) >> 16)
				}
			}
		}
		return values(y), nil
	})
}
