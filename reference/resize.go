// Resize (ONNX Resize 10, 11, 13, 18, 19): each output element is a
// weighted sum of the input elements around the point it maps back to,
// computed as the ONNX reference evaluator computes it
// (onnx/reference/ops/op_resize.py): for output index x, one axis after the
// other from the outermost, the coordinate x_original of the axis, the
// coefficients of its 1-D filter at the fractional part, and the dot product
// of those coefficients with the values (the inner axes already
// interpolated) at the nearest input indices, edge-padded.
//
// 10 takes X and scales, modes nearest and linear, asymmetric coordinates
// and the nearest rule of Upsample (floor when upsampling, ceiling when
// downsampling). 11 adds roi, sizes, cubic and the attributes
// coordinate_transformation_mode, nearest_mode, cubic_coeff_a,
// exclude_outside, extrapolation_value (tf_half_pixel_for_nn in 11 only);
// 13 makes roi and scales optional; 18 adds axes, antialias and
// keep_aspect_ratio_policy; 19 adds half_pixel_symmetric.
//
// Where the reference evaluator and the specification's text disagree, this
// file follows the text, as the fast kernel and onnxruntime do: an output of
// length 1 maps to 0 under pytorch_half_pixel and align_corners and to the
// middle of the region under tf_crop_and_resize; the output length from
// scales is floor(length*scale) in float32, as ONNX's shape inference
// computes it. Linear and cubic compute in float64 and round once to the
// output type (integers half to even, saturated).
//
// The fast kernel computes float, float16 and bfloat16 in float32, so the
// engines agree there within a stated bound, not bit for bit: |fast - ref|
// <= 4 * eps * max|X| (eps 2^-23 for float, 2^-10 for float16, 2^-7 for
// bfloat16), and for the integer types within 1 (a tie rounded to even may
// fall on either side). Nearest only moves elements: exact.
//
// The rules, in the order of the specification:
//
//	[antialias] not with nearest; [mode], [coordinate_transformation_mode],
//	[nearest_mode], [keep_aspect_ratio_policy] values of the version
//	[axes]    each in [-r, r-1], none repeated (18+)
//	[roi]     2*N values (N = rank, or len(axes)) for tf_crop_and_resize
//	[scales]  N values, each > 0 and finite; exactly one of scales, sizes
//	[sizes]   N values, each >= 0
//
// Under SONNX, every attribute that matters for the mode is given (GR4).

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Resize", []int{10, 11, 13, 18, 19}, resize)
}

// resizeParams are the resolved attributes and inputs of one Resize (or
// Upsample) node.
type resizeParams struct {
	mode, coord, nearest string // nearest is "legacy" for Resize-10 and Upsample
	cubicA               float64
	exclude              bool
	extrapolation        float64
	antialias            bool
	axes                 []int // nil: every axis
	keepAspect           string
	roi, scales          []float64 // nil when not given
	sizes                []int
}

