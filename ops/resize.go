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
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/ops/internal/resample"
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
	return resize(opt, op, nil, x, p)
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
	y, err := resize(opt, op, n, x, p)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
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

// resize resamples x as p says. n, when not nil, is the node: it keeps the
// geometry and axis plans of its last run (resizeKept), and the next run on
// an input of the same shape with the same parameters takes them, charged
// as if built again.
func resize(opt *Options, op opRef, n *Node, x *tensor.Tensor, p resizeParams) (*tensor.Tensor, error) {
	if err := checkInput(op, "X", x); err != nil {
		return nil, err
	}
	if err := opt.positiveDims(op, "input X", x.Shape()); err != nil {
		return nil, err
	}
	o := opt.orDefault()
	k := n.lastResize()
	if k == nil || !k.fits(x.Shape(), p) {
		g, err := resizeCheck(op, x.Shape(), p)
		if err != nil {
			return nil, err
		}
		k = &resizeKept{xs: slices.Clone(x.Shape()), p: p.clone(), g: g}
	}
	if err := o.positiveDims(op, "output", k.g.out); err != nil {
		return nil, err
	}
	if n, _ := tensor.NumElements(k.g.out); n == 0 {
		return o.newTensor(op, x.DataType(), k.g.out)
	}
	if err := o.checkSize(op, x.DataType(), k.g.out); err != nil {
		return nil, err
	}
	if k.plans == nil {
		in := x.Shape()
		plans := make([]*resizeAxis, len(in))
		for a := range in {
			var err error
			if plans[a], err = planResizeAxis(o, op, p, k.g, a, in[a]); err != nil {
				return nil, err
			}
		}
		k.plans = plans
		if p.mode == "nearest" {
			k.repeat = resizeRepeatPlan(x.Shape(), k.g.out, plans)
		}
		if n != nil {
			n.kept.Store(k)
		}
	} else {
		// The plans are the node's, built at an earlier run; the run is
		// charged for them as if it built them.
		for a := range k.plans {
			if err := chargeResizeAxis(o, op, p, k.g, a); err != nil {
				return nil, err
			}
		}
	}
	if p.mode == "nearest" {
		return resizeNearest(o, op, x, p, k.g.out, k.plans, k.repeat)
	}
	return resizeInterpolate(o, op, x, p, k.g.out, k.plans)
}

// resizeKept is what Resize derives from X's shape and the parameters
// before any work: the geometry, the plan of every axis and, for nearest
// mode when every axis repeats by an integer factor, the copy. A node keeps
// the one of its last run (Node.kept), never modified once stored: a small
// image took longer to plan than to resample.
type resizeKept struct {
	xs     []int
	p      resizeParams
	g      resizeGeometry
	plans  []*resizeAxis
	repeat *movement.Plan // nil: not every axis repeats (or not nearest)
}

// lastResize is the Resize state the node kept, nil for none (or no node).
func (n *Node) lastResize() *resizeKept {
	if n == nil {
		return nil
	}
	k, _ := n.kept.Load().(*resizeKept)
	return k
}

// fits reports whether k was made for an input of shape xs with p.
func (k *resizeKept) fits(xs []int, p resizeParams) bool {
	return tensor.SameShape(k.xs, xs) && k.p.equal(p)
}

// clone returns p with lists of its own.
func (p resizeParams) clone() resizeParams {
	p.axes, p.roi, p.scales, p.sizes = slices.Clone(p.axes), slices.Clone(p.roi), slices.Clone(p.scales), slices.Clone(p.sizes)
	return p
}

// equal reports whether p and q are the same parameters (a NaN never is:
// the run that meets one refuses it).
func (p resizeParams) equal(q resizeParams) bool {
	return p.mode == q.mode && p.coord == q.coord && p.nearest == q.nearest && p.cubicA == q.cubicA &&
		p.exclude == q.exclude && p.extrapolation == q.extrapolation && p.antialias == q.antialias &&
		p.keepAspect == q.keepAspect && (p.axes == nil) == (q.axes == nil) && slices.Equal(p.axes, q.axes) &&
		(p.roi == nil) == (q.roi == nil) && slices.Equal(p.roi, q.roi) &&
		(p.scales == nil) == (q.scales == nil) && slices.Equal(p.scales, q.scales) &&
		(p.sizes == nil) == (q.sizes == nil) && slices.Equal(p.sizes, q.sizes)
}

