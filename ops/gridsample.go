// GridSample samples X (N x C x D1 x ... x Dr) at the points of grid
// (N x H1 x ... x Hk x r), whose last axis holds normalized coordinates in
// [-1, 1], the last spatial axis first (x, y[, z]); the output is
// N x C x H1 x ... x Hk. A coordinate maps to a pixel position as
// (g+1)/2*(d-1) with align_corners, ((g+1)*d-1)/2 without; positions
// outside the image are first clamped (padding_mode border) or reflected
// (reflection) and the taps then read pixels as zeros (zeros), the nearest
// edge pixel (border) or the reflected pixel (reflection), as the ONNX
// reference evaluator and PyTorch's grid_sampler do. nearest rounds half to
// even (std::nearbyint) on every spatial rank: the node tests' volumetric
// cases expect it, though one version of the reference evaluator rounds 3-D
// grids half away from zero; linear and cubic (Keys, a = -0.75)
// interpolate one axis at a time, the last axis innermost.
//
// Versions: 16 (4-D X only; modes bilinear, nearest, bicubic), 20 (any
// spatial rank; modes linear, nearest, cubic) and 22 (X and grid of the
// IEEE float types only, bfloat16 added). Versions 16 and 20 take X of
// every real numeric type (integer results rounded half to even and
// saturated, as Cast); string, bool and complex X, which the spec's "all
// types" lists but cannot interpolate, are refused. Computed in float64,
// each output rounded once; the fast kernel computes every point's taps
// once for all channels and sums in the reference's order, so the engines
// agree bit for bit. A coordinate that is NaN, or infinite where padding
// leaves it so, gives NaN (the spec leaves it undefined).
//
// The rules: [type] X and grid of the types the version allows;
// [input-rank] X 4-D (16) or of rank >= 3 (20, 22), grid of X's rank;
// [grid] grid's batch is X's and its last dim the spatial rank; [mode],
// [padding_mode] names the version knows; [size]; [empty] an X with an
// empty spatial axis samples only under zeros padding (border and
// reflection have no pixel to repeat).

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("GridSample", []int{16, 20, 22}, [2]int{2, 2}, [2]int{1, 1}, gridSampleNode)
	declareAttrs("GridSample",
		AttrSpec{Name: "align_corners", Type: AttrInt},
		AttrSpec{Name: "mode", Type: AttrString},
		AttrSpec{Name: "padding_mode", Type: AttrString})
}

// The interpolation modes and padding modes of GridSample.
const (
	gridNearest = iota
	gridLinear
	gridCubic
)

const (
	gridZeros = iota
	gridBorder
	gridReflection
)

// maxGridSpatial caps the spatial rank: a cubic point reads 4^r pixels.
const maxGridSpatial = 8

// gridSampleTypeOK reports whether version accepts X of type dt (grid
// false) or grid of type dt (grid true).
func gridSampleTypeOK(version int, dt tensor.DataType, grid bool) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.BFloat16:
		return version >= 22
	}
	return !grid && version < 22 && dt.IsInteger() && dt.Size() > 0 && dt != tensor.Bool
}

// gridSampleAttrs reads and checks the attributes of version.
func gridSampleAttrs(n *Node) (mode, padding int, align bool, err error) {
	op := n.op()
	def := "linear"
	if n.Version < 20 {
		def = "bilinear"
	}
	m, err := n.Str("mode", def)
	if err != nil {
		return 0, 0, false, err
	}
	switch {
	case m == "nearest":
		mode = gridNearest
	case m == "linear" && n.Version >= 20, m == "bilinear" && n.Version < 20:
		mode = gridLinear
	case m == "cubic" && n.Version >= 20, m == "bicubic" && n.Version < 20:
		mode = gridCubic
	default:
		return 0, 0, false, op.errorf("mode", "mode %q is not one version %d knows", m, n.Version)
	}
	p, err := n.Str("padding_mode", "zeros")
	if err != nil {
		return 0, 0, false, err
	}
	switch p {
	case "zeros":
		padding = gridZeros
	case "border":
		padding = gridBorder
	case "reflection":
		padding = gridReflection
	default:
		return 0, 0, false, op.errorf("padding_mode", "padding_mode %q is not zeros, border or reflection", p)
	}
	a, err := n.Int("align_corners", 0)
	if err != nil {
		return 0, 0, false, err
	}
	return mode, padding, a != 0, nil
}

