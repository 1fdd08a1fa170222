package reference_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"math/rand/v2"

	"golang.org/x/image/bmp"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Random nodes of the geometry and signal operators through both engines
// (TestEnginesAgreeOnRandomValidNodes): GridSample and AffineGrid agree bit
// for bit (both compute in float64 in the same order and round once).

func init() {
	generators["GridSample"] = randGridSample
	generators["DFT"] = randDFT
	generators["STFT"] = randSTFT
	generators["ImageDecoder"] = randImageDecoder
	generators["RoiAlign"] = randRoiAlign
	generators["AffineGrid"] = randAffineGrid
	generators["MelWeightMatrix"] = randMelWeightMatrix
}

// randGridSample draws a GridSample of any version: 1 to 3 spatial axes
// (2 under version 16), every mode and padding, grid points mostly inside
// [-1.3, 1.3] and now and then far outside, X of a float or integer type.
func randGridSample(r *rand.Rand) (*ops.Node, []tensor.Value) {
	v := pickVersion(r, "GridSample")
	spatial := 2
	if v >= 20 {
		spatial = 1 + r.IntN(3)
	}
	types := []tensor.DataType{tensor.Float, tensor.Float, tensor.Double, tensor.Float16, tensor.Int32, tensor.Uint8}
	if v >= 22 {
		types = []tensor.DataType{tensor.Float, tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}
	}
	xs := append([]int{1 + r.IntN(2), 1 + r.IntN(3)}, randShape(r, spatial, 4)...)
	for i := 2; i < len(xs); i++ {
		xs[i] = max(xs[i], 1)
	}
	gs := append([]int{xs[0]}, randShape(r, spatial, 4)...)
	gs = append(gs, spatial)
	lo, hi := -1.3, 1.3
	if r.IntN(4) == 0 {
		lo, hi = -7, 7
	}
	gdt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16}[r.IntN(3)]
	x := randTensor(r, types[r.IntN(len(types))], xs, -9, 9, r.IntN(8) == 0)
	g := randTensor(r, gdt, gs, lo, hi, r.IntN(10) == 0)
	n := &ops.Node{OpType: "GridSample", Version: v, Attrs: map[string]ops.Attribute{}}
	modes := []string{"nearest", "linear", "cubic"}
	if v < 20 {
		modes = []string{"nearest", "bilinear", "bicubic"}
	}
	if r.IntN(5) > 0 {
		n.Attrs["mode"] = attrStr(modes[r.IntN(3)])
	}
	if r.IntN(5) > 0 {
		n.Attrs["padding_mode"] = attrStr([]string{"zeros", "border", "reflection"}[r.IntN(3)])
	}
	if r.IntN(2) == 0 {
		n.Attrs["align_corners"] = attrInt(r.IntN(2))
	}
	return n, []tensor.Value{x, g}
}

// randDFT draws a DFT of either version: real or complex signals of 1 to 3
// axes, any valid axis (now and then an invalid one), dft_length shorter
// or longer than the signal, powers of two and others, onesided and
// inverse in every combination.
func randDFT(r *rand.Rand) (*ops.Node, []tensor.Value) {
	v := pickVersion(r, "DFT")
	rank := 2 + r.IntN(3)
	xs := randShape(r, rank-1, 9)
	for i := range xs {
		xs[i] = max(xs[i], 1)
	}
	xs = append(xs, 1+r.IntN(2))
	dt := []tensor.DataType{tensor.Float, tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}[r.IntN(5)]
	x := randTensor(r, dt, xs, -4, 4, false)
	n := &ops.Node{OpType: "DFT", Version: v, Attrs: map[string]ops.Attribute{}}
	axis := r.IntN(rank-1) - r.IntN(2)*(rank-1)
	if axis < 0 {
		axis-- // [-r, -2]
	}
	if r.IntN(15) == 0 {
		axis = rank - 1 // invalid: the complex axis
	}
	in := []tensor.Value{x, nil, nil}
	if r.IntN(3) == 0 {
		in[1] = randTensor(r, tensor.Int64, nil, 1, 20, false)
	}
	if v >= 20 {
		if r.IntN(4) > 0 {
			in[2] = randTensor(r, tensor.Int64, nil, float64(axis), float64(axis), false)
		} else {
			axis = -2
		}
	} else {
		n.Attrs["axis"] = attrInt(axis)
	}
	if r.IntN(2) == 0 {
		n.Attrs["inverse"] = attrInt(1)
	}
	if r.IntN(2) == 0 {
		n.Attrs["onesided"] = attrInt(1)
	}
	return n, in
}

