// MelWeightMatrix (17), after the ONNX specification ("Generate a
// MelWeightMatrix that can be used to re-weight a Tensor containing a
// linearly sampled frequency spectra (from DFT or STFT) into num_mel_bins
// frequency information based on the [lower_edge_hertz, upper_edge_hertz]
// range on the mel scale") and its reference evaluator,
// op_mel_weight_matrix.py: num_spectrogram_bins = dft_length // 2 + 1;
// num_mel_bins + 2 points k*mel_step + low_mel, mel(f) = 2595 log10(1 +
// f/700), mel_step = (high_mel - low_mel) / (num_mel_bins + 2); each back
// to hertz, 700 (10^(m/2595) - 1), and to the bin ((dft_length + 1) f) //
// sample_rate; output[j, i] rises from 0 at bin[i] to 1 at bin[i+1] (or is
// 1 at bin[i+1] when the two are equal) and falls to 0 at bin[i+2]. The
// output has output_datatype (float by default), converted as Cast does
// from float64. A point outside the spectrogram (which the evaluator
// indexes out of range) is refused, as are non-finite or negative edges.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("MelWeightMatrix", []int{17}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		var ints [3]int64
		for i, name := range []string{"num_mel_bins", "dft_length", "sample_rate"} {
			v, ok, err := scalarInput(op, in, i, name)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, op.errorf(name, "%s absent", name)
			}
			if v < 1 || v > 1<<40 {
				return nil, op.errorf(name, "%s %d", name, v)
			}
			ints[i] = v
		}
		var edges [2]float64
		for i, name := range []string{"lower_edge_hertz", "upper_edge_hertz"} {
			t, err := requiredInput(op, in, 3+i, name)
			if err != nil {
				return nil, err
			}
			if !signalType(t.DataType()) || t.Len() != 1 || t.Rank() > 1 {
				return nil, op.errorf("type", "%s %s", name, t.Describe())
			}
			edges[i] = computeElements[float64](t)[0]
		}
		dt, err := n.Int("output_datatype", int64(tensor.Float))
		if err != nil {
			return nil, err
		}
		out := tensor.DataType(dt)
		if !(out.IsFloat() || out.IsInteger()) || castFirstVersion(out) > 17 {
			return nil, op.errorf("output_datatype", "output_datatype %d", dt)
		}
		mels, dftLength, rate := int(ints[0]), int(ints[1]), float64(ints[2])
		spectrogramBins := dftLength/2 + 1
		if err := checkSize(opt, op, out, []int{spectrogramBins, mels}); err != nil {
			return nil, err
		}
		lower, upper := edges[0], edges[1]
		if math.IsNaN(lower) || math.IsNaN(upper) || math.IsInf(lower, 0) || math.IsInf(upper, 0) || lower < 0 || upper < lower {
			return nil, op.errorf("edges", "lower %v, upper %v", lower, upper)
		}
		lowMel := 2595 * math.Log10(1+lower/700)
		highMel := 2595 * math.Log10(1+upper/700)
		melStep := (highMel - lowMel) / float64(mels+2)
		bin := make([]int, mels+2)
		for k := range bin {
			f := 700 * (math.Pow(10, (float64(k)*melStep+lowMel)/2595) - 1)
			b := math.Floor(float64(dftLength+1) * f / rate)
			if b < 0 || b >= float64(spectrogramBins) {
				return nil, op.errorf("edges", "point %d in bin %v of %d", k, b, spectrogramBins)
			}
			bin[k] = int(b)
		}
		y, err := newTensor(opt, op, out, []int{spectrogramBins, mels})
		if err != nil {
			return nil, err
		}
		w := make([]float64, y.Len())
		for i := range mels {
			left, center, right := bin[i], bin[i+1], bin[i+2]
			if center == left {
				w[center*mels+i] = 1
			} else {
				for j := left; j <= center; j++ {
					w[j*mels+i] = float64(j-left) / float64(center-left)
				}
			}
			for j := center; j < right; j++ {
				w[j*mels+i] = float64(right-j) / float64(right-center)
			}
		}
		for i, v := range w {
			storeValue(y, y, i, number{kind: 'f', f: v}, castAttrs{saturate: true, roundMode: "up"})
		}
		return values(y), nil
	})
}
