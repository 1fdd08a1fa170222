// STFT (17), after the ONNX specification: "Computes the Short-time
// Fourier Transform of the signal." signal is [batch_size][signal_length][1]
// (real) or [2] (complex); "frame_step: The number of samples to step
// between successive DFTs"; "window: A tensor representing the window
// that will be slid over the signal. The window must have rank 1 with
// shape: [window_shape]"; "frame_length: A scalar representing the size
// of the DFT"; "onesided: If onesided is 1, only values for w in [0, 1,
// 2, ..., floor(n_fft/2) + 1] are returned" (default 1). The output is
// "[batch_size][frames][dft_unique_bins][2], where frames =
// ((signal_length - frame_length) / frame_step) + 1": Y[b, f, k] =
// sum_{t < frame_length} x[b, f*frame_step + t] w[t] e^{-2πj kt/frame_length}.
// Summed in float64 in the order of the definition, rounded once.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("STFT", []int{17}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "signal")
		if err != nil {
			return nil, err
		}
		if !signalType(x.DataType()) {
			return nil, op.errorf("type", "signal is %v", x.DataType())
		}
		step, ok, err := scalarInput(op, in, 1, "frame_step")
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, op.errorf("frame_step", "absent")
		}
		w, err := optionalInput(op, in, 2)
		if err != nil {
			return nil, err
		}
		if w != nil && w.DataType() != x.DataType() {
			return nil, op.errorf("type", "window %v, signal %v", w.DataType(), x.DataType())
		}
		if w != nil && w.Rank() != 1 {
			return nil, op.errorf("window", "window %v", w.Shape())
		}
		frameLength, hasLength, err := scalarInput(op, in, 3, "frame_length")
		if err != nil {
			return nil, err
		}
		onesided, err := n.Int("onesided", 1)
		if err != nil {
			return nil, err
		}
		xs := x.Shape()
		if len(xs) != 3 || (xs[2] != 1 && xs[2] != 2) {
			return nil, op.errorf("input-rank", "signal %v", xs)
		}
		if step < 1 || step > 1<<40 {
			return nil, op.errorf("frame_step", "frame_step %d", step)
		}
		switch {
		case !hasLength && w == nil:
			return nil, op.errorf("frame_length", "no frame_length, no window")
		case !hasLength:
			frameLength = int64(w.Len())
		case w != nil && int64(w.Len()) != frameLength:
			return nil, op.errorf("frame_length", "frame_length %d, window %d", frameLength, w.Len())
		}
		if frameLength < 1 || frameLength > int64(xs[1]) {
			return nil, op.errorf("frame_length", "frame_length %d for %d samples", frameLength, xs[1])
		}
		N := int(frameLength)
		frames := (xs[1]-N)/int(step) + 1
		bins := N
		if onesided != 0 {
			bins = N/2 + 1
		}
		shape := []int{xs[0], frames, bins, 2}
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
		xv := computeElements[float64](x)
		var wv []float64
		if w != nil {
			wv = computeElements[float64](w)
		}
		out := make([]float64, y.Len())
		forEachIndex(shape, func(flat int, idx []int) {
			b, f, k := idx[0], idx[1], idx[2]
			var s complex128
			for t := range N {
				p := (b*xs[1] + f*int(step) + t) * xs[2]
				v := complex(xv[p], 0)
				if xs[2] == 2 {
					v = complex(xv[p], xv[p+1])
				}
				if wv != nil {
					v = complex(real(v)*wv[t], imag(v)*wv[t])
				}
				angle := -2 * math.Pi * float64((k*t)%N) / float64(N)
				s += v * complex(math.Cos(angle), math.Sin(angle))
			}
			if idx[3] == 0 {
				out[flat] = real(s)
			} else {
				out[flat] = imag(s)
			}
		})
		return values(computeTensor(x.DataType(), shape, out)), nil
	})
}
