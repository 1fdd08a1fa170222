// The float32 algorithms of Sigmoid, Tanh, Erf, Exp, Log and the
// activations built on them (Softplus, Mish, Gelu, Swish, Elu, Selu, Celu)
// and of HardSigmoid, HardSwish and Softsign on float, float16 and
// bfloat16 tensors: the fast engine computes them in float32 with these
// very sequences of operations (ops/internal/mathf, whose package comment
// gives their accuracy in units in the last place of the exact value), so
// the two engines agree bit for bit. Written here once more, element by
// element, sharing nothing with the engine: every step one IEEE float32
// operation, a multiply-add fused (fma32, exp32.go) where the text says
// fma32, and the exponential exp32 (exp32.go), whose argument is clamped
// to [-104, 89] as exp32 does.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// sigmoid32 is 1/(1+e^-|x|) for x >= 0 and e^-|x|/(1+e^-|x|) below.
func sigmoid32(x float32) float32 {
	if x != x {
		return x
	}
	e := exp32(-float32(math.Abs(float64(x))))
	if x < 0 {
		return e / (1 + e)
	}
	return 1 / (1 + e)
}

// tanh32 is Cephes' tanhf: an odd polynomial below |x| = 0.625, above
// 1 - 2/(e^(2|x|)+1) with x's sign.
func tanh32(x float32) float32 {
	a := float32(math.Abs(float64(x)))
	if a < 0.625 {
		z := x * x
		p := float32(-5.70498872745e-3)
		for _, c := range []float32{2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1} {
			p = fma32(p, z, c)
		}
		return fma32(p*z, x, x)
	}
	if a != a {
		return x
	}
	t := 1 - 2/(exp32(2*a)+1)
	return float32(math.Copysign(float64(t), float64(x)))
}

