package reduce

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/poll"
)

// LogSoftmaxAxis1 returns the log-softmax of scores along axis 1 ([N, C,
// D] in float64): (x - m) - log(sum of exp(x - m)), m the largest element
// of the slice, the sum in the order of c (SoftmaxCrossEntropyLoss); nil when the run is cancelled
// (cc.Err).
func LogSoftmaxAxis1(cc *poll.Canceller, x []float64, n, c, d int) []float64 {
	out := make([]float64, len(x))
	for i := range n {
		if cc.Stop(c * d) {
			return nil
		}
		for j := range d {
			m := math.Inf(-1)
			for k := range c {
				m = math.Max(m, x[(i*c+k)*d+j])
			}
			s := 0.0
			for k := range c {
				s += math.Exp(x[(i*c+k)*d+j] - m)
			}
			ls := math.Log(s)
			for k := range c {
				out[(i*c+k)*d+j] = x[(i*c+k)*d+j] - m - ls
			}
		}
	}
	return out
}