// GridSampleShape returns the output shape of a GridSample of version
// with X and grid of shapes xs and gs.
func GridSampleShape(version int, xs, gs []int) ([]int, error) {
	op := opRef{"GridSample", version}
	if version < 20 && len(xs) != 4 {
		return nil, op.errorf("input-rank", "X has rank %d, expected 4", len(xs))
	}
	if len(xs) < 3 || len(xs) > maxGridSpatial+2 {
		return nil, op.errorf("input-rank", "X has rank %d, expected 3 to %d", len(xs), maxGridSpatial+2)
	}
	if len(gs) != len(xs) {
		return nil, op.errorf("input-rank", "grid has rank %d, X %d", len(gs), len(xs))
	}
	r := len(xs) - 2
	if gs[0] != xs[0] || gs[r+1] != r {
		return nil, op.errorf("grid", "grid has shape %v, expected (%d, ..., %d) for X of shape %v", gs, xs[0], r, xs)
	}
	return append([]int{xs[0], xs[1]}, gs[1:r+1]...), nil
}

func gridSampleNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	opt = opt.orDefault()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	g, err := n.requiredInput(in, 1, "grid")
	if err != nil {
		return nil, err
	}
	if !gridSampleTypeOK(n.Version, x.DataType(), false) || !gridSampleTypeOK(n.Version, g.DataType(), true) {
		return nil, op.errorf("type", "X is %v and grid %v, which version %d does not accept", x.DataType(), g.DataType(), n.Version)
	}
	mode, padding, align, err := gridSampleAttrs(n)
	if err != nil {
		return nil, err
	}
	shape, err := GridSampleShape(n.Version, x.Shape(), g.Shape())
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, x.DataType(), shape)
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 {
		return values(y), nil
	}
	// [empty] border and reflection padding repeat the image's pixels: an
	// image with an empty spatial axis has none (zeros padding reads 0).
	if x.Len() == 0 && padding != gridZeros {
		return nil, op.errorf("empty", "X of shape %v has no pixel for %s padding to repeat", x.Shape(), n.Attrs["padding_mode"].String)
	}
	xv, err := convFloatsIn[float64](opt, op, x, "X")
	if err != nil {
		return nil, convErr(op, err)
	}
	gv, err := convFloatsIn[float64](opt, op, g, "grid")
	if err != nil {
		return nil, convErr(op, err)
	}
	xs := x.Shape()
	r := len(xs) - 2
	dims := xs[2:]
	inner := 1
	for _, d := range dims {
		inner *= d
	}
	points := y.Len() / (xs[0] * xs[1])
	channels := xs[1]
	taps := 1
	switch mode {
	case gridLinear:
		taps = 2
	case gridCubic:
		taps = 4
	}
	work := channels
	for range r {
		work *= taps
	}
	err = computeFloat64s(opt, op, y, func(out []float64) error {
		return parallelRange(opt, xs[0]*points, work, func(lo, hi int) error {
			s := newGridSampler(mode, padding, align, dims, taps)
			c := opt.canceller()
			for q := lo; q < hi; q++ {
				if c.Stop(work) {
					return c.Err
				}
				b, p := q/points, q%points
				s.place(gv[q*r : q*r+r])
				for ch := range channels {
					base := (b*channels + ch) * inner
					out[(b*channels+ch)*points+p] = s.sample(xv[base : base+inner])
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, convErr(op, err)
	}
	return values(y), nil
}

// gridSampler holds one output point's taps: per spatial axis, the pixel
// indices (-1 reads zero) and weights.
type gridSampler struct {
	mode, padding int
	align         bool
	dims, strides []int
	taps          int
	index         [][]int
	weight        [][]float64
	nan           bool
}

func newGridSampler(mode, padding int, align bool, dims []int, taps int) *gridSampler {
	s := &gridSampler{mode: mode, padding: padding, align: align, dims: dims, taps: taps,
		strides: make([]int, len(dims)), index: make([][]int, len(dims)), weight: make([][]float64, len(dims))}
	stride := 1
	for a := len(dims) - 1; a >= 0; a-- {
		s.strides[a] = stride
		stride *= dims[a]
		s.index[a] = make([]int, taps)
		s.weight[a] = make([]float64, taps)
	}
	return s
}

// bounds returns the range of positions inside axis a's image.
func (s *gridSampler) bounds(a int) (lo, hi float64) {
	if s.align {
		return 0, float64(s.dims[a] - 1)
	}
	return -0.5, float64(s.dims[a]) - 0.5
}

// place computes the taps of the point whose normalized coordinates are
// g (the last axis first).
func (s *gridSampler) place(g []float64) {
	r := len(s.dims)
	s.nan = false
	for a := range r {
		d := s.dims[a]
		v := g[r-1-a]
		var x float64
		if s.align {
			x = (v + 1) / 2 * float64(d-1)
		} else {
			x = ((v+1)*float64(d) - 1) / 2
		}
		if s.mode == gridNearest {
			x = math.RoundToEven(x)
		}
		lo, hi := s.bounds(a)
		if x < lo || x > hi {
			switch s.padding {
			case gridBorder:
				x = min(max(x, 0), float64(d-1))
			case gridReflection:
				x = gridReflect(x, lo, hi)
			}
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			s.nan = true
			return
		}
		switch s.mode {
		case gridNearest:
			s.index[a][0] = s.pixel(a, math.Trunc(x))
			s.weight[a][0] = 1
		case gridLinear:
			x0 := math.Floor(x)
			t := x - x0
			s.index[a][0], s.weight[a][0] = s.pixel(a, x0), 1-t
			s.index[a][1], s.weight[a][1] = s.pixel(a, x0+1), t
		case gridCubic:
			x0 := math.Floor(x)
			t := x - x0
			w := s.weight[a]
			gridCubicCoeffs(t, w)
			for k := range 4 {
				s.index[a][k] = s.pixel(a, x0-1+float64(k))
			}
		}
	}
}

// pixel returns the index along axis a that position i (a whole number)
// reads under the padding mode, -1 for a zero.
func (s *gridSampler) pixel(a int, i float64) int {
	d := float64(s.dims[a])
	switch s.padding {
	case gridBorder:
		return int(min(max(i, 0), d-1))
	case gridReflection:
		lo, hi := s.bounds(a)
		return int(math.Trunc(gridReflect(i, lo, hi)))
	}
	if i < 0 || i >= d {
		return -1
	}
	return int(i)
}

// sample returns the value of one channel's image x at the placed point.
func (s *gridSampler) sample(x []float64) float64 {
	if s.nan {
		return math.NaN()
	}
	if s.mode == gridNearest {
		off := 0
		for a, idx := range s.index {
			if idx[0] < 0 {
				return 0
			}
			off += idx[0] * s.strides[a]
		}
		return x[off]
	}
	return s.interpolate(x, 0, 0)
}

// interpolate sums axis a's taps of the values interpolated along the
// axes after it, from offset base.
func (s *gridSampler) interpolate(x []float64, a, base int) float64 {
	var sum float64
	last := a == len(s.dims)-1
	for k := range s.taps {
		var v float64
		if i := s.index[a][k]; i >= 0 {
			if last {
				v = x[base+i]
			} else {
				v = s.interpolate(x, a+1, base+i*s.strides[a])
			}
		}
		sum += s.weight[a][k] * v
	}
	return sum
}

// gridReflect reflects x by the nearer border until it lies in [lo, hi].
func gridReflect(x, lo, hi float64) float64 {
	span := hi - lo
	if span <= 0 {
		return lo
	}
	switch {
	case x < lo:
		dx := lo - x
		n := math.Floor(dx / span)
		r := dx - n*span
		if math.Mod(n, 2) == 0 {
			return lo + r
		}
		return hi - r
	case x > hi:
		dx := x - hi
		n := math.Floor(dx / span)
		r := dx - n*span
		if math.Mod(n, 2) == 0 {
			return hi - r
		}
		return lo + r
	}
	return x
}

// gridCubicCoeffs sets w to Keys' cubic convolution weights (a = -0.75) of
// the four taps around a point t past the second.
func gridCubicCoeffs(t float64, w []float64) {
	const a = -0.75
	t = math.Abs(t)
	w[0] = ((a*(t+1)-5*a)*(t+1)+8*a)*(t+1) - 4*a
	w[1] = ((a+2)*t-(a+3))*t*t + 1
	w[2] = ((a+2)*(1-t)-(a+3))*(1-t)*(1-t) + 1
	w[3] = ((a*(2-t)-5*a)*(2-t)+8*a)*(2-t) - 4*a
}

// computeFloat64s runs f, a kernel computing in float64, into y: directly
// on y's storage for double, through a float64 buffer (charged) rounded
// once into y for any other type.
func computeFloat64s(opt *Options, op opRef, y *tensor.Tensor, f func(out []float64) error) error {
	if y.DataType() == tensor.Double {
		out, err := tensor.Data[float64](y)
		if err != nil {
			return err
		}
		return f(out)
	}
	if err := opt.scratch(op, "the output in float64", y.Len(), 8); err != nil {
		return err
	}
	out := make([]float64, y.Len())
	if err := f(out); err != nil {
		return err
	}
	return convert.StoreFloatsPolled(opt.orDefault().env.Ctx, y, out)
}
