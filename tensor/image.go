package tensor

import (
	"fmt"
	"image"
	"image/color"
	"math"
)

// ImageLayout is the order of a tensor's image axes.
type ImageLayout int

const (
	// NCHW is [batch, channels, height, width], the layout of most
	// PyTorch-exported vision models.
	NCHW ImageLayout = iota
	// NHWC is [batch, height, width, channels], the layout of most
	// TensorFlow-exported ones.
	NHWC
)

// ImageOptions say how FromImage turns an image into a tensor, and ToImage
// a tensor into an image. The zero value is a float32 NCHW tensor of RGB
// values scaled to [0, 1].
type ImageOptions struct {
	Layout ImageLayout
	// DataType is Float (the default, and what the zero value means) or
	// Uint8 (the pixels as they are; Scale, Mean and Std do not apply).
	DataType DataType
	// Gray gives one channel of luma (ITU-R 601, as image/color and PIL
	// compute it) instead of three.
	Gray bool
	// BGR orders the channels blue, green, red, as models trained on
	// OpenCV's images expect.
	BGR bool
	// A float channel value is (pixel*Scale - Mean[c]) / Std[c], c in
	// the tensor's channel order; Scale 0 means 1/255 and a Std of 0
	// means 1. ImageNet models: Mean {0.485, 0.456, 0.406}, Std {0.229,
	// 0.224, 0.225}; Caffe-style ones: Scale 1 and the mean pixel.
	Scale     float32
	Mean, Std [3]float32
}

func (o ImageOptions) channels() int {
	if o.Gray {
		return 1
	}
	return 3
}

func (o ImageOptions) dataType() (DataType, error) {
	switch o.DataType {
	case Undefined, Float:
		return Float, nil
	case Uint8:
		return Uint8, nil
	}
	return 0, fmt.Errorf("%w: image tensors are float or uint8, not %v", ErrType, o.DataType)
}

// affine returns the scale and offset of channel c: value = pixel*a + b.
func (o ImageOptions) affine(c int) (a, b float32) {
	scale := o.Scale
	if scale == 0 {
		scale = 1.0 / 255
	}
	std := o.Std[c]
	if std == 0 {
		std = 1
	}
	return scale / std, -o.Mean[c] / std
}

// FromImage returns img as a tensor of shape [1, C, H, W] (NCHW) or
// [1, H, W, C] (NHWC), C being 3 (RGB or BGR) or 1 (Gray), its values scaled
// as o says. Transparent pixels are taken without their alpha (as
// color.NRGBA holds them). Resize and crop the image beforehand (for
// example with golang.org/x/image/draw) to the size the model expects.
func FromImage(img image.Image, o ImageOptions) (*Tensor, error) {
	if img == nil {
		return nil, fmt.Errorf("FromImage: %w", errNil)
	}
	dt, err := o.dataType()
	if err != nil {
		return nil, err
	}
	r := img.Bounds()
	h, w, ch := r.Dy(), r.Dx(), o.channels()
	shape := []int{1, ch, h, w}
	if o.Layout == NHWC {
		shape = []int{1, h, w, ch}
	} else if o.Layout != NCHW {
		return nil, fmt.Errorf("%w: image layout %d is neither NCHW nor NHWC", ErrShape, o.Layout)
	}
	t, err := New(dt, shape...)
	if err != nil {
		return nil, err
	}
	// Where channel c of pixel (x, y) goes, and its scaling.
	pixel, channel := ch, 1 // NHWC
	if o.Layout == NCHW {
		pixel, channel = 1, h*w
	}
	var a, b [3]float32
	for c := range ch {
		a[c], b[c] = o.affine(c)
	}
	var f32 []float32
	var u8 []uint8
	if dt == Float {
		f32, _ = Data[float32](t)
	} else {
		u8 = t.data
	}
	var rgb [3]uint8
	for y := range h {
		for x := range w {
			if o.Gray {
				rgb[0] = color.GrayModel.Convert(img.At(r.Min.X+x, r.Min.Y+y)).(color.Gray).Y
			} else {
				rgb = pixelRGB(img, r.Min.X+x, r.Min.Y+y)
				if o.BGR {
					rgb[0], rgb[2] = rgb[2], rgb[0]
				}
			}
			at := (y*w + x) * pixel
			for c := range ch {
				if u8 != nil {
					u8[at+c*channel] = rgb[c]
				} else {
					f32[at+c*channel] = float32(rgb[c])*a[c] + b[c]
				}
			}
		}
	}
	return t, nil
}

