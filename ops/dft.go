// DFT computes the discrete Fourier transform of input along one axis:
// input is [..., signal, ..., 1 or 2], its last axis the real part alone
// or the real and imaginary parts; the output's last axis is 2 (real and
// imaginary). dft_length pads the signal with zeros or truncates it to n
// (by default its own length); onesided keeps the n/2+1 first
// frequencies of a forward transform; inverse computes
// (1/n) sum_k X[k] exp(+2πi jk/n). inverse and onesided together are the
// inverse of a one-sided transform (numpy's irfft): the input holds the
// first frequencies of a Hermitian spectrum (n defaults to 2*(length-1);
// the imaginary parts of the zero and Nyquist frequencies are ignored) and
// the output is real, its last axis 1.
//
// Versions: 17 (axis an attribute, default 1) and 20 (axis an optional
// input, default -2). Types: float16, float, double, bfloat16; dft_length
// and axis int32 or int64 scalars. The engine is ops/internal/signal
// (radix-2 FFT for powers of two, Bluestein otherwise), in float64, each
// output rounded once; the reference sums the definition, so the engines
// agree within the bound reference.Agree states for DFT and STFT.
//
// The rules: [type]; [input-rank] rank >= 2, last dim 1 or 2; [axis] in
// [-r, -2] or [0, r-2]; [dft_length] a positive scalar; [size] the output,
// the plan and the per-core lines fit the caps.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/signal"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("DFT", []int{17, 20}, [2]int{1, 3}, [2]int{1, 1}, dftNode)
	declareAttrs("DFT",
		AttrSpec{Name: "axis", Type: AttrInt},
		AttrSpec{Name: "inverse", Type: AttrInt},
		AttrSpec{Name: "onesided", Type: AttrInt})
}

// maxDFTLength caps a transform's length: far above any output the size
// cap allows, below what the engine's int arithmetic could overflow, and
// no more than an int holds (2^31-1 on 32-bit platforms, where 2^40
// converted to int was 0).
const maxDFTLength = min(1<<40, math.MaxInt)

// dftFloatTypeOK reports whether DFT and STFT accept signals of type dt.
func dftFloatTypeOK(dt tensor.DataType) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double, tensor.BFloat16:
		return true
	}
	return false
}

// scalarIntInput reads optional input i, an int32 or int64 scalar (or a
// tensor of one element); present is false when it is absent.
func (n *Node) scalarIntInput(in []tensor.Value, i int, name, rule string) (v int64, present bool, err error) {
	t, err := n.tensorInput(in, i)
	if err != nil || t == nil {
		return 0, false, err
	}
	if (t.DataType() != tensor.Int32 && t.DataType() != tensor.Int64) || t.Len() != 1 || t.Rank() > 1 {
		return 0, false, n.op().errorf(rule, "%s must be an int32 or int64 scalar, got %s", name, t.Describe())
	}
	vs, _ := int64sOf(t)
	return vs[0], true, nil
}

// dftGeometry is one DFT's lines: outer x signal x inner, in elements of
// comps parts (1 or 2).
type dftGeometry struct {
	outer, inner      int
	length, n         int // input signal length, transform length
	comps             int
	inverse, onesided bool
	outLen, outComps  int
}

// DFTShape checks a DFT of version with input shape xs and returns its
// output shape; dftLength is -1 when absent, axis is the attribute or
// input value (the version's default when absent).
func DFTShape(version int, xs []int, axis int64, dftLength int64, inverse, onesided bool) ([]int, error) {
	shape, _, err := dftShape(opRef{"DFT", version}, xs, axis, dftLength, inverse, onesided)
	return shape, err
}

func dftShape(op opRef, xs []int, axis int64, dftLength int64, inverse, onesided bool) ([]int, dftGeometry, error) {
	var g dftGeometry
	r := len(xs)
	if r < 2 || (xs[r-1] != 1 && xs[r-1] != 2) {
		return nil, g, op.errorf("input-rank", "input has shape %v: expected rank >= 2 and a last dim of 1 or 2", xs)
	}
	if axis < -int64(r) || axis > int64(r-2) || axis == -1 {
		return nil, g, op.errorf("axis", "axis %d is outside [-%d, -2] and [0, %d]", axis, r, r-2)
	}
	a := int(axis)
	if a < 0 {
		a += r
	}
	g.comps, g.inverse, g.onesided = xs[r-1], inverse, onesided
	g.outer, g.inner = 1, 1
	for _, d := range xs[:a] {
		g.outer *= d
	}
	for _, d := range xs[a+1 : r-1] {
		g.inner *= d
	}
	g.length = xs[a]
	switch {
	case dftLength >= 0:
		if dftLength < 1 || dftLength > maxDFTLength {
			return nil, g, op.errorf("dft_length", "dft_length %d is outside [1, %d]", dftLength, int64(maxDFTLength))
		}
		g.n = int(dftLength)
	case inverse && onesided:
		g.n = 2 * (g.length - 1)
		if g.n < 1 {
			return nil, g, op.errorf("dft_length", "a one-sided inverse of %d frequencies needs dft_length", g.length)
		}
	default:
		g.n = g.length
		if g.n < 1 {
			return nil, g, op.errorf("dft_length", "the signal along axis %d is empty", a)
		}
	}
	g.outLen, g.outComps = g.n, 2
	switch {
	case inverse && onesided:
		g.outComps = 1
	case onesided:
		g.outLen = g.n/2 + 1
	}
	shape := append([]int(nil), xs...)
	shape[a], shape[r-1] = g.outLen, g.outComps
	return shape, g, nil
}

func dftNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	opt = opt.orDefault()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	if !dftFloatTypeOK(x.DataType()) {
		return nil, op.errorf("type", "input is %v, expected a float type", x.DataType())
	}
	dftLength, present, err := n.scalarIntInput(in, 1, "dft_length", "dft_length")
	if err != nil {
		return nil, err
	}
	if !present {
		dftLength = -1
	}
	var axis int64
	if n.Version < 20 {
		if axis, err = n.Int("axis", 1); err != nil {
			return nil, err
		}
	} else {
		var ok bool
		if axis, ok, err = n.scalarIntInput(in, 2, "axis", "axis"); err != nil {
			return nil, err
		}
		if !ok {
			axis = -2
		}
	}
	inv, err := n.Int("inverse", 0)
	if err != nil {
		return nil, err
	}
	one, err := n.Int("onesided", 0)
	if err != nil {
		return nil, err
	}
	shape, g, err := dftShape(op, x.Shape(), axis, dftLength, inv != 0, one != 0)
	if err != nil {
		return nil, err
	}
	if err := opt.checkSize(op, x.DataType(), shape); err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, x.DataType(), shape)
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 {
		return values(y), nil
	}
	xv, err := convFloatsIn[float64](opt, op, x, "input")
	if err != nil {
		return nil, convErr(op, err)
	}
	plan, err := newSignalPlan(opt, op, g.n)
	if err != nil {
		return nil, err
	}
	err = computeFloat64s(opt, op, y, func(out []float64) error {
		return runLines(opt, op, g.outer*g.inner, g.n, func(line int, re, im, scratch []float64) {
			o, i := line/g.inner, line%g.inner
			dftLine(plan, g, xv[o*g.length*g.inner*g.comps:], out[o*g.outLen*g.inner*g.outComps:], i, re, im, scratch)
		})
	})
	if err != nil {
		return nil, convErr(op, err)
	}
	return values(y), nil
}

// newSignalPlan charges and builds the Fourier plan of length n.
func newSignalPlan(opt *Options, op opRef, n int) (*signal.Plan, error) {
	if err := opt.scratch(op, "the Fourier plan", signal.PlanFloats(n), 8); err != nil {
		return nil, err
	}
	return signal.NewPlan(n), nil
}

// runLines runs f over lines transforms of length n on the run's cores,
// each worker with its own charged line (re, im) and engine scratch.
func runLines(opt *Options, op opRef, lines, n int, f func(line int, re, im, scratch []float64)) error {
	per := addCounts(2*n, signal.ScratchFloats(n))
	workers := min(opt.threads(), max(lines, 1))
	if err := opt.scratch(op, "the per-core lines", mulCounts(workers, per), 8); err != nil {
		return err
	}
	work := mulCounts(n, 8)
	return parallelRange(opt, lines, work, func(lo, hi int) error {
		buf := make([]float64, per)
		re, im, scratch := buf[:n], buf[n:2*n], buf[2*n:]
		c := opt.canceller()
		for line := lo; line < hi; line++ {
			if c.Stop(work) {
				return c.Err
			}
			f(line, re, im, scratch)
		}
		return nil
	})
}

// dftLine transforms line i of one outer block: x and y start at the
// block; elements along the signal are g.inner apart.
func dftLine(plan *signal.Plan, g dftGeometry, x, y []float64, i int, re, im, scratch []float64) {
	at := func(k int) (float64, float64) {
		p := (k*g.inner + i) * g.comps
		if g.comps == 1 {
			return x[p], 0
		}
		return x[p], x[p+1]
	}
	clear(re)
	clear(im)
	if g.inverse && g.onesided {
		// The Hermitian spectrum of length n from its n/2+1 first
		// frequencies; the imaginary parts of X[0] and X[n/2] (n even)
		// cannot be represented and are dropped, as numpy's irfft does.
		half := min(g.n/2+1, g.length)
		for k := range half {
			re[k], im[k] = at(k)
		}
		im[0] = 0
		if g.n%2 == 0 && g.n/2 < half {
			im[g.n/2] = 0
		}
		for k := 1; k < (g.n+1)/2; k++ {
			re[g.n-k], im[g.n-k] = re[k], -im[k]
		}
	} else {
		for k := range min(g.n, g.length) {
			re[k], im[k] = at(k)
		}
	}
	plan.Transform(re, im, g.inverse, scratch)
	scale := 1.0
	if g.inverse {
		scale = 1 / float64(g.n)
	}
	for k := range g.outLen {
		p := (k*g.inner + i) * g.outComps
		y[p] = re[k] * scale
		if g.outComps == 2 {
			y[p+1] = im[k] * scale
		}
	}
}
