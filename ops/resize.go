// Resize resamples a tensor along any of its axes: each output element is a
// weighted sum of the input elements around the point it maps back to.
//
// Versions: 10 takes X and scales, and mode nearest or linear, with the
// coordinates of Upsample (asymmetric; nearest takes the floor when
// upsampling and the ceiling when downsampling, as onnxruntime does for
// the versions before nearest_mode). 11 adds roi, sizes, cubic mode and
// the attributes coordinate_transformation_mode, nearest_mode,
// cubic_coeff_a, exclude_outside and extrapolation_value;
// tf_half_pixel_for_nn exists in 11 only. 13 makes roi and scales optional.
// 18 adds the attributes axes, antialias and keep_aspect_ratio_policy; 19
// adds coordinate_transformation_mode half_pixel_symmetric.
//
// The arithmetic is that of the ONNX reference implementation
// (onnx/reference/ops/op_resize.py): the coordinate of an output index uses
// the unrounded output length scale*length (as do align_corners and
// tf_crop_and_resize there, and the node tests; onnxruntime rounds it first),
// taps outside the input read the edge element, antialias stretches the
// linear and cubic filters by 1/scale when downsampling and normalises
// their weights, exclude_outside drops the weights of outside taps and
// normalises the rest; antialias with nearest is refused (as the reference
// and onnxruntime do). Where the reference and the specification text
// disagree, onnxshape follows the text, as onnxruntime does: an output of
// length 1 maps to coordinate 0 for pytorch_half_pixel (the reference uses
// -0.5) and to the middle of the region for tf_crop_and_resize (the
// reference tests the unrounded length against 1). The output length from
// scales is floor(length*scale) in float32, as ONNX's shape inference and
// onnxruntime compute it (the reference's float64 gives 6 for 10 x 0.7f
// where they give 7), without the roi factor the text writes (no
// implementation applies it).
//
// Nearest mode only moves data, so it serves every element type. Linear and
// cubic compute in float32 for float, float16 and bfloat16 and in float64
// for double and the integer types; the result is rounded once to the
// output type, integers half to even and saturated to their range (the
// reference casts, which truncates and wraps).
//
// The constraints, in the order of the specification:
//
//	[axes]    each in [-r, r-1], none repeated (18+)
//	[roi]     2*N values (N = rank, or len(axes)), needed by tf_crop_and_resize
//	[scales]  N values, each > 0 and finite
//	[sizes]   N values, each >= 0; exactly one of scales and sizes is given
//	[mode], [coordinate_transformation_mode], [nearest_mode],
//	[keep_aspect_ratio_policy]: one of the values the version defines
//
// Under the SONNX profile every attribute that matters for the chosen mode
// must be given explicitly (GR4).

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Resize", []int{10}, [2]int{2, 2}, [2]int{1, 1}, resizeNode)
	register("Resize", []int{11}, [2]int{3, 4}, [2]int{1, 1}, resizeNode)
	register("Resize", []int{13, 18, 19}, [2]int{1, 4}, [2]int{1, 1}, resizeNode)
}

// The interpolation modes of Resize, for ResizeOptions.Mode.
const (
	Nearest = "nearest"
	Linear  = "linear"
	Cubic   = "cubic"
)

