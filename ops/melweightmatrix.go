// MelWeightMatrix generates the [dft_length/2+1, num_mel_bins] matrix that
// maps a one-sided magnitude spectrum to mel bands: num_mel_bins+2 points
// spaced evenly on the mel scale (2595 log10(1 + f/700)) between
// lower_edge_hertz and upper_edge_hertz, with the step (high-low) /
// (num_mel_bins+2) of the ONNX reference evaluator (which the node test
// expects), each mapped back to hertz and to a spectrogram bin
// floor((dft_length+1) f / sample_rate); band i is the triangle rising
// from bin[i] to 1 at bin[i+1] and falling to bin[i+2] (a band whose
// rising edge is empty is 1 at its centre).
//
// Version 17. num_mel_bins, dft_length and sample_rate int32 or int64
// scalars; the edges float, double, float16 or bfloat16 scalars;
// output_datatype any numeric type (float by default; integers truncated,
// as the window generators). Computed in float64, each value rounded once.
//
// The rules: [type]; [num_mel_bins], [dft_length], [sample_rate] positive
// scalars; [edges] finite, 0 <= lower <= upper, every band's bins inside
// the spectrogram; [output_datatype]; [size].

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("MelWeightMatrix", []int{17}, [2]int{5, 5}, [2]int{1, 1}, melWeightMatrixNode)
	declareAttrs("MelWeightMatrix", AttrSpec{Name: "output_datatype", Type: AttrInt})
}

func melWeightMatrixNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	opt = opt.orDefault()
	var ints [3]int64
	for i, name := range []string{"num_mel_bins", "dft_length", "sample_rate"} {
		v, ok, err := n.scalarIntInput(in, i, name, name)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, op.errorf(name, "%s is required", name)
		}
		if v < 1 || v > maxDFTLength {
			return nil, op.errorf(name, "%s %d is outside [1, %d]", name, v, int64(maxDFTLength))
		}
		ints[i] = v
	}
	var edges [2]float64
	for i, name := range []string{"lower_edge_hertz", "upper_edge_hertz"} {
		t, err := n.requiredInput(in, 3+i, name)
		if err != nil {
			return nil, err
		}
		if !dftFloatTypeOK(t.DataType()) || t.Len() != 1 || t.Rank() > 1 {
			return nil, op.errorf("type", "%s must be a float scalar, got %s", name, t.Describe())
		}
		v := make([]float64, 1)
		convert.DecodeFloats(v, t, 0)
		edges[i] = v[0]
	}
	dt, err := n.Int("output_datatype", int64(tensor.Float))
	if err != nil {
		return nil, err
	}
	out := tensor.DataType(dt)
	if !numericType(out) || castTypeSince(out) > 17 {
		return nil, op.errorf("output_datatype", "output_datatype %d is not a numeric type", dt)
	}
	mels, dftLength, rate := int(ints[0]), int(ints[1]), float64(ints[2])
	spectrum := dftLength/2 + 1
	if err := opt.checkSize(op, out, []int{spectrum, mels}); err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "the bands' bins", mels+2, 8); err != nil {
		return nil, err
	}
	bins, err := melBins(op, mels, dftLength, rate, edges[0], edges[1])
	if err != nil {
		return nil, err
	}
	y, err := opt.newTensor(op, out, []int{spectrum, mels})
	if err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "the weights in float64", y.Len(), 8); err != nil {
		return nil, err
	}
	w := make([]float64, y.Len())
	c := opt.canceller()
	for i := range mels {
		if c.Stop(bins[i+2] - bins[i] + 1) {
			return nil, op.stopped(c.Err)
		}
		lo, mid, hi := bins[i], bins[i+1], bins[i+2]
		if mid == lo {
			w[mid*mels+i] = 1
		} else {
			for j := lo; j <= mid; j++ {
				w[j*mels+i] = float64(j-lo) / float64(mid-lo)
			}
		}
		for j := mid; j < hi; j++ {
			w[j*mels+i] = float64(hi-j) / float64(hi-mid)
		}
	}
	convert.EncodeFloats(y, 0, w, convert.DefaultCast)
	return values(y), nil
}

// melBins returns the num_mel_bins+2 spectrogram bins of the bands' edges
// and centres, each checked to lie in the spectrogram.
func melBins(op opRef, mels, dftLength int, rate, lower, upper float64) ([]int, error) {
	if math.IsNaN(lower) || math.IsNaN(upper) || math.IsInf(lower, 0) || math.IsInf(upper, 0) || lower < 0 || upper < lower {
		return nil, op.errorf("edges", "lower_edge_hertz %v and upper_edge_hertz %v must be finite with 0 <= lower <= upper", lower, upper)
	}
	spectrum := dftLength/2 + 1
	low := 2595 * math.Log10(1+lower/700)
	high := 2595 * math.Log10(1+upper/700)
	step := (high - low) / float64(mels+2)
	bins := make([]int, mels+2)
	for i := range bins {
		f := 700 * (math.Pow(10, (float64(i)*step+low)/2595) - 1)
		b := math.Floor(float64(dftLength+1) * f / rate)
		if b < 0 || b >= float64(spectrum) {
			return nil, op.errorf("edges", "mel point %d falls in bin %v, outside the spectrogram's %d bins (upper_edge_hertz above sample_rate/2?)", i, b, spectrum)
		}
		bins[i] = int(b)
	}
	return bins, nil
}
