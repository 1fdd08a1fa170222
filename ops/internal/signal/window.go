package signal

import "math"

// CosineSum fills v with the window w(n) = a0 - a1 cos(2πn/N) + a2 cos(4πn/N),
// n = 0 .. len(v)-1, of HannWindow, HammingWindow and BlackmanWindow, with
// N = len(v) when periodic and len(v)-1 otherwise. A symmetric window of
// length 1 is [1], as torch's windows (the formula divides 0 by 0 there).
func CosineSum(v []float64, a0, a1, a2 float64, periodic bool) {
	period := float64(len(v))
	if !periodic {
		period--
	}
	for i := range v {
		if period == 0 {
			v[i] = 1
			continue
		}
		x := 2 * math.Pi * float64(i) / period
		v[i] = a0 - a1*math.Cos(x) + a2*math.Cos(2*x)
	}
}