// pixelRGB is the colour of img at (x, y), without alpha, 8 bits a channel;
// the common decoded forms are read directly.
func pixelRGB(img image.Image, x, y int) [3]uint8 {
	switch m := img.(type) {
	case *image.YCbCr:
		yi, ci := m.YOffset(x, y), m.COffset(x, y)
		r, g, b := color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
		return [3]uint8{r, g, b}
	case *image.NRGBA:
		i := m.PixOffset(x, y)
		return [3]uint8{m.Pix[i], m.Pix[i+1], m.Pix[i+2]}
	case *image.Gray:
		v := m.Pix[m.PixOffset(x, y)]
		return [3]uint8{v, v, v}
	}
	c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
	return [3]uint8{c.R, c.G, c.B}
}

// ToImage returns the image a tensor holds, the inverse of FromImage with
// the same options: shape [1, C, H, W] or [C, H, W] (NCHW), [1, H, W, C] or
// [H, W, C] (NHWC), C as o says; float values are unscaled, rounded and
// clamped to [0, 255]. The result is an *image.Gray (Gray) or *image.NRGBA
// (opaque).
func ToImage(t *Tensor, o ImageOptions) (image.Image, error) {
	if t == nil {
		return nil, fmt.Errorf("ToImage: %w", errNil)
	}
	dt, err := o.dataType()
	if err != nil {
		return nil, err
	}
	if t.DataType() != dt {
		return nil, fmt.Errorf("%w: ToImage of a %v tensor with options for %v", ErrType, t.DataType(), dt)
	}
	s := t.Shape()
	if len(s) == 4 && s[0] == 1 {
		s = s[1:]
	}
	ch := o.channels()
	var h, w, pixel, channel int
	switch {
	case len(s) == 3 && o.Layout == NCHW && s[0] == ch:
		h, w = s[1], s[2]
		pixel, channel = 1, h*w
	case len(s) == 3 && o.Layout == NHWC && s[2] == ch:
		h, w = s[0], s[1]
		pixel, channel = ch, 1
	default:
		return nil, fmt.Errorf("%w: ToImage of shape %v: want [1,]%d,H,W (NCHW) or [1,]H,W,%d (NHWC) as the options say", ErrShape, t.Shape(), ch, ch)
	}
	var a, b [3]float32
	for c := range ch {
		a[c], b[c] = o.affine(c)
	}
	var f32 []float32
	if dt == Float {
		f32, _ = Data[float32](t)
	}
	value := func(i, c int) uint8 {
		if f32 == nil {
			return t.data[i]
		}
		v := math.Round(float64((f32[i] - b[c]) / a[c]))
		if v != v {
			return 0
		}
		return uint8(max(0, min(255, v)))
	}
	rect := image.Rect(0, 0, w, h)
	if o.Gray {
		img := image.NewGray(rect)
		for i := range h * w {
			img.Pix[i] = value(i*pixel, 0)
		}
		return img, nil
	}
	img := image.NewNRGBA(rect)
	for i := range h * w {
		var rgb [3]uint8
		for c := range 3 {
			rgb[c] = value(i*pixel+c*channel, c)
		}
		if o.BGR {
			rgb[0], rgb[2] = rgb[2], rgb[0]
		}
		copy(img.Pix[4*i:], rgb[:])
		img.Pix[4*i+3] = 255
	}
	return img, nil
}