// resizeNearest moves the elements nearest mode picks: one copyPlan when
// every axis is a repeat by an integer factor (the 2x fast path: a stride-0
// axis per factor), otherwise a tableCopy with one index table per axis.
func resizeNearest(opt *Options, op opRef, x *tensor.Tensor, p resizeParams, outShape []int, plans []*resizeAxis, repeat *movement.Plan) (*tensor.Tensor, error) {
	identity := true
	for _, a := range plans {
		identity = identity && a.Repeat() == 1
	}
	if identity {
		return x.View(outShape...) // nothing moves: a view, as Reshape gives
	}
	// Both paths write every element (the table's extrapolated entries take
	// the fill): the storage need not be cleared first.
	y, err := opt.newOverwritten(op, x.DataType(), outShape)
	if err != nil || y.Len() == 0 {
		return y, err
	}
	if repeat != nil {
		if err := repeat.Run(opt.moves(), y, x); err != nil {
			return nil, op.stopped(err)
		}
		return y, nil
	}
	inStrides := movement.ContiguousStrides(x.Shape())
	entries := 0
	for _, a := range plans {
		entries = addCounts(entries, a.Out)
	}
	if err := opt.scratch(op, "the index tables", entries, 8); err != nil {
		return nil, err
	}
	tc := movement.Table{Tables: make([][]int, len(plans))}
	for k, a := range plans {
		t := make([]int, a.Out)
		for o := range t {
			if a.Extrapolate != nil && a.Extrapolate[o] {
				t[o] = -1
			} else {
				t[o] = a.Index[o] * inStrides[k]
			}
		}
		tc.Tables[k] = t
	}
	var fill *tensor.Tensor
	if tc.HasFill() {
		if fill, err = convert.ScalarOf(x.DataType(), p.extrapolation); err != nil {
			return nil, op.wrap("extrapolation_value", err, "extrapolation_value %v", p.extrapolation)
		}
	}
	if err := tc.Run(opt.moves(), y, x, fill); err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}

// resizeRepeatPlan is the copy of nearest mode when every axis is a repeat
// by an integer factor, nil otherwise: output axis k is [a.in, f] with
// source strides [stride, 0]. The last axis walks its factor outside its
// elements, so that the innermost loop is a whole row rather than f copies
// of one element.
func resizeRepeatPlan(inShape, outShape []int, plans []*resizeAxis) *movement.Plan {
	for _, a := range plans {
		if a.Repeat() <= 0 {
			return nil
		}
	}
	// At most two plan axes per axis: one buffer for the three lists.
	buf := make([]int, 0, 6*len(plans))
	q := movement.Plan{Shape: buf[: 0 : 2*len(plans)], SrcStrides: buf[2*len(plans) : 2*len(plans) : 4*len(plans)],
		DstStrides: buf[4*len(plans) : 4*len(plans) : 6*len(plans)]}
	inStrides := movement.ContiguousStrides(inShape)
	outStrides := movement.ContiguousStrides(outShape)
	last := len(plans) - 1
	for k, a := range plans {
		f := a.Repeat()
		if f > 1 && k == last {
			q.Shape = append(q.Shape, f)
			q.SrcStrides = append(q.SrcStrides, 0)
			q.DstStrides = append(q.DstStrides, outStrides[k])
		}
		q.Shape = append(q.Shape, a.In)
		q.SrcStrides = append(q.SrcStrides, inStrides[k])
		q.DstStrides = append(q.DstStrides, f*outStrides[k])
		if f > 1 && k != last {
			q.Shape = append(q.Shape, f)
			q.SrcStrides = append(q.SrcStrides, 0)
			q.DstStrides = append(q.DstStrides, outStrides[k])
		}
	}
	return &q
}

