// AffineGrid generates the sampling grid of GridSample from affine
// matrices theta: for output position (n, [d,] h, w), the point
// theta[n] · (x, y, [z,] 1), where x, y, z are the normalized coordinates
// of w, h, d in [-1, 1]: -1 + 2i/(L-1) with align_corners (-1 when L is
// 1), -1 + (2i+1)/L without (pixel centres). 2-D: theta [N, 2, 3], size
// (N, C, H, W), grid [N, H, W, 2]; 3-D: theta [N, 3, 4], size (N, C, D,
// H, W), grid [N, D, H, W, 3].
//
// Version 20. Types: theta float16, float, double, bfloat16; size int64.
// Computed in float64 (x*t0 + y*t1 [+ z*t2] + t3, in that order), each
// value rounded once, as the reference; the engines agree bit for bit.
//
// The rules: [type]; [size] 1-D of 4 or 5 values, each >= 0 (N >= 1);
// [theta] of shape [N, 2, 3] or [N, 3, 4] to match; [size] the output
// fits the caps.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("AffineGrid", []int{20}, [2]int{2, 2}, [2]int{1, 1}, affineGridNode)
	declareAttrs("AffineGrid", AttrSpec{Name: "align_corners", Type: AttrInt})
}

// AffineGridShape checks theta's shape and size's values and returns the
// grid's shape.
func AffineGridShape(thetaShape []int, size []int64) ([]int, error) {
	op := opRef{"AffineGrid", 20}
	if len(size) != 4 && len(size) != 5 {
		return nil, op.errorf("size", "size has %d values, expected 4 (N, C, H, W) or 5 (N, C, D, H, W)", len(size))
	}
	r := len(size) - 2
	for i, v := range size {
		if v < 0 || v > 1<<40 {
			return nil, op.errorf("size", "size[%d] is %d, outside [0, 2^40]", i, v)
		}
	}
	if len(thetaShape) != 3 || int64(thetaShape[0]) != size[0] || thetaShape[1] != r || thetaShape[2] != r+1 {
		return nil, op.errorf("theta", "theta has shape %v, expected [%d, %d, %d] for size %v", thetaShape, size[0], r, r+1, size)
	}
	shape := make([]int, 1, len(size))
	shape[0] = int(size[0])
	for _, v := range size[2:] {
		shape = append(shape, int(v))
	}
	return append(shape, r), nil
}

func affineGridNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	opt = opt.orDefault()
	theta, err := n.requiredInput(in, 0, "theta")
	if err != nil {
		return nil, err
	}
	st, err := n.requiredInput(in, 1, "size")
	if err != nil {
		return nil, err
	}
	if !dftFloatTypeOK(theta.DataType()) || st.DataType() != tensor.Int64 || st.Rank() != 1 {
		return nil, op.errorf("type", "theta is %v and size %s, expected a float type and a 1-D int64", theta.DataType(), st.Describe())
	}
	align, err := n.Int("align_corners", 0)
	if err != nil {
		return nil, err
	}
	size, _ := tensor.Data[int64](st) // read, never written
	shape, err := AffineGridShape(theta.Shape(), size)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, theta.DataType(), shape)
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 {
		return values(y), nil
	}
	r := len(shape) - 2
	tv := make([]float64, theta.Len()) // N*r*(r+1), bounded by the output
	if err := opt.scratch(op, "theta in float64", len(tv), 8); err != nil {
		return nil, err
	}
	convert.DecodeFloats(tv, theta, 0)
	dims := shape[1 : r+1]
	// coords[a] holds the normalized coordinates along spatial axis a.
	coords := make([][]float64, r)
	total := 0
	for _, d := range dims {
		total = addCounts(total, d)
	}
	if err := opt.scratch(op, "the coordinates", total, 8); err != nil {
		return nil, err
	}
	all := make([]float64, total) // one allocation for every axis
	for a, d := range dims {
		coords[a] = affineCoords(all[:d:d], align != 0)
		all = all[d:]
	}
	points := y.Len() / (shape[0] * r)
	// A float32 grid is written as each float64 sum is rounded (what
	// storing the float64 grid would round to), with no float64 copy of
	// the output.
	out32, _ := tensor.Data[float32](y)
	fill := func(out []float64) error {
		return parallelRange(opt, shape[0]*points, mulCounts(shape[0]*points, r*(r+1)), func(lo, hi int) error {
			c := opt.canceller()
			var baseBuf [4]float64 // r+1 <= 4
			base := baseBuf[:r+1]
			// The point's batch b and index along each spatial axis,
			// divided out once and then stepped (a division per axis and
			// point cost more than the point's products).
			var idxBuf [3]int
			idx := idxBuf[:r]
			b, p := lo/points, lo%points
			for a := r - 1; a >= 0; a-- {
				idx[a] = p % dims[a]
				p /= dims[a]
			}
			for q := lo; q < hi; q++ {
				if c.Stop(r * (r + 1)) {
					return c.Err
				}
				// base = (x, y[, z], 1): x along the last axis.
				for a := r - 1; a >= 0; a-- {
					base[r-1-a] = coords[a][idx[a]]
				}
				base[r] = 1
				t := tv[b*r*(r+1):]
				for i := range r {
					var s float64
					for j := range r + 1 {
						s += t[i*(r+1)+j] * base[j]
					}
					if out32 != nil {
						out32[q*r+i] = float32(s)
					} else {
						out[q*r+i] = s
					}
				}
				for a := r - 1; ; a-- {
					if a < 0 {
						b++
						break
					}
					if idx[a]++; idx[a] < dims[a] {
						break
					}
					idx[a] = 0
				}
			}
			return nil
		})
	}
	if out32 != nil {
		err = fill(nil)
	} else {
		err = computeFloat64s(opt, op, y, fill)
	}
	if err != nil {
		return nil, convErr(op, err)
	}
	return values(y), nil
}

// affineCoords writes the len(v) normalized coordinates of an axis into v
// and returns it.
func affineCoords(v []float64, align bool) []float64 {
	d := len(v)
	for i := range v {
		switch {
		case align && d == 1:
			v[i] = -1
		case align:
			v[i] = -1 + float64(i)*(2/float64(d-1))
		default:
			step := 2 / float64(d)
			v[i] = -1 + step/2 + float64(i)*step
		}
	}
	return v
}