// ResizeOptions are the parameters of Resize. The zero value is ONNX's
// default for every attribute; exactly one of Scales and Sizes must be set.
type ResizeOptions struct {
	// Mode is "nearest" (the default when empty), "linear" or "cubic".
	Mode string
	// CoordinateTransformationMode is "half_pixel" (the default when
	// empty), "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
	// "asymmetric" or "tf_crop_and_resize".
	CoordinateTransformationMode string
	// NearestMode is "round_prefer_floor" (the default when empty),
	// "round_prefer_ceil", "floor" or "ceil".
	NearestMode string
	// CubicCoeffA is the cubic kernel's a; nil means -0.75.
	CubicCoeffA *float32
	// ExcludeOutside drops the taps outside the input and renormalises.
	ExcludeOutside bool
	// ExtrapolationValue is the value of the output elements that
	// tf_crop_and_resize maps outside the input.
	ExtrapolationValue float32
	// Antialias widens the linear and cubic filters when downsampling.
	Antialias bool
	// Axes are the axes Roi, Scales and Sizes refer to; nil means all.
	Axes []int
	// KeepAspectRatioPolicy is "stretch" (the default when empty),
	// "not_larger" or "not_smaller"; it applies to Sizes.
	KeepAspectRatioPolicy string
	// Roi is [start1, ..., startN, end1, ..., endN] for tf_crop_and_resize.
	Roi []float64
	// Scales are the factors, one per axis; Sizes the output lengths.
	Scales []float32
	Sizes  []int
}

// Resize returns x resampled as o says (ONNX Resize, version 19).
func Resize(x *tensor.Tensor, o ResizeOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Resize", 19}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	p := resizeParams{
		mode:          orString(o.Mode, "nearest"),
		coord:         orString(o.CoordinateTransformationMode, "half_pixel"),
		nearest:       orString(o.NearestMode, "round_prefer_floor"),
		cubicA:        -0.75,
		exclude:       o.ExcludeOutside,
		extrapolation: float64(o.ExtrapolationValue),
		antialias:     o.Antialias,
		axes:          o.Axes,
		keepAspect:    orString(o.KeepAspectRatioPolicy, "stretch"),
		roi:           o.Roi,
		sizes:         o.Sizes,
	}
	if o.CubicCoeffA != nil {
		p.cubicA = float64(*o.CubicCoeffA)
	}
	for _, s := range o.Scales {
		p.scales = append(p.scales, float64(s))
	}
	return resize(opt, op, x, p)
}

func orString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// resizeParams are the resolved parameters of one Resize (or Upsample) call.
type resizeParams struct {
	mode          string  // nearest, linear, cubic
	coord         string  // coordinate_transformation_mode
	nearest       string  // nearest_mode, or "legacy" before version 11
	cubicA        float64 // cubic_coeff_a
	exclude       bool    // exclude_outside
	extrapolation float64
	antialias     bool
	axes          []int // nil: every axis
	keepAspect    string
	roi           []float64 // nil when not given
	scales        []float64 // nil when sizes are given
	sizes         []int
}

func resizeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	p, err := resizeNodeParams(opt, n, in)
	if err != nil {
		return nil, err
	}
	y, err := resize(opt, op, x, p)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// resizeNodeParams reads the attributes and the roi, scales and sizes inputs
