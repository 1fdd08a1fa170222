// The float32 algorithms of Sigmoid, Tanh and Erf on float, float16 and
// bfloat16 tensors: the fast engine computes them in float32 with these
// very sequences of operations (ops/internal/mathf, whose package comment
// gives their accuracy: at most 3, 2 and 1.5 units in the last place of
// the exact value), so the two engines agree bit for bit. Written here
// once more, element by element, sharing nothing with the engine: every
// step a float32 operation rounded on its own (an explicit float32()
// keeps Go from fusing a multiply and an add).

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// expUnfused32 is e^x by exp32's steps (exp32.go: Cody and Waite's
// reduction, Cephes' expf polynomial, 2^k in two halves) with each
// multiply and add rounded on its own instead of fused: the exponential
// of the recurrent cells and of these functions (at most 0.96 ulps).
func expUnfused32(x float32) float32 {
	if x != x {
		return x
	}
	x = min(max(x, -104), 89) // e^x underflows below, overflows above
	k := float32(float32(x*1.44269504088896341)+12582912) - 12582912
	r := x - float32(k*0.693359375)
	r = r - float32(k*-2.12194440e-4)
	p := float32(1.9875691500e-4)
	p = float32(p*r) + 1.3981999507e-3
	p = float32(p*r) + 8.3334519073e-3
	p = float32(p*r) + 4.1665795894e-2
	p = float32(p*r) + 1.6666665459e-1
	p = float32(p*r) + 5.0000001201e-1
	p = float32(float32(p*float32(r*r))+r) + 1
	k1 := int32(k) >> 1
	k2 := int32(k) - k1
	return float32(p*math.Float32frombits(uint32(k1+127)<<23)) * math.Float32frombits(uint32(k2+127)<<23)
}

// sigmoid32 is 1/(1+e^-|x|) for x >= 0 and e^x/(1+e^x) below, e^-|x|
// computed once.
func sigmoid32(x float32) float32 {
	if x != x {
		return x
	}
	a := x
	if a > 0 {
		a = -a
	}
	e := expUnfused32(a)
	if x >= 0 {
		return 1 / (1 + e)
	}
	return e / (1 + e)
}

// tanh32 is Cephes' tanhf: an odd polynomial below |x| = 0.625, above
// 1 - 2/(e^(2|x|)+1) with x's sign.
func tanh32(x float32) float32 {
	a := x
	if a < 0 {
		a = -a
	}
	if a < 0.625 {
		z := x * x
		p := float32(-5.70498872745e-3)
		p = float32(p*z) + 2.06390887954e-2
		p = float32(p*z) - 5.37397155531e-2
		p = float32(p*z) + 1.33314422036e-1
		p = float32(p*z) - 3.33332819422e-1
		return float32(float32(p*z)*x) + x
	}
	if a != a {
		return x
	}
	t := 1 - 2/(expUnfused32(2*a)+1)
	if x < 0 {
		return -t
	}
	return t
}

// erf32 is x + x*p(x*x) below |x| = 0.921875, and above 1 - e^q(|x|) with
// x's sign, q a polynomial for log(erfc) on [0.921875, 4] (|x| no further
// than 4, where erf rounds to 1).
func erf32(x float32) float32 {
	a := math.Float32frombits(math.Float32bits(x) &^ (1 << 31))
	if a < 0.921875 {
		z := x * x
		p := float32(8.38759104571e-5)
		p = float32(p*z) - 8.14720209261e-4
		p = float32(p*z) + 5.20146686897e-3
		p = float32(p*z) - 2.68595923107e-2
		p = float32(p*z) + 1.12836994257e-1
		p = float32(p*z) - 3.76126340282e-1
		p = float32(p*z) + 1.28379166670e-1
		return float32(p*x) + x
	}
	a = min(a, 4)
	q := float32(-5.21184012303e-8)
	q = float32(q*a) + 2.7693390929e-6
	q = float32(q*a) - 5.66940161122e-5
	q = float32(q*a) + 6.53381910704e-4
	q = float32(q*a) - 4.94692195984e-3
	q = float32(q*a) + 2.68204710933e-2
	q = float32(q*a) - 1.10626771597e-1
	q = float32(q*a) - 6.31363716245e-1
	q = float32(q*a) - 1.13045213904
	q = float32(q*a) + 3.64150005894e-4
	r := 1 - expUnfused32(q)
	return math.Float32frombits(math.Float32bits(r) | math.Float32bits(x)&(1<<31))
}

// float32Function is the unary kernel of an operator whose float,
// float16 and bfloat16 elements go through the float32 algorithm f32
// (rounded to the 16-bit types once), and whose other elements (double;
// Erf-9's integers) through f64 in float64.
func float32Function(f32 func(float32) float32, f64 func(float64) float64) ops.Kernel {
	k32 := unaryKernel(func(_ call, x scalar) scalar { return floatOf(float64(f32(float32(x.f)))) })
	k64 := unaryKernel(func(_ call, x scalar) scalar { return floatOf(f64(realOf(x))) })
	return func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		if len(in) > 0 {
			if x, ok := in[0].(*tensor.Tensor); ok && x != nil {
				switch x.DataType() {
				case tensor.Float, tensor.Float16, tensor.BFloat16:
					return k32(opt, n, in)
				}
			}
		}
		return k64(opt, n, in)
	}
}