// resizeInterpolate runs the linear or cubic passes, in float32 for the
// narrow float types and in float64 for double and the integers.
func resizeInterpolate(opt *Options, op opRef, x *tensor.Tensor, p resizeParams, outShape []int, plans []*resizeAxis) (*tensor.Tensor, error) {
	dt := x.DataType()
	if !convert.FloatComputable(dt) {
		return nil, op.errorf("type", "mode %s cannot compute in %v (nearest can)", p.mode, dt)
	}
	switch dt {
	case tensor.Float, tensor.Float16, tensor.BFloat16:
		return interpolatePasses[float32](opt, op, x, p, outShape, plans, true)
	}
	return interpolatePasses[float64](opt, op, x, p, outShape, plans, true)
}

// interpolatePasses resamples x axis after axis, innermost first; with fuse
// the two innermost axes go through the fused kernel of ops/internal/resample.
func interpolatePasses[A convert.Float](opt *Options, op opRef, x *tensor.Tensor, p resizeParams, outShape []int, plans []*resizeAxis, fuse bool) (*tensor.Tensor, error) {
	dt := x.DataType()
	var todo []int // the axes to resample, innermost first
	for k := len(plans) - 1; k >= 0; k-- {
		if !plans[k].Identity() {
			todo = append(todo, k)
		}
	}
	if len(todo) == 0 {
		return x.View(outShape...) // nothing moves: a view, as Reshape gives
	}
	// The input converted to the computing type is checked first: for
	// integers it takes up to eight times the input's bytes.
	var zero A
	computeSize := int(unsafe.Sizeof(zero))
	if !convert.NativeFloat[A](dt) {
		if err := opt.scratch(op, fmt.Sprintf("the input converted to %T", zero), x.Len(), computeSize); err != nil {
			return nil, err
		}
	}
	y, err := opt.newOverwritten(op, dt, outShape)
	if err != nil || y.Len() == 0 {
		return y, err
	}
	src, err := convert.LoadFloatsPolled[A](opt.orDefault().env.Ctx, x)
	if err := opt.cancelled(); err != nil {
		return nil, op.stopped(err)
	}
	if err != nil {
		return nil, op.wrap("type", err, "input")
	}
	var intoY []A // y's own storage, when the last pass can write there
	switch any(zero).(type) {
	case float32:
		if dt == tensor.Float {
			intoY = any(asElems[float32](y.Bytes())).([]A)
		}
	case float64:
		if dt == tensor.Double {
			intoY = any(asElems[float64](y.Bytes())).([]A)
		}
	}
	cur := append([]int{}, x.Shape()...)
	bufType := tensor.Float
	if _, ok := any(zero).(float64); ok {
		bufType = tensor.Double
	}
	// into returns the storage of the next step's output, of shape cur.
	into := func(last bool) ([]A, error) {
		if last && intoY != nil {
			return intoY, nil
		}
		if err := opt.checkSize(op, bufType, cur); err != nil {
			return nil, err
		}
		n, _ := tensor.NumElements(cur)
		if err := opt.charge(op, fmt.Sprintf("an intermediate of shape %v", cur), int64(n)*int64(computeSize)); err != nil {
			return nil, err
		}
		return make([]A, n), nil
	}
	if r := len(cur); fuse && todo[0] >= r-2 {
		// The two innermost axes in one step: H (axis r-2) and W (r-1),
		// either of which may stay.
		if err := opt.cancelled(); err != nil {
			return nil, op.stopped(err)
		}
		var h *resizeAxis
		var w *resizeRowFilter[A]
		planes := 1 // the planes, or the rows when H stays
		for _, d := range cur[:r-1] {
			planes *= d
		}
		for len(todo) > 0 && todo[0] >= r-2 {
			a := plans[todo[0]]
			if todo[0] == r-1 {
				w = newResizeRowFilter[A](a)
			} else {
				h = a
				planes /= a.In
			}
			cur[todo[0]] = a.Out
			todo = todo[1:]
		}
		dst, err := into(len(todo) == 0)
		if err != nil {
			return nil, err
		}
		cores := max(1, min(opt.threads(), planes))
		if err := opt.scratch(op, "the rows of a plane per core", mulCounts(cores, resizePlanesScratch(h, w)), computeSize); err != nil {
			return nil, err
		}
		if err := resizePlanes(opt, dst, src, planes, h, w, A(p.extrapolation)); err != nil {
			return nil, op.stopped(err)
		}
		src = dst
	}
	for i, k := range todo {
		if err := opt.cancelled(); err != nil {
			return nil, op.stopped(err)
		}
		a := plans[k]
		outer, inner := 1, 1
		for _, d := range cur[:k] {
			outer *= d
		}
		for _, d := range cur[k+1:] {
			inner *= d
		}
		cur[k] = a.Out
		dst, err := into(i == len(todo)-1)
		if err != nil {
			return nil, err
		}
		if err := resizePass(opt, dst, src, outer, inner, a, A(p.extrapolation)); err != nil {
			return nil, op.stopped(err)
		}
		src = dst
	}
	if intoY == nil {
		if err := convert.StoreFloatsPolled(opt.orDefault().env.Ctx, y, src); err != nil {
			if cerr := opt.cancelled(); cerr != nil {
				return nil, op.stopped(cerr)
			}
			return nil, op.wrap("type", err, "output")
		}
	}
	return y, nil
}