// of a Resize node.
func resizeNodeParams(opt *Options, n *Node, in []tensor.Value) (resizeParams, error) {
	op := n.op()
	var p resizeParams
	var err error
	if opt.orDefault().Profile == ProfileSONNX {
		if err := resizeExplicit(n, in); err != nil {
			return p, err
		}
	}
	if p.mode, err = n.Str("mode", "nearest"); err != nil {
		return p, err
	}
	// roi, scales and sizes hold at most two values per axis of X: longer
	// lists are refused before they are converted (a hostile float16 roi
	// would take four times its bytes as float64).
	rank := 0
	if x, _ := n.tensorInput(in, 0); x != nil {
		rank = x.Rank()
	}
	tooLong := func(t *tensor.Tensor, name string, most int) error {
		if t != nil && t.Len() > most {
			return op.errorf(name, "%s has %d values; X of rank %d takes at most %d", name, t.Len(), rank, most)
		}
		return nil
	}
	if n.Version == 10 {
		p.coord, p.nearest, p.keepAspect = "asymmetric", "legacy", "stretch"
		scales, err := n.requiredInput(in, 1, "scales")
		if err != nil {
			return p, err
		}
		if err := tooLong(scales, "scales", rank); err != nil {
			return p, err
		}
		p.scales, err = resizeScalesInput(op, scales)
		return p, err
	}
	if p.coord, err = n.Str("coordinate_transformation_mode", "half_pixel"); err != nil {
		return p, err
	}
	if p.nearest, err = n.Str("nearest_mode", "round_prefer_floor"); err != nil {
		return p, err
	}
	a, err := n.Float("cubic_coeff_a", -0.75)
	if err != nil {
		return p, err
	}
	p.cubicA = float64(a)
	ex, err := n.Int("exclude_outside", 0)
	if err != nil {
		return p, err
	}
	p.exclude = ex != 0
	e, err := n.Float("extrapolation_value", 0)
	if err != nil {
		return p, err
	}
	p.extrapolation = float64(e)
	p.keepAspect = "stretch"
	if n.Version >= 18 {
		aa, err := n.Int("antialias", 0)
		if err != nil {
			return p, err
		}
		p.antialias = aa != 0
		if p.axes, _, err = n.intsAttr("axes", "axes"); err != nil {
			return p, err
		}
		if p.keepAspect, err = n.Str("keep_aspect_ratio_policy", "stretch"); err != nil {
			return p, err
		}
	}
	roi, err := n.tensorInput(in, 1)
	if err != nil {
		return p, err
	}
	if err := tooLong(roi, "roi", 2*rank); err != nil {
		return p, err
	}
	if roi != nil && roi.Len() > 0 {
		if !roi.DataType().IsFloat() || roi.Rank() != 1 {
			return p, op.errorf("roi", "roi must be a 1-D float tensor, got %s", roi.Describe())
		}
		if p.roi, err = roi.Float64s(); err != nil {
			return p, op.wrap("roi", err, "roi")
		}
	}
	scales, err := n.tensorInput(in, 2)
	if err != nil {
		return p, err
	}
	if n.Version == 11 && scales == nil {
		return p, op.errorf("input", "required input scales (#2) is missing (give an empty tensor to use sizes)")
	}
	if err := tooLong(scales, "scales", rank); err != nil {
		return p, err
	}
	if scales != nil && scales.Len() > 0 {
		if p.scales, err = resizeScalesInput(op, scales); err != nil {
			return p, err
		}
	}
	sizes, err := n.tensorInput(in, 3)
	if err != nil {
		return p, err
	}
	if err := tooLong(sizes, "sizes", rank); err != nil {
		return p, err
	}
	if sizes != nil && sizes.Len() > 0 {
		s64, err := int64sOf(sizes)
		if err != nil || sizes.Rank() != 1 {
			return p, op.errorf("sizes", "sizes must be a 1-D int64 tensor, got %s", sizes.Describe())
		}
		if p.sizes, err = toInts(s64); err != nil {
			return p, op.errorf("sizes", "%v", err)
		}
	}
	return p, nil
}

// resizeExplicit checks GR4 for a Resize node: the attributes that matter for
// its mode must be given.
func resizeExplicit(n *Node, in []tensor.Value) error {
	mode, _ := n.Str("mode", "nearest")
	coord, _ := n.Str("coordinate_transformation_mode", "half_pixel")
	need := []string{"mode"}
	if n.Version >= 11 {
		need = append(need, "coordinate_transformation_mode")
		switch mode {
		case "nearest":
			need = append(need, "nearest_mode")
		case "cubic":
			need = append(need, "cubic_coeff_a", "exclude_outside")
		}
		if coord == "tf_crop_and_resize" {
			need = append(need, "extrapolation_value")
		}
	}
	if n.Version >= 18 {
		if mode != "nearest" {
			need = append(need, "antialias")
		}
		if len(in) > 3 && in[3] != nil {
			need = append(need, "keep_aspect_ratio_policy")
		}
	}
	for _, a := range need {
		if !n.Has(a) {
			return n.op().errorf("GR4", "attribute %s must be given explicitly in the profile", a)
		}
	}
	return nil
}

