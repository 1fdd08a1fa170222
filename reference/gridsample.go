// GridSample (16, 20, 22), after the ONNX specification and the reference
// evaluator's op_grid_sample.py: "Given an input X and a flow-field grid,
// computes the output Y using X values and pixel locations from the grid."
// Y[n, c, p] samples X[n, c] at grid[n, p], whose last axis lists the
// normalized coordinates in reverse order of X's spatial axes (x, y[, z]).
// A coordinate g of an axis of length d denormalizes to (g+1)/2*(d-1) with
// align_corners and ((g+1)*d-1)/2 without; nearest rounds it half to even
// (np.rint, which the node tests' volumetric cases expect as well). A
// position outside the borders ([0, d-1] with align_corners, [-0.5, d-0.5]
// without) is clamped to [0, d-1] (border) or reflected by the near border
// until inside (reflection); then linear reads the 2 and cubic the 4
// neighbours along each axis (Keys' coefficients, a = -0.75), nested, the
// last axis innermost, each pixel read with the padding mode again (zeros
// outside, the clamped or reflected pixel). Version 16 takes 4-D X and
// names the modes bilinear and bicubic; 20 any rank, linear and cubic; 22
// accepts float types only, bfloat16 among them. Computed in float64,
// rounded once; NaN or infinite positions give NaN (left undefined).

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("GridSample", []int{16, 20, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "X")
		if err != nil {
			return nil, err
		}
		grid, err := requiredInput(op, in, 1, "grid")
		if err != nil {
			return nil, err
		}
		typeOK := func(dt tensor.DataType, isGrid bool) bool {
			switch dt {
			case tensor.Float16, tensor.Float, tensor.Double:
				return true
			case tensor.BFloat16:
				return n.Version >= 22
			}
			return !isGrid && n.Version < 22 && dt.IsInteger() && dt != tensor.Bool
		}
		if !typeOK(x.DataType(), false) || !typeOK(grid.DataType(), true) {
			return nil, op.errorf("type", "X %v, grid %v", x.DataType(), grid.DataType())
		}
		linear, cubic := "linear", "cubic"
		if n.Version < 20 {
			linear, cubic = "bilinear", "bicubic"
		}
		mode, err := n.Str("mode", linear)
		if err != nil {
			return nil, err
		}
		if mode != "nearest" && mode != linear && mode != cubic {
			return nil, op.errorf("mode", "mode %q", mode)
		}
		padding, err := n.Str("padding_mode", "zeros")
		if err != nil {
			return nil, err
		}
		if padding != "zeros" && padding != "border" && padding != "reflection" {
			return nil, op.errorf("padding_mode", "padding_mode %q", padding)
		}
		ac, err := n.Int("align_corners", 0)
		if err != nil {
			return nil, err
		}
		align := ac != 0
		xs, gs := x.Shape(), grid.Shape()
		if n.Version < 20 && len(xs) != 4 {
			return nil, op.errorf("input-rank", "X has rank %d", len(xs))
		}
		if len(xs) < 3 || len(xs) > 10 || len(gs) != len(xs) {
			return nil, op.errorf("input-rank", "X has rank %d, grid %d", len(xs), len(gs))
		}
		r := len(xs) - 2
		if gs[0] != xs[0] || gs[r+1] != r {
			return nil, op.errorf("grid", "grid %v for X %v", gs, xs)
		}
		shape := append([]int{xs[0], xs[1]}, gs[1:r+1]...)
		y, err := newTensor(opt, op, x.DataType(), shape)
		if err != nil {
			return nil, err
		}
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		if err := chargeScratch(opt, op, "float64 copies of the inputs, the results and the output", inputElements(in)+2*numElements(shape), 8); err != nil {
			return nil, err
		}
		// [empty] border and reflection repeat pixels; an empty axis has none.
		if x.Len() == 0 && y.Len() > 0 && padding != "zeros" {
			return nil, op.errorf("empty", "X of shape %v has no pixel for %s padding to repeat", xs, padding)
		}
		xv, gv := computeElements[float64](x), computeElements[float64](grid)
		dims := xs[2:]
		xStrides := stridesOf(xs)
		border := func(i int) (lo, hi float64) {
			if align {
				return 0, float64(dims[i] - 1)
			}
			return -0.5, float64(dims[i]) - 0.5
		}
		reflect := func(v, lo, hi float64) float64 {
			span := hi - lo
			if span <= 0 {
				return lo
			}
			if v < lo {
				dx := lo - v
				k := math.Floor(dx / span)
				rest := dx - k*span
				if math.Mod(k, 2) == 0 {
					return lo + rest
				}
				return hi - rest
			}
			if v > hi {
				dx := v - hi
				k := math.Floor(dx / span)
				rest := dx - k*span
				if math.Mod(k, 2) == 0 {
					return hi - rest
				}
				return lo + rest
			}
			return v
		}
		// pixelAt reads index i of axis a, as _pixel_at_array; ok false
		// reads a zero.
		pixelAt := func(a int, i float64) (int, bool) {
			switch padding {
			case "zeros":
				if i < 0 || i >= float64(dims[a]) {
					return 0, false
				}
				return int(i), true
			case "border":
				return int(min(max(i, 0), float64(dims[a]-1))), true
			}
			lo, hi := border(a)
			return int(math.Trunc(reflect(i, lo, hi))), true
		}
		cubicCoeffs := func(t float64) [4]float64 {
			const A = -0.75
			t = math.Abs(t)
			return [4]float64{
				((A*(t+1)-5*A)*(t+1)+8*A)*(t+1) - 4*A,
				((A+2)*t-(A+3))*t*t + 1,
				((A+2)*(1-t)-(A+3))*(1-t)*(1-t) + 1,
				((A*(2-t)-5*A)*(2-t)+8*A)*(2-t) - 4*A,
			}
		}
		out := make([]float64, y.Len())
		pos := make([]float64, r)
		// interpolate is _gs_linear/cubic_interpolation_nd_with_x over
		// the image at offset base from axis a on.
		var interpolate func(a, base int) float64
		interpolate = func(a, base int) float64 {
			p0 := math.Floor(pos[a])
			var coeffs []float64
			first := p0
			if mode == cubic {
				c := cubicCoeffs(pos[a] - p0)
				coeffs, first = c[:], p0-1
			} else {
				coeffs = []float64{1 - (pos[a] - p0), pos[a] - p0}
			}
			var s float64
			for k, w := range coeffs {
				var v float64
				if i, ok := pixelAt(a, first+float64(k)); ok {
					if a == r-1 {
						v = xv[base+i]
					} else {
						v = interpolate(a+1, base+i*xStrides[2+a])
					}
				}
				s += w * v
			}
			return s
		}
		if err := forEachIndexPolled(opt, op, shape, 1<<(2*r), func(flat int, idx []int) {
			nn, c := idx[0], idx[1]
			gi := flat / (xs[1] * numElements(gs[1:r+1]))
			gi = gi*numElements(gs[1:r+1]) + flat%numElements(gs[1:r+1])
			bad := false
			for a := range r {
				g := gv[gi*r+r-1-a]
				d := float64(dims[a])
				var v float64
				if align {
					v = (g + 1) / 2 * (d - 1)
				} else {
					v = ((g+1)*d - 1) / 2
				}
				if mode == "nearest" {
					v = math.RoundToEven(v)
				}
				lo, hi := border(a)
				if v < lo || v > hi {
					switch padding {
					case "border":
						v = min(max(v, 0), d-1)
					case "reflection":
						v = reflect(v, lo, hi)
					}
				}
				if math.IsNaN(v) || math.IsInf(v, 0) {
					bad = true
				}
				pos[a] = v
			}
			base := (nn*xs[1] + c) * numElements(dims)
			switch {
			case bad:
				out[flat] = math.NaN()
			case mode == "nearest":
				off := base
				for a := range r {
					i, ok := pixelAt(a, math.Trunc(pos[a]))
					if !ok {
						out[flat] = 0
						return
					}
					off += i * xStrides[2+a]
				}
				out[flat] = xv[off]
			default:
				out[flat] = interpolate(0, base)
			}
		}); err != nil {
			return nil, err
		}
		for i, v := range out {
			if err := storeFloat(y, i, v); err != nil {
				return nil, op.wrap("type", err, "Y")
			}
		}
		return values(y), nil
	})
}
