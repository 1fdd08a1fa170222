// STFT computes the short-time Fourier transform of signal [batch,
// length, 1 or 2] (real, or real and imaginary): frame f of
// frame_length samples starts at f*frame_step, is multiplied by window
// (ones when absent) and transformed (DFT's forward transform); the output
// is [batch, frames, bins, 2], frames = (length - frame_length) /
// frame_step + 1, bins = frame_length/2 + 1 when onesided (the default)
// and frame_length otherwise. frame_length is the window's length when
// the input is absent; when both are given they must agree.
//
// Version 17. Types: float16, float, double, bfloat16 (window of the
// signal's type); frame_step and frame_length int32 or int64 scalars.
// The engine is ops/internal/signal, in float64 (the windowed samples
// rounded once to float64 only), each output rounded once; the reference
// sums the definition, within the bound reference.Agree states.
//
// The rules: [type]; [input-rank] signal of rank 3, last dim 1 or 2;
// [frame_step] a positive scalar; [window] 1-D; [frame_length] positive,
// given by the input or the window, equal when both are, and at most the
// signal's length; [size].

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("STFT", []int{17}, [2]int{2, 4}, [2]int{1, 1}, stftNode)
	declareAttrs("STFT", AttrSpec{Name: "onesided", Type: AttrInt})
}

// STFTShape checks an STFT's shapes and returns its output shape: xs the
// signal's, step frame_step, frameLength the input's value (-1 when
// absent), windowLength the window's length (-1 when absent).
func STFTShape(xs []int, step, frameLength int64, windowLength int, onesided bool) ([]int, error) {
	op := opRef{"STFT", 17}
	if len(xs) != 3 || (xs[2] != 1 && xs[2] != 2) {
		return nil, op.errorf("input-rank", "signal has shape %v, expected [batch, length, 1 or 2]", xs)
	}
	if step < 1 || step > maxDFTLength {
		return nil, op.errorf("frame_step", "frame_step %d is not positive", step)
	}
	switch {
	case frameLength < 0 && windowLength < 0:
		return nil, op.errorf("frame_length", "neither frame_length nor window is given")
	case frameLength < 0:
		frameLength = int64(windowLength)
	case windowLength >= 0 && int64(windowLength) != frameLength:
		return nil, op.errorf("frame_length", "frame_length %d differs from the window's length %d", frameLength, windowLength)
	}
	if frameLength < 1 || frameLength > int64(xs[1]) {
		return nil, op.errorf("frame_length", "frame_length %d is outside [1, %d] (the signal's length)", frameLength, xs[1])
	}
	frames := (int64(xs[1])-frameLength)/step + 1
	bins := frameLength
	if onesided {
		bins = frameLength/2 + 1
	}
	return []int{xs[0], int(frames), int(bins), 2}, nil
}

func stftNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	opt = opt.orDefault()
	x, err := n.requiredInput(in, 0, "signal")
	if err != nil {
		return nil, err
	}
	if !dftFloatTypeOK(x.DataType()) {
		return nil, op.errorf("type", "signal is %v, expected a float type", x.DataType())
	}
	step, ok, err := n.scalarIntInput(in, 1, "frame_step", "frame_step")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, op.errorf("frame_step", "frame_step is required")
	}
	w, err := n.tensorInput(in, 2)
	if err != nil {
		return nil, err
	}
	windowLength := -1
	if w != nil {
		if w.DataType() != x.DataType() {
			return nil, op.errorf("type", "window is %v, signal %v", w.DataType(), x.DataType())
		}
		if w.Rank() != 1 {
			return nil, op.errorf("window", "window has shape %v, expected 1-D", w.Shape())
		}
		windowLength = w.Len()
	}
	frameLength, ok, err := n.scalarIntInput(in, 3, "frame_length", "frame_length")
	if err != nil {
		return nil, err
	}
	if !ok {
		frameLength = -1
	}
	one, err := n.Int("onesided", 1)
	if err != nil {
		return nil, err
	}
	xs := x.Shape()
	shape, err := STFTShape(xs, step, frameLength, windowLength, one != 0)
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
	xv, err := convFloatsIn[float64](opt, op, x, "signal")
	if err != nil {
		return nil, convErr(op, err)
	}
	var wv []float64
	if w != nil {
		if wv, err = convFloatsIn[float64](opt, op, w, "window"); err != nil {
			return nil, convErr(op, err)
		}
	}
	length, comps := xs[1], xs[2]
	frames, bins := shape[1], shape[2]
	fl := int(max(frameLength, int64(windowLength)))
	plan, err := newSignalPlan(opt, op, fl)
	if err != nil {
		return nil, err
	}
	err = computeFloat64s(opt, op, y, func(out []float64) error {
		return runLines(opt, op, xs[0]*frames, fl, func(line int, re, im, scratch []float64) {
			b, f := line/frames, line%frames
			start := (b*length + f*int(step)) * comps
			for k := range fl {
				re[k], im[k] = xv[start+k*comps], 0
				if comps == 2 {
					im[k] = xv[start+k*comps+1]
				}
				if wv != nil {
					re[k], im[k] = re[k]*wv[k], im[k]*wv[k]
				}
			}
			plan.Transform(re, im, false, scratch)
			o := out[line*bins*2:]
			for k := range bins {
				o[2*k], o[2*k+1] = re[k], im[k]
			}
		})
	})
	if err != nil {
		return nil, convErr(op, err)
	}
	return values(y), nil
}