// resizeScalesInput reads a scales tensor (float).
func resizeScalesInput(op opRef, t *tensor.Tensor) ([]float64, error) {
	if !t.DataType().IsFloat() || t.Rank() != 1 {
		return nil, op.errorf("scales", "scales must be a 1-D float tensor, got %s", t.Describe())
	}
	s, err := t.Float64s()
	if err != nil {
		return nil, op.wrap("scales", err, "scales")
	}
	return s, nil
}

// resizeGeometry is what the parameters make of each axis of one input.
type resizeGeometry struct {
	out   []int     // output shape
	scale []float64 // per axis: output length / input length as the coordinates use it
	width []float64 // per axis: the unrounded output length (scale * input length)
	roi   [][2]float64
	sized bool // the lengths came from sizes
}

// resizeCheck validates p for an input of shape in and returns the geometry
// of every axis: the output shape and the scales the coordinates use. It
// runs no kernel: shape inference and the profile checker call it too.
func resizeCheck(op opRef, in []int, p resizeParams) (resizeGeometry, error) {
	r := len(in)
	var g resizeGeometry
	switch p.mode {
	case "nearest":
		if p.antialias {
			return g, op.errorf("antialias", "antialias applies to modes linear and cubic, not nearest")
		}
	case "linear":
	case "cubic":
		if op.version < 11 {
			return g, op.errorf("mode", "mode cubic needs version 11 or later")
		}
	default:
		return g, op.errorf("mode", "unknown mode %q (want nearest, linear or cubic)", p.mode)
	}
	switch p.coord {
	case "half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize":
	case "half_pixel_symmetric":
		if op.version < 19 {
			return g, op.errorf("coordinate_transformation_mode", "half_pixel_symmetric needs version 19 or later")
		}
	case "tf_half_pixel_for_nn":
		if op.version != 11 {
			return g, op.errorf("coordinate_transformation_mode", "tf_half_pixel_for_nn exists in version 11 only")
		}
	default:
		return g, op.errorf("coordinate_transformation_mode", "unknown coordinate_transformation_mode %q (want half_pixel, half_pixel_symmetric, pytorch_half_pixel, align_corners, asymmetric or tf_crop_and_resize)", p.coord)
	}
	switch p.nearest {
	case "round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "legacy":
	default:
		return g, op.errorf("nearest_mode", "unknown nearest_mode %q (want round_prefer_floor, round_prefer_ceil, floor or ceil)", p.nearest)
	}
	switch p.keepAspect {
	case "stretch", "not_larger", "not_smaller":
	default:
		return g, op.errorf("keep_aspect_ratio_policy", "unknown keep_aspect_ratio_policy %q (want stretch, not_larger or not_smaller)", p.keepAspect)
	}

	// axes: the resized axes, in the order roi, scales and sizes list them.
	axes := make([]int, 0, r)
	if p.axes == nil {
		for k := range r {
			axes = append(axes, k)
		}
	} else {
		norm, err := normalizeAxes(op, p.axes, r, axisRules{rangeRule: "axes", repeatRule: "axes", rankOf: "input"})
		if err != nil {
			return g, err
		}
		axes = norm
	}
	na := len(axes)
	g.roi = make([][2]float64, r)
	for k := range g.roi {
		g.roi[k] = [2]float64{0, 1}
	}
	if p.coord == "tf_crop_and_resize" {
		if len(p.roi) != 2*na {
			return g, op.errorf("roi", "tf_crop_and_resize needs roi of 2*%d values, got %d", na, len(p.roi))
		}
		for i, k := range axes {
			g.roi[k] = [2]float64{p.roi[i], p.roi[na+i]}
		}
	}

	g.out = append([]int{}, in...)
	g.scale = make([]float64, r)
	g.width = make([]float64, r)
	for k := range r {
		g.scale[k], g.width[k] = 1, float64(in[k])
	}
	switch {
	case p.scales != nil && p.sizes != nil:
		return g, op.errorf("scales", "give scales or sizes, not both")
	case p.scales != nil:
		if len(p.scales) != na {
			return g, op.errorf("scales", "scales has %d values, expected %d", len(p.scales), na)
		}
		for i, k := range axes {
			s := p.scales[i]
			if !(s > 0) || math.IsInf(s, 0) {
				return g, op.errorf("scales", "scale %v of axis %d is not a positive number", s, k)
			}
			w := float64(in[k]) * s
			if w >= 1<<53 {
				return g, op.errorf("scales", "axis %d of length %d scaled by %v is too long", k, in[k], s)
			}
			// The length is floor(length*scale) in float32, as ONNX's shape
			// inference and onnxruntime compute it (the reference computes
			// in float64: 10 x 0.7f gives 7 here and 6 there).
			g.scale[k], g.width[k], g.out[k] = s, w, int(math.Floor(float64(float32(in[k])*float32(s))))
		}
	case p.sizes != nil:
		if len(p.sizes) != na {
			return g, op.errorf("sizes", "sizes has %d values, expected %d", len(p.sizes), na)
		}
		g.sized = true
		for i, k := range axes {
			if p.sizes[i] < 0 {
				return g, op.errorf("sizes", "size %d of axis %d is negative", p.sizes[i], k)
			}
			if in[k] == 0 && p.sizes[i] != 0 {
				return g, op.errorf("sizes", "axis %d is empty and cannot be resized to %d", k, p.sizes[i])
			}
		}
		if p.keepAspect == "stretch" {
			for i, k := range axes {
				g.out[k] = p.sizes[i]
				g.width[k] = float64(p.sizes[i])
				if in[k] > 0 {
					g.scale[k] = float64(p.sizes[i]) / float64(in[k])
				}
			}
			break
		}
		scale := math.NaN()
		for i, k := range axes {
			if in[k] == 0 {
				continue
			}
			s := float64(p.sizes[i]) / float64(in[k])
			if scale != scale || (p.keepAspect == "not_larger" && s < scale) || (p.keepAspect == "not_smaller" && s > scale) {
				scale = s
			}
		}
		if scale != scale {
			scale = 1
		}
		g.sized = false // the lengths are rounded from the common scale
		for _, k := range axes {
			w := scale * float64(in[k])
			if w >= 1<<53 {
				return g, op.errorf("sizes", "axis %d would be too long", k)
			}
			g.scale[k], g.width[k], g.out[k] = scale, w, int(w+0.5)
		}
	default:
		return g, op.errorf("scales", "give scales or sizes: neither is given")
	}
	return g, nil
}

