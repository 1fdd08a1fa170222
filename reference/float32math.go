// The float32 algorithms of Sigmoid, Tanh and Erf on float, float16 and
// bfloat16 tensors: the fast engine computes them in float32 with these
// very sequences of operations (ops/internal/mathf, whose package comment
// gives their accuracy: at most 3, 2 and 1.5 units in the last place of
// the exact value), so the two engines agree bit for bit. Written here
// once more, element by element, sharing nothing with the engine: every
// step one IEEE float32 operation, a multiply-add fused (fma32, exp32.go)
// where the text says fma32, and the exponential exp32 (exp32.go), whose
// argument is clamped to [-104, 89] as exp32 does.

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
