package ops

import (
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The losses on values small enough to check by hand: a gathered
// -input times the weight, ignore_index's elements left out of the
// weighted mean, and SoftmaxCrossEntropyLoss of two equal scores being
// log 2 per element.
func TestLosses(t *testing.T) {
	input := tensor.MustFromSlice([]float32{-1, -2, -3, -4, -5, -6}, 2, 3) // N=2, C=3
	target := tensor.MustFromSlice([]int64{2, 0}, 2)
	weight := tensor.MustFromSlice([]float32{0.5, 1, 2}, 3)
	for _, tc := range []struct {
		o      LossOptions
		weight *tensor.Tensor
		want   []float32
	}{
		{LossOptions{Reduction: "none"}, nil, []float32{3, 4}},
		{LossOptions{Reduction: "sum"}, nil, []float32{7}},
		{LossOptions{}, nil, []float32{3.5}},
		{LossOptions{Reduction: "none"}, weight, []float32{6, 2}},
		{LossOptions{}, weight, []float32{8 / 2.5}},
		{LossOptions{IgnoreIndex: 0, HasIgnoreIndex: true}, weight, []float32{3}},
		{LossOptions{IgnoreIndex: 0, HasIgnoreIndex: true}, nil, []float32{3}},
	} {
		y, err := NegativeLogLikelihoodLoss(input, target, tc.weight, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := tensor.Data[float32](y)
		if len(got) != len(tc.want) || got[0] != tc.want[0] || (len(got) > 1 && got[1] != tc.want[1]) {
			t.Errorf("%+v weight %v: %v, want %v", tc.o, tc.weight != nil, got, tc.want)
		}
	}
	scores := tensor.MustFromSlice([]float64{7, 7, 1, 1}, 2, 2)
	loss, logProb, err := SoftmaxCrossEntropyLoss(scores, tensor.MustFromSlice([]int32{0, 1}, 2), nil, LossOptions{Reduction: "sum"})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := tensor.Data[float64](loss)
	lp, _ := tensor.Data[float64](logProb)
	if l[0] != 2*math.Ln2 || lp[0] != -math.Ln2 || lp[3] != -math.Ln2 {
		t.Errorf("SoftmaxCrossEntropyLoss: loss %v, log_prob %v", l, lp)
	}
	// Refusals: one line each, under the rule broken.
	_, err = NegativeLogLikelihoodLoss(input, tensor.MustFromSlice([]int64{3, 0}, 2), nil, LossOptions{})
	wantRule(t, err, "target", "")
	_, err = NegativeLogLikelihoodLoss(input, tensor.MustFromSlice([]int64{0, 0, 0}, 3), nil, LossOptions{})
	wantRule(t, err, "shape", "")
	_, err = NegativeLogLikelihoodLoss(input, target, nil, LossOptions{Reduction: "max"})
	wantRule(t, err, "reduction", "")
	_, err = NegativeLogLikelihoodLoss(input, tensor.MustFromSlice([]float32{0, 0}, 2), nil, LossOptions{})
	wantRule(t, err, "type", "")
	_, _, err = SoftmaxCrossEntropyLoss(tensor.MustFromSlice([]float32{1}, 1), tensor.MustFromSlice([]int64{0}, 1), nil, LossOptions{})
	wantRule(t, err, "shape", "")
	_, err = runKernel(nil, "NegativeLogLikelihoodLoss", 13, 1, nil, tensor.MustNew(tensor.BFloat16, 2, 3), target)
	wantRule(t, err, "type", "")
}