// resizeShape returns the output shape of Resize for an input of shape in.
func resizeShape(op opRef, in []int, p resizeParams) ([]int, error) {
	g, err := resizeCheck(op, in, p)
	return g.out, err
}

func resize(opt *Options, op opRef, x *tensor.Tensor, p resizeParams) (*tensor.Tensor, error) {
	if err := checkInput(op, "X", x); err != nil {
		return nil, err
	}
	if err := opt.positiveDims(op, "input X", x.Shape()); err != nil {
		return nil, err
	}
	g, err := resizeCheck(op, x.Shape(), p)
	if err != nil {
		return nil, err
	}
	o := opt.orDefault()
	if err := o.positiveDims(op, "output", g.out); err != nil {
		return nil, err
	}
	if n, _ := tensor.NumElements(g.out); n == 0 {
		return o.newTensor(op, x.DataType(), g.out)
	}
	if err := o.checkSize(op, x.DataType(), g.out); err != nil {
		return nil, err
	}
	in := x.Shape()
	plans := make([]*resizeAxis, len(in))
	for k := range in {
		if plans[k], err = planResizeAxis(o, op, p, g, k, in[k]); err != nil {
			return nil, err
		}
	}
	if p.mode == "nearest" {
		return resizeNearest(o, op, x, p, g.out, plans)
	}
	return resizeInterpolate(o, op, x, p, g.out, plans)
}