// The plans and row kernels live in ops/internal/resample; these are the
// names Resize's files call them by.
type resizeAxis = resample.Axis

type resizeRowFilter[A convert.Float] = resample.RowFilter[A]

func newResizeRowFilter[A convert.Float](a *resizeAxis) *resizeRowFilter[A] {
	return resample.NewRowFilter[A](a)
}

func resizePass[A convert.Float](opt *Options, dst, src []A, outer, inner int, a *resizeAxis, extrapolation A) error {
	o := opt.orDefault()
	return resample.Pass(o.env.Ctx, o.threads(), dst, src, outer, inner, a, extrapolation)
}

func resizePlanes[A convert.Float](opt *Options, dst, src []A, planes int, h *resizeAxis, w *resizeRowFilter[A], extrapolation A) error {
	o := opt.orDefault()
	return resample.Planes(o.env.Ctx, o.threads(), dst, src, planes, h, w, extrapolation)
}

func resizePlanesScratch[A convert.Float](h *resizeAxis, w *resizeRowFilter[A]) int {
	return resample.PlanesScratch(h, w)
}

// planResizeAxis computes the plan of axis k, of input length in, through
// ops/internal/resample, after refusing a too-wide antialias filter and
// charging the plan to the run.
func planResizeAxis(opt *Options, op opRef, p resizeParams, g resizeGeometry, k, in int) (*resizeAxis, error) {
	if err := chargeResizeAxis(opt, op, p, g, k); err != nil {
		return nil, err
	}
	return resample.PlanAxis(resizeAxisSpec(p, g, k), in), nil
}

// resizeAxisSpec is what ops/internal/resample plans axis k from.
func resizeAxisSpec(p resizeParams, g resizeGeometry, k int) resample.AxisSpec {
	spec := resample.AxisSpec{
		Mode: p.mode, Coord: p.coord, Nearest: p.nearest, CubicA: p.cubicA,
		Exclude: p.exclude, Antialias: p.antialias,
		Out: g.out[k], Scale: g.scale[k], Width: g.width[k],
	}
	if g.roi != nil {
		spec.ROI = g.roi[k]
	}
	return spec
}

// chargeResizeAxis refuses a too-wide antialias filter on axis k and
// charges the axis's plan to the run (planResizeAxis, or a run that takes
// the plan its node kept).
func chargeResizeAxis(opt *Options, op opRef, p resizeParams, g resizeGeometry, k int) error {
	spec := resizeAxisSpec(p, g, k)
	if spec.Out == 0 {
		return nil
	}
	if p.antialias && 1/min(g.scale[k], 1) > resample.MaxAntialiasStretch {
		return op.errorf("scales", "axis %d: the antialias filter of scale %v is too wide", k, g.scale[k])
	}
	taps, _ := resample.Taps(spec)
	perOut := addCounts(mulCounts(taps, 4), 3)
	// The message names no axis: formatting one at every call cost more
	// than a small Resize's work.
	return opt.scratch(op, "an axis's plan (its outputs' taps)", mulCounts(spec.Out, perOut), 8)
}