func resize(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	p, err := resizeInputs(opt, n, in)
	if err != nil {
		return nil, err
	}
	y, err := resizeTensor(opt, op, x, p)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// resizeInputs reads the attributes and the roi, scales and sizes inputs.
func resizeInputs(opt *ops.Options, n *ops.Node, in []tensor.Value) (resizeParams, error) {
	op := opOf(n)
	p := resizeParams{keepAspect: "stretch"}
	var err error
	if sonnx(opt) {
		if err := resizeExplicit(n, in); err != nil {
			return p, err
		}
	}
	if p.mode, err = n.Str("mode", "nearest"); err != nil {
		return p, err
	}
	// [length] roi holds 2 values per axis of X, scales and sizes one: a
	// longer list is refused before it is read.
	rank := 0
	if x, _ := optionalInput(op, in, 0); x != nil {
		rank = x.Rank()
	}
	tooLong := func(t *tensor.Tensor, name string, most int) error {
		if t != nil && t.Len() > most {
			return op.errorf(name, "%s has %d values; X of rank %d takes at most %d", name, t.Len(), rank, most)
		}
		return nil
	}
	if op.version == 10 {
		p.coord, p.nearest = "asymmetric", "legacy"
		s, err := requiredInput(op, in, 1, "scales")
		if err != nil {
			return p, err
		}
		if err := tooLong(s, "scales", rank); err != nil {
			return p, err
		}
		p.scales, err = scalesInput(op, s)
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
	exclude, err := n.Int("exclude_outside", 0)
	if err != nil {
		return p, err
	}
	p.exclude = exclude != 0
	e, err := n.Float("extrapolation_value", 0)
	if err != nil {
		return p, err
	}
	p.extrapolation = float64(e)
	if op.version >= 18 {
		aa, err := n.Int("antialias", 0)
		if err != nil {
			return p, err
		}
		p.antialias = aa != 0
		if p.axes, _, err = intsAttr(n, "axes", "axes"); err != nil {
			return p, err
		}
		if p.keepAspect, err = n.Str("keep_aspect_ratio_policy", "stretch"); err != nil {
			return p, err
		}
	}
	roi, err := optionalInput(op, in, 1)
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
	scales, err := optionalInput(op, in, 2)
	if err != nil {
		return p, err
	}
	if op.version == 11 && scales == nil {
		return p, op.errorf("input", "required input scales (#2) is missing")
	}
	if err := tooLong(scales, "scales", rank); err != nil {
		return p, err
	}
	if scales != nil && scales.Len() > 0 {
		if p.scales, err = scalesInput(op, scales); err != nil {
			return p, err
		}
	}
	sizes, err := optionalInput(op, in, 3)
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

// resizeExplicit checks GR4: the attributes that matter for the node's mode
// are given.
func resizeExplicit(n *ops.Node, in []tensor.Value) error {
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
			return opOf(n).errorf("GR4", "attribute %s must be given explicitly in the profile", a)
		}
	}
	return nil
}

// scalesInput reads a scales tensor: 1-D, of a float type.
func scalesInput(op opRef, t *tensor.Tensor) ([]float64, error) {
	if !t.DataType().IsFloat() || t.Rank() != 1 {
		return nil, op.errorf("scales", "scales must be a 1-D float tensor, got %s", t.Describe())
	}
	s, err := t.Float64s()
	if err != nil {
		return nil, op.wrap("scales", err, "scales")
	}
	return s, nil
}

// resizeAxes is what the parameters make of each axis: the output length,
// the scale the coordinates use, the unrounded output length and the region
// of interest.
type resizeAxes struct {
	out          []int
	scale, width []float64
	roi          [][2]float64
}

// resizeCheck checks the rules in order and returns the geometry of every
// axis of an input of shape in.
func resizeCheck(op opRef, in []int, p resizeParams) (resizeAxes, error) {
	r := len(in)
	var g resizeAxes
	switch {
	case p.mode == "nearest" && p.antialias:
		return g, op.errorf("antialias", "antialias applies to modes linear and cubic, not nearest")
	case p.mode == "nearest" || p.mode == "linear":
	case p.mode == "cubic" && op.version < 11:
		return g, op.errorf("mode", "mode cubic needs version 11 or later")
	case p.mode == "cubic":
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
	// [axes]: the resized axes, in the order roi, scales and sizes list them.
	axes := make([]int, r)
	for k := range axes {
		axes[k] = k
	}
	if p.axes != nil {
		var err error
		if axes, err = normalizeAxes(op, p.axes, r, false, "axes", "axes", "input"); err != nil {
			return g, err
		}
	}
	na := len(axes)
	g.roi = make([][2]float64, r)
	for k := range g.roi {
		g.roi[k] = [2]float64{0, 1}
	}
	if p.coord == "tf_crop_and_resize" { // [roi]
		if len(p.roi) != 2*na {
			return g, op.errorf("roi", "tf_crop_and_resize needs roi of 2*%d values, got %d", na, len(p.roi))
		}
		for i, k := range axes {
			g.roi[k] = [2]float64{p.roi[i], p.roi[na+i]}
		}
	}
	g.out = append([]int{}, in...)
	g.scale, g.width = make([]float64, r), make([]float64, r)
	for k := range r {
		g.scale[k], g.width[k] = 1, float64(in[k])
	}
	switch {
	case p.scales != nil && p.sizes != nil:
		return g, op.errorf("scales", "give scales or sizes, not both")
	case p.scales != nil: // [scales]
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
			g.scale[k], g.width[k], g.out[k] = s, w, int(math.Floor(float64(float32(in[k])*float32(s))))
		}
	case p.sizes != nil: // [sizes]
		if len(p.sizes) != na {
			return g, op.errorf("sizes", "sizes has %d values, expected %d", len(p.sizes), na)
		}
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
				g.out[k], g.width[k] = p.sizes[i], float64(p.sizes[i])
				if in[k] > 0 {
					g.scale[k] = float64(p.sizes[i]) / float64(in[k])
				}
			}
			break
		}
		// not_larger and not_smaller: one scale for every listed axis, the
		// least (most) of sizes/length; the lengths are rounded from it.
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

// resizeTensor checks p against x and computes the output.
func resizeTensor(opt *ops.Options, op opRef, x *tensor.Tensor, p resizeParams) (*tensor.Tensor, error) {
	if err := positiveDims(opt, op, "input X", x.Shape()); err != nil { // [DIMS]
		return nil, err
	}
	g, err := resizeCheck(op, x.Shape(), p)
	if err != nil {
		return nil, err
	}
	if err := positiveDims(opt, op, "output", g.out); err != nil { // [DIMS]
		return nil, err
	}
	if p.mode != "nearest" && numElements(g.out) > 0 && !storable(x.DataType()) {
		return nil, op.errorf("type", "mode %s cannot compute in %v (nearest can)", p.mode, x.DataType())
	}
	y, err := newTensor(opt, op, x.DataType(), g.out)
	if err != nil || y.Len() == 0 {
		return y, err
	}
	for k, s := range g.scale {
		if p.antialias && 1/min(s, 1) > 1<<24 {
			return nil, op.errorf("scales", "axis %d: the antialias filter of scale %v is too wide", k, s)
		}
	}
	in := x.Shape()
	r := len(in)
	if p.mode == "nearest" {
		var fill *tensor.Tensor // the extrapolation value, made when first needed
		xStrides := stridesOf(in)
		i := make([]int, r)
		forEachIndex(g.out, func(flat int, o []int) {
			if err != nil {
				return
			}
			for k := range o {
				c, outside := resizeCoordinate(p, g, k, o[k], in[k])
				if outside {
					if fill == nil {
						if fill, err = tensor.New(x.DataType(), 1); err == nil {
							err = storeFloat(fill, 0, p.extrapolation)
						}
						if err != nil {
							err = op.wrap("extrapolation_value", err, "extrapolation_value %v", p.extrapolation)
							return
						}
					}
					copyElement(y, flat, fill, 0)
					return
				}
				i[k] = min(max(nearestIndex(p.nearest, c, g.scale[k]), 0), in[k]-1)
			}
			copyElement(y, flat, x, ravel(i, xStrides))
		})
		return y, err
	}
	// The float64 copy of the input and each axis's filter taps are charged
	// before they are made.
	scratch := x.Len()
	taps := make([][]float64, r)
	for k := range taps {
		_, count := filterTaps(p, g.scale[k])
		scratch += count
	}
	if err := chargeScratch(opt, op, "the input as float64 and the filters", scratch, 8); err != nil {
		return nil, err
	}
	for k := range taps {
		_, count := filterTaps(p, g.scale[k])
		taps[k] = make([]float64, count)
	}
	data, err := x.Float64s()
	if err != nil {
		return nil, op.wrap("type", err, "input")
	}
	xStrides := stridesOf(in)
	idx := make([]int, r)
	// interpolate returns the value at output index o of axes k.. given the
	// input indices idx[:k] of the outer axes (_interpolate_nd_with_x).
	var interpolate func(k int, o []int) float64
	interpolate = func(k int, o []int) float64 {
		if k == r {
			return data[ravel(idx, xStrides)]
		}
		c, outside := resizeCoordinate(p, g, k, o[k], in[k])
		if outside {
			return p.extrapolation
		}
		coeffs := taps[k] // axis k's own: the inner axes use theirs
		first := resizeCoefficients(p, c, g.scale[k], in[k], coeffs)
		v := 0.0
		for t, w := range coeffs {
			idx[k] = min(max(first+t, 0), in[k]-1) // the edge-padded input
			v += w * interpolate(k+1, o)
		}
		return v
	}
	var stop error
	forEachIndex(g.out, func(flat int, o []int) {
		if flat%4096 == 0 && stop == nil {
			stop = cancelled(opt, op)
		}
		if err == nil && stop == nil {
			err = storeFloat(y, flat, interpolate(0, o))
		}
	})
	if stop != nil {
		return nil, stop
	}
	if err != nil {
		return nil, op.wrap("type", err, "output")
	}
	return y, nil
}

// resizeCoordinate returns x_original, the input coordinate of output
// index x of axis k (input length in), and whether tf_crop_and_resize maps
// it outside the input.
func resizeCoordinate(p resizeParams, g resizeAxes, k, x, in int) (float64, bool) {
	s, w, out := g.scale[k], g.width[k], g.out[k]
	xf := float64(x)
	switch p.coord {
	case "half_pixel_symmetric":
		adjustment := float64(out) / w
		center := float64(in) / 2
		offset := center * (1 - adjustment)
		return offset + (xf+0.5)/s - 0.5, false
	case "pytorch_half_pixel":
		if out > 1 {
			return (xf+0.5)/s - 0.5, false
		}
		return 0, false
	case "align_corners":
		if out == 1 {
			return 0, false
		}
		return xf * float64(in-1) / (w - 1), false
	case "asymmetric":
		return xf / s, false
	case "tf_half_pixel_for_nn":
		return (xf + 0.5) / s, false
	case "tf_crop_and_resize":
		r0, r1 := g.roi[k][0], g.roi[k][1]
		var c float64
		if out == 1 {
			c = (r1 - r0) * float64(in-1) / 2
		} else {
			c = xf * (r1 - r0) * float64(in-1) / (w - 1)
		}
		c += r0 * float64(in-1)
		return c, c < 0 || c > float64(in-1)
	}
	return (xf+0.5)/s - 0.5, false // half_pixel
}

// nearestIndex rounds coordinate c to an input index as nearest_mode says;
// "legacy" (Resize-10, Upsample) takes the floor when upsampling and the
// ceiling when downsampling.
func nearestIndex(mode string, c, scale float64) int {
	fl := math.Floor(c)
	if c == fl {
		return int(fl)
	}
	frac := c - fl
	up := false
	switch mode {
	case "round_prefer_floor":
		up = frac > 0.5
	case "round_prefer_ceil":
		up = frac >= 0.5
	case "ceil":
		up = true
	case "legacy":
		up = scale < 1
	}
	if up {
		return int(fl) + 1
	}
	return int(fl)
}

// filterTaps returns the filter's taps of an axis of scale scale: the
// first one's offset from the input index before the coordinate, and how
// many there are (2 for linear, 4 for cubic; 1/scale times that, about,
// for antialias when downsampling).
func filterTaps(p resizeParams, scale float64) (first, count int) {
	filterScale := min(scale, 1) // antialias stretches the filter by 1/scale
	switch {
	case p.mode == "linear" && !p.antialias:
		return 0, 2
	case p.mode == "cubic" && !p.antialias:
		return -1, 4
	case p.mode == "linear":
		first = int(math.Floor(-1/filterScale)) + 1
	default:
		first = int(math.Floor(-2/filterScale)) + 1
	}
	return first, 2 - 2*first // the taps first .. 1-first
}

// resizeCoefficients sets coeffs (filterTaps' count of them) to the
// filter's coefficients at coordinate c of an axis of length in, and
// returns the input index of the first: the len(coeffs) indices nearest c,
// which the caller clamps into the axis (edge padding). As in the
// reference, ratio is the distance of c right of the tap before it, in
// (0, 1]: an integer c counts as 1 right of c-1.
func resizeCoefficients(p resizeParams, c, scale float64, in int, coeffs []float64) int {
	fl := math.Floor(c)
	ratio := c - fl
	base := int(fl)
	if ratio == 0 {
		ratio, base = 1, base-1
	}
	A := p.cubicA
	filterScale := min(scale, 1)
	first, _ := filterTaps(p, scale)
	switch {
	case p.mode == "linear" && !p.antialias:
		coeffs[0], coeffs[1] = 1-ratio, ratio
	case p.mode == "cubic" && !p.antialias:
		coeffs[0] = ((A*(ratio+1)-5*A)*(ratio+1)+8*A)*(ratio+1) - 4*A
		coeffs[1] = ((A+2)*ratio-(A+3))*ratio*ratio + 1
		coeffs[2] = ((A+2)*(1-ratio)-(A+3))*(1-ratio)*(1-ratio) + 1
		coeffs[3] = ((A*((1-ratio)+1)-5*A)*((1-ratio)+1)+8*A)*((1-ratio)+1) - 4*A
	case p.mode == "linear":
		for t := range coeffs {
			coeffs[t] = max(0, min(1, 1-math.Abs((float64(first+t)-ratio)*filterScale)))
		}
		normalize(coeffs)
	default:
		for t := range coeffs {
			coeffs[t] = cubicKernel(filterScale*(float64(first+t)-ratio), A)
		}
		normalize(coeffs)
	}
	if p.exclude {
		for t := range coeffs {
			if i := base + first + t; i < 0 || i >= in {
				coeffs[t] = 0
			}
		}
		normalize(coeffs)
	}
	return base + first
}

// normalize divides c by its sum.
func normalize(c []float64) {
	var sum float64
	for _, v := range c {
		sum += v
	}
	for t := range c {
		c[t] /= sum
	}
}

// cubicKernel is Keys' cubic convolution kernel at x with coefficient A.
func cubicKernel(x, A float64) float64 {
	x = math.Abs(x)
	switch {
	case x <= 1:
		return (A+2)*x*x*x - (A+3)*x*x + 1
	case x < 2:
		return A*x*x*x - 5*A*x*x + 8*A*x - 4*A
	}
	return 0
}