// randSTFT draws an STFT: real or complex signals, frame_length by input,
// by window or both (now and then disagreeing), onesided or not.
func randSTFT(r *rand.Rand) (*ops.Node, []tensor.Value) {
	dt := []tensor.DataType{tensor.Float, tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}[r.IntN(5)]
	length := 1 + r.IntN(40)
	x := randTensor(r, dt, []int{1 + r.IntN(2), length, 1 + r.IntN(2)}, -4, 4, false)
	fl := 1 + r.IntN(length)
	in := []tensor.Value{x, randTensor(r, tensor.Int64, nil, 1, 9, false), nil, nil}
	switch r.IntN(3) {
	case 0:
		in[2] = randTensor(r, dt, []int{fl}, 0, 1, false)
	case 1:
		in[3] = randTensor(r, tensor.Int64, nil, float64(fl), float64(fl), false)
	default:
		in[2] = randTensor(r, dt, []int{fl}, 0, 1, false)
		in[3] = randTensor(r, tensor.Int64, nil, float64(fl+r.IntN(2)), float64(fl), false)
	}
	n := &ops.Node{OpType: "STFT", Version: 17, Attrs: map[string]ops.Attribute{}}
	if r.IntN(2) == 0 {
		n.Attrs["onesided"] = attrInt(r.IntN(2))
	}
	return n, in
}

// randMelWeightMatrix draws a MelWeightMatrix: edges mostly inside [0,
// sample_rate/2], now and then past it, output types float and others.
func randMelWeightMatrix(r *rand.Rand) (*ops.Node, []tensor.Value) {
	rate := 8000 + r.IntN(40000)
	lower := r.Float64() * 1000
	upper := lower + r.Float64()*(float64(rate)/2-lower)
	if r.IntN(10) == 0 {
		upper = float64(rate)
	}
	edt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16}[r.IntN(3)]
	in := []tensor.Value{
		randTensor(r, tensor.Int32, nil, float64(1+r.IntN(12)), 13, false),
		randTensor(r, tensor.Int64, nil, float64(8+r.IntN(120)), 128, false),
		randTensor(r, tensor.Int64, nil, float64(rate), float64(rate), false),
		randTensor(r, edt, nil, lower, lower, false),
		randTensor(r, edt, nil, upper, upper, false),
	}
	n := &ops.Node{OpType: "MelWeightMatrix", Version: 17, Attrs: map[string]ops.Attribute{}}
	if r.IntN(3) == 0 {
		n.Attrs["output_datatype"] = attrInt(int(([]tensor.DataType{tensor.Double, tensor.Float16, tensor.Int32, tensor.Uint8})[r.IntN(4)]))
	}
	return n, in
}

// randAffineGrid draws a 2-D or 3-D AffineGrid, now and then with a theta
// that does not match size.
func randAffineGrid(r *rand.Rand) (*ops.Node, []tensor.Value) {
	spatial := 2 + r.IntN(2)
	size := []int{1 + r.IntN(2), 1 + r.IntN(3)}
	for range spatial {
		size = append(size, r.IntN(6))
	}
	ts := []int{size[0], spatial, spatial + 1}
	if r.IntN(12) == 0 {
		ts[2]--
	}
	dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}[r.IntN(4)]
	n := &ops.Node{OpType: "AffineGrid", Version: 20, Attrs: map[string]ops.Attribute{}}
	if r.IntN(2) == 0 {
		n.Attrs["align_corners"] = attrInt(r.IntN(2))
	}
	return n, []tensor.Value{randTensor(r, dt, ts, -2, 2, r.IntN(10) == 0), ints64(size...)}
}

