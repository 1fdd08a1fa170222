package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// signalBound returns the bound Agree states for DFT and STFT, whose fast
// engine transforms by FFT (radix 2, or Bluestein's three FFTs of length
// m < 4n) and the reference by the definition, both in float64, each
// output rounded once. Each element must lie within
//
//	2*e*|ref| + 64*(n+m)*2^-53*S + t
//
// of the reference: n the transform's length (dft_length, frame_length or
// the signal's), m the largest power of two below 4n, S = n*M with M the
// largest finite |element| of the signal times that of the window (STFT),
// e the unit roundoff of the output type (2^-24 float, 2^-11 float16,
// 2^-8 bfloat16, 2^-53 double: the two float64 values may round to
// neighbours) and t its smallest positive subnormal. It holds for finite
// signals: an FFT spreads a NaN or an infinity to other outputs than the
// definition does, and the random tests draw finite signals only.
func signalBound(n *ops.Node, in []tensor.Value, dt tensor.DataType) (func(int) float64, []float64, bool) {
	if n.OpType != "DFT" && n.OpType != "STFT" {
		return nil, nil, false
	}
	var e, tiny float64
	switch dt {
	case tensor.Float:
		e, tiny = 0x1p-24, 0x1p-149
	case tensor.Float16:
		e, tiny = 0x1p-11, 0x1p-24
	case tensor.BFloat16:
		e, tiny = 0x1p-8, 0x1p-133
	case tensor.Double:
		e, tiny = 0x1p-53, 0x1p-1074
	default:
		return nil, nil, false
	}
	largest := func(i int) (float64, bool) {
		if i >= len(in) {
			return 1, true
		}
		t, ok := in[i].(*tensor.Tensor)
		if !ok || t == nil {
			return 1, true
		}
		v, err := t.Float64s()
		if err != nil {
			return 0, false
		}
		m := 0.0
		for _, x := range v {
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				m = max(m, math.Abs(x))
			}
		}
		return m, true
	}
	x, ok := in[0].(*tensor.Tensor)
	if !ok || x == nil {
		return nil, nil, false
	}
	M, ok := largest(0)
	if !ok {
		return nil, nil, false
	}
	length := 0
	if n.OpType == "STFT" {
		w, ok := largest(2)
		if !ok {
			return nil, nil, false
		}
		M *= w
		length = x.Shape()[1]
		if len(in) > 2 {
			if t, ok := in[2].(*tensor.Tensor); ok && t != nil && t.Len() > 0 {
				length = t.Len()
			}
		}
		if len(in) > 3 {
			if t, ok := in[3].(*tensor.Tensor); ok && t != nil {
				if v, err := t.Int64s(); err == nil && len(v) == 1 {
					length = int(v[0])
				}
			}
		}
	} else {
		for _, d := range x.Shape() {
			length = max(length, 2*d)
		}
		if len(in) > 1 {
			if t, ok := in[1].(*tensor.Tensor); ok && t != nil {
				if v, err := t.Int64s(); err == nil && len(v) == 1 {
					length = max(length, int(v[0]))
				}
			}
		}
	}
	nf := float64(max(length, 1))
	m := 4 * nf
	abs := 64 * (nf + m) * 0x1p-53 * nf * M
	return func(i int) float64 { return abs + tiny }, []float64{2 * e}, true
}

// signalNotFinite reports a DFT or STFT whose signal or window holds a NaN
// or an infinity: there an FFT and the definition spread the non-finite
// values to different outputs (an infinity times a twiddle factor's tiny
// sine is infinite, and two of them of opposite signs make NaN), and
// signalBound makes no claim.
func signalNotFinite(n *ops.Node, in []tensor.Value) bool {
	if n.OpType != "DFT" && n.OpType != "STFT" {
		return false
	}
	for i, v := range in {
		if i != 0 && !(n.OpType == "STFT" && i == 2) {
			continue
		}
		t, ok := v.(*tensor.Tensor)
		if !ok || t == nil {
			continue
		}
		f, err := t.Float64s()
		if err != nil {
			continue
		}
		for _, x := range f {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return true
			}
		}
	}
	return false
}