// erf32 is x + x*p(x*x) below |x| = 0.921875, and above 1 - e^q(|x|) with
// x's sign, q a polynomial for log(erfc) on [0.921875, 4] (|x| no further
// than 4, where erf rounds to 1).
func erf32(x float32) float32 {
	a := float32(math.Abs(float64(x)))
	if a < 0.921875 {
		z := x * x
		p := float32(8.38759104571e-5)
		for _, c := range []float32{-8.14720209261e-4, 5.20146686897e-3, -2.68595923107e-2, 1.12836994257e-1, -3.76126340282e-1, 1.28379166670e-1} {
			p = fma32(p, z, c)
		}
		return fma32(p, x, x)
	}
	if a != a {
		return x
	}
	a = min(a, 4)
	q := float32(-5.21184012303e-8)
	for _, c := range []float32{2.7693390929e-6, -5.66940161122e-5, 6.53381910704e-4, -4.94692195984e-3, 2.68204710933e-2, -1.10626771597e-1, -6.31363716245e-1, -1.13045213904, 3.64150005894e-4} {
		q = fma32(q, a, c)
	}
	r := 1 - exp32(q)
	return float32(math.Copysign(float64(r), float64(x)))
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

// log32 is Cephes' logf: NaN and x < 0 give NaN, 0 gives -Inf, +Inf
// itself. Otherwise x = 2^k * m with m in [sqrt(1/2), sqrt(2)) (a
// subnormal x multiplied by 2^23 first, k lowered by 23), f = m - 1
// (exact), and log x = k*ln2 + f - f^2/2 + f^3*P(f): y = (P(f)*f)*f^2,
// y = fma32(k, ln2Lo, y), y = fma32(-1/2, f^2, y), r = f + y, and
// fma32(k, ln2Hi, r), ln2Hi and ln2Lo exp32's.
func log32(x float32) float32 {
	switch {
	case x != x || x < 0:
		return float32(math.NaN())
	case x == 0:
		return float32(math.Inf(-1))
	case math.IsInf(float64(x), 1):
		return x
	}
	k := int32(0)
	if x < 0x1p-126 {
		x *= 0x1p23
		k = -23
	}
	bits := math.Float32bits(x)
	k += int32(bits>>23) - 126
	m := math.Float32frombits(bits&0x007fffff | 0x3f000000) // in [1/2, 1)
	if m < float32(0.707106781186547524) {
		k--
		m = m + m
	}
	f := m - 1
	z := f * f
	p := float32(7.0376836292e-2)
	for _, c := range []float32{-1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1} {
		p = fma32(p, f, c)
	}
	y := float32(p*f) * z
	fk := float32(k)
	y = fma32(fk, -2.12194440e-4, y)
	y = fma32(-0.5, z, y)
	r := f + y
	return fma32(fk, 0.693359375, r)
}

// expm1_32 is e^x - 1: x clamped as exp32 clamps it and k = round(x*log2
// e) as exp32 computes it; where k is not 0, exp32(x) - 1; where it is 0
// (then r = x), exp32's Horner steps but the last, q, and q*x.
func expm1_32(x float32) float32 {
	if x != x {
		return x
	}
	x = min(max(x, -104), 89)
	const round = float32(12582912)
	if k := fma32(x, 1.44269504088896341, round) - round; k != 0 {
		return exp32(x) - 1
	}
	q := float32(1.9875691500e-4)
	for _, c := range []float32{1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1, 1} {
		q = fma32(q, x, c)
	}
	return q * x
}

// softplus32 is log(1+e^x) = max(x, 0) + log1p(e^-|x|): e = exp32(-|x|),
// w = 1 + e, t = e where w is 1, log32(w) * (e/(w-1)) elsewhere
// (Goldberg's log1p), and (x if x > 0, else 0) + t.
func softplus32(x float32) float32 {
	if x != x {
		return x
	}
	e := exp32(-float32(math.Abs(float64(x))))
	w := 1 + e
	t := e
	if w != 1 {
		t = log32(w) * (e / (w - 1))
	}
	if x > 0 {
		return x + t
	}
	return 0 + t
}

// mish32 is x * tanh32(softplus32(x)).
func mish32(x float32) float32 {
	if x != x {
		return x
	}
	return x * tanh32(softplus32(x))
}

// gelu32 is x/2 * (1 + erf(x/sqrt 2)) as fma32(h, erf32(x * 1/sqrt2), h),
// h = x/2.
func gelu32(x float32) float32 {
	if x != x {
		return x
	}
	h := x / 2
	return fma32(h, erf32(x*float32(1/math.Sqrt2)), h)
}

// geluTanh32 is x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))): c = x
// clamped to [-10, 10] (where the tanh is ±1 already), w = fma32(0.044715
// * (c*c), c, c), h = x/2, and fma32(h, tanh32(sqrt(2/pi) * w), h).
func geluTanh32(x float32) float32 {
	if x != x {
		return x
	}
	c := min(max(x, -10), 10)
	w := fma32(float32(0.044715)*float32(c*c), c, c)
	h := x / 2
	return fma32(h, tanh32(float32(math.Sqrt(2/math.Pi))*w), h)
}

// swish32 is x * sigmoid32(alpha*x).
func swish32(x, alpha float32) float32 {
	if x != x {
		return x
	}
	return x * sigmoid32(alpha*x)
}

// elu32 is alpha * expm1_32(x) for x < 0, x elsewhere.
func elu32(x, alpha float32) float32 {
	if x < 0 {
		return alpha * expm1_32(x)
	}
	return x
}

// selu32 is gamma*x for x > 0, gamma * (alpha * expm1_32(x)) elsewhere.
func selu32(x, alpha, gamma float32) float32 {
	if x > 0 {
		return gamma * x
	}
	return gamma * float32(alpha*expm1_32(x))
}

// celu32 is max(0, x) + min(0, alpha * expm1_32(x/alpha)): x + 0 for x >=
// 0 (the second term is 0 there), alpha * expm1_32(x/alpha) below (the
// first is).
func celu32(x, alpha float32) float32 {
	if x != x {
		return x
	}
	if x >= 0 {
		return x + 0
	}
	return alpha * expm1_32(x/alpha)
}

// hardSigmoid32 is fma32(alpha, x, beta) clamped to [0, 1].
func hardSigmoid32(x, alpha, beta float32) float32 {
	y := fma32(alpha, x, beta)
	switch {
	case y < 0:
		return 0
	case y > 1:
		return 1
	}
	return y
}

// hardSwish32 is x * max(0, min(1, x/6 + 1/2)), with x/6 + 1/2 computed as
// (x+3)/6.
func hardSwish32(x float32) float32 {
	h := (x + 3) / 6
	switch {
	case h < 0:
		h = 0
	case h > 1:
		h = 1
	}
	return x * h
}

// softsign32 is x / (1 + |x|).
func softsign32(x float32) float32 {
	return x / (1 + float32(math.Abs(float64(x))))
}

// float32Unary is float32Function for an operator with attributes (and
// e's rules): f32 of the node and x for float, float16 and bfloat16, f64
// for double.
func float32Unary(e elementwiseOp, f32 func(c call, x float32) float32, f64 func(c call, x scalar) scalar) ops.Kernel {
	k32 := e.unary(func(c call, x scalar) scalar { return floatOf(float64(f32(c, float32(x.f)))) })
	k64 := e.unary(f64)
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
