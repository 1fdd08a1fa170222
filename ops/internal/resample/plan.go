package resample

// The per-axis plan of Resize (PlanAxis); the passes that stream data
// through it are Pass and Planes, called by ops/resize.go.
//
// Resize is separable: an N-linear or N-cubic filter is a 1-D filter per
// axis, applied one axis after the other. So each resized axis gets a plan,
// computed once per call: for every output index, the input indices it reads
// (taps, clamped to the axis: outside taps read the edge element) and their
// weights, or a mark that it lies outside tf_crop_and_resize's region. The
// passes then only stream data. They run innermost axis first, the order in
// which the reference implementation nests its 1-D interpolations, so that
// the values match it (extrapolated values included) up to float rounding.
// The two innermost axes run as one step, plane by plane, in the fused
// kernel of ops/internal/resample (plane.go); the other passes serve the
// outer axes.

import "math"

// AxisSpec is what the plan of one axis depends on: Resize's attributes
// (checked by ops) and the axis' geometry.
type AxisSpec struct {
	Mode      string  // nearest, linear or cubic
	Coord     string  // coordinate_transformation_mode
	Nearest   string  // nearest_mode, or "legacy" before version 11
	CubicA    float64 // cubic_coeff_a
	Exclude   bool    // exclude_outside
	Antialias bool
	Out       int        // the output length
	Scale     float64    // output length / input length as the coordinates use it
	Width     float64    // the unrounded output length (scale * input length)
	ROI       [2]float64 // tf_crop_and_resize's region of the axis
}

// Coordinate returns the input coordinate of output index x of an axis of
// input length in (x_original in the specification), and whether it lies
// outside the region of tf_crop_and_resize.
func Coordinate(p AxisSpec, x, in int) (float64, bool) {
	s, w, out := p.Scale, p.Width, p.Out
	xf := float64(x)
	switch p.Coord {
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
		r0, r1 := p.ROI[0], p.ROI[1]
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

// MaxAntialiasStretch bounds 1/scale for an antialiased axis: a wider
// filter would have more taps per output than a plan can hold; ops
// refuses it before planning.
const MaxAntialiasStretch = 1 << 24

// Taps returns the number of taps per output of the axis' plan and the
// offset of the first from the base index (taps start at base+first).
func Taps(p AxisSpec) (taps, first int) {
	filterScale := min(p.Scale, 1) // antialias stretches the filter by 1/scale
	switch {
	case p.Mode == "linear" && p.Antialias:
		first = int(math.Floor(-1/filterScale)) + 1
		return 2 - 2*first, first
	case p.Mode == "cubic" && p.Antialias:
		first = int(math.Floor(-2/filterScale)) + 1
		return 2 - 2*first, first
	case p.Mode == "linear":
		return 2, 0
	case p.Mode == "cubic":
		return 4, -1
	}
	return 1, 0
}

// PlanAxis computes the plan of an axis of input length in. ops has
// refused an antialias stretch above MaxAntialiasStretch and charged the
// plan first: Out * (4*taps + 3) words of 8 bytes (an index and a weight
// per tap, a start and a mark per output, and the copies the loops make:
// the weights in the computing type, a RowFilter's per-output records).
func PlanAxis(p AxisSpec, in int) *Axis {
	out := p.Out
	a := &Axis{In: in, Out: out}
	if out == 0 {
		return a
	}
	taps, first := Taps(p)
	filterScale := min(p.Scale, 1) // antialias stretches the filter by 1/scale
	a.Taps = taps
	a.Index = make([]int, out*taps)
	a.Weight = make([]float64, out*taps)
	if p.Mode != "nearest" {
		a.Start = make([]int, out)
	}
	coeffs := make([]float64, taps)
	for o := range out {
		x, outside := Coordinate(p, o, in)
		if outside {
			if a.Extrapolate == nil {
				a.Extrapolate = make([]bool, out)
			}
			a.Extrapolate[o] = true
			continue
		}
		idx, w := a.Index[o*taps:(o+1)*taps], a.Weight[o*taps:(o+1)*taps]
		if p.Mode == "nearest" {
			idx[0], w[0] = clampIndex(nearestIndex(p.Nearest, x, p.Scale), in), 1
			continue
		}
		// base is the tap left of x, ratio in (0, 1] its distance to x: an
		// integer x counts as 1 to the right of base, as in the reference.
		fl := math.Floor(x)
		ratio := x - fl
		if ratio == 0 {
			ratio = 1
		}
		base := int(fl)
		if x == fl {
			base--
		}
		switch {
		case p.Mode == "linear" && p.Antialias:
			for t := range coeffs {
				arg := (float64(first+t) - ratio) * filterScale
				coeffs[t] = max(0, min(1, 1-math.Abs(arg)))
			}
			normalize(coeffs)
		case p.Mode == "cubic" && p.Antialias:
			for t := range coeffs {
				coeffs[t] = cubicKernel(filterScale*(float64(first+t)-ratio), p.CubicA)
			}
			normalize(coeffs)
		case p.Mode == "linear":
			coeffs[0], coeffs[1] = 1-ratio, ratio
		default:
			cubicCoeffs(coeffs, ratio, p.CubicA)
		}
		if p.Exclude {
			for t := range coeffs {
				if i := base + first + t; i < 0 || i >= in {
					coeffs[t] = 0
				}
			}
			normalize(coeffs)
		}
		a.Start[o] = base + first
		for t := range coeffs {
			idx[t], w[t] = clampIndex(base+first+t, in), coeffs[t]
		}
	}
	return a
}

// nearestIndex rounds coordinate x to an input index as nearest_mode says.
// "legacy" is the rule of Upsample and Resize-10: floor when upsampling,
// ceiling when downsampling.
func nearestIndex(mode string, x, scale float64) int {
	fl := math.Floor(x)
	if x == fl {
		return int(fl)
	}
	frac := x - fl
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

func clampIndex(i, n int) int {
	return max(0, min(n-1, i))
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

// cubicCoeffs sets the four weights of Keys' cubic convolution for a point
// at distance ratio right of the second tap, as the reference writes them.
func cubicCoeffs(c []float64, ratio, A float64) {
	r1, r2 := ratio+1, 1-ratio
	c[0] = ((A*r1-5*A)*r1+8*A)*r1 - 4*A
	c[1] = ((A+2)*ratio-(A+3))*ratio*ratio + 1
	c[2] = ((A+2)*r2-(A+3))*r2*r2 + 1
	c[3] = ((A*(r2+1)-5*A)*(r2+1)+8*A)*(r2+1) - 4*A
}

// cubicKernel is Keys' cubic convolution kernel at x, used by antialias.
func cubicKernel(x, A float64) float64 {
	x = math.Abs(x)
	x2 := x * x
	x3 := x * x2
	switch {
	case x <= 1:
		return (A+2)*x3 - (A+3)*x2 + 1
	case x < 2:
		return A*x3 - 5*A*x2 + 8*A*x - 4*A
	}
	return 0
}