// randRoiAlign draws a RoiAlign of any version: rois mostly inside the
// image, now and then outside, inverted or huge, both modes and
// coordinate transformations, fixed and adaptive sampling.
func randRoiAlign(r *rand.Rand) (*ops.Node, []tensor.Value) {
	v := pickVersion(r, "RoiAlign")
	types := convFloatTypes(v)
	dt := types[r.IntN(len(types))]
	xs := []int{1 + r.IntN(2), 1 + r.IntN(3), 1 + r.IntN(8), 1 + r.IntN(8)}
	rois := 1 + r.IntN(3)
	rv := randTensor(r, dt, []int{rois, 4}, -2, 10, false)
	if r.IntN(20) == 0 {
		rv = randTensor(r, dt, []int{rois, 4}, -1e4, 1e4, r.IntN(2) == 0)
	}
	bi := make([]int, rois)
	for i := range bi {
		bi[i] = r.IntN(xs[0])
		if r.IntN(30) == 0 {
			bi[i] = xs[0]
		}
	}
	n := &ops.Node{OpType: "RoiAlign", Version: v, Attrs: map[string]ops.Attribute{}}
	n.Attrs["output_height"] = attrInt(1 + r.IntN(4))
	n.Attrs["output_width"] = attrInt(1 + r.IntN(4))
	if r.IntN(2) == 0 {
		n.Attrs["sampling_ratio"] = attrInt(r.IntN(3))
	}
	if r.IntN(2) == 0 {
		n.Attrs["mode"] = attrStr([]string{"avg", "max"}[r.IntN(2)])
	}
	if r.IntN(2) == 0 {
		n.Attrs["spatial_scale"] = ops.Attribute{Type: ops.AttrFloat, Float: float32(0.25 + r.Float64())}
	}
	if v >= 16 && r.IntN(2) == 0 {
		n.Attrs["coordinate_transformation_mode"] = attrStr([]string{"half_pixel", "output_half_pixel"}[r.IntN(2)])
	}
	return n, []tensor.Value{randTensor(r, dt, xs, -9, 9, r.IntN(10) == 0), rv, ints64(bi...)}
}

// randImageDecoder encodes a small random image as PNG (RGBA or gray),
// JPEG (4:2:0 YCbCr) or BMP, now and then truncated, and decodes it in
// each pixel format.
func randImageDecoder(r *rand.Rand) (*ops.Node, []tensor.Value) {
	w, h := 1+r.IntN(9), 1+r.IntN(9)
	var img image.Image
	if r.IntN(3) == 0 {
		g := image.NewGray(image.Rect(0, 0, w, h))
		for i := range g.Pix {
			g.Pix[i] = uint8(r.IntN(256))
		}
		img = g
	} else {
		c := image.NewNRGBA(image.Rect(0, 0, w, h))
		for i := range c.Pix {
			c.Pix[i] = uint8(r.IntN(256))
		}
		img = c
	}
	var buf bytes.Buffer
	switch r.IntN(3) {
	case 0:
		_ = png.Encode(&buf, img)
	case 1:
		_ = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 50 + r.IntN(50)})
	default:
		_ = bmp.Encode(&buf, img)
	}
	data := buf.Bytes()
	if r.IntN(10) == 0 {
		data = data[:r.IntN(len(data))]
	}
	n := &ops.Node{OpType: "ImageDecoder", Version: 20, Attrs: map[string]ops.Attribute{}}
	if r.IntN(4) > 0 {
		n.Attrs["pixel_format"] = attrStr([]string{"RGB", "BGR", "Grayscale"}[r.IntN(3)])
	}
	return n, []tensor.Value{tensor.MustFromSlice(data, len(data))}
}
