package mathf

import "math"

// The functions built on Exp, Log, Sigmoid, Tanh and Erf, and the
// piecewise-linear activations: each a fixed sequence of float32
// operations (fma32 where the text says so), its slice form (ExpsTo,
// LogsTo, ... LeakyRelusTo) the same bits through an AVX2 loop of
// mathf_amd64.s on amd64 and the Go loops below elsewhere (loops_*.go
// dispatch). reference/float32math.go states each once more.

const (
	minNormal = float32(0x1p-126)              // below, Log scales x by 2^23 first
	sqrtHalf  = float32(0.707106781186547524)  // Log's mantissa is reduced to [sqrtHalf, 2*sqrtHalf)
	geluS     = float32(0.7071067811865475244) // 1/sqrt(2)
	geluC     = float32(0.044715)              // Gelu's tanh approximation: the cubic term
	geluK     = float32(0.7978845608028654)    // sqrt(2/pi)
	geluClamp = float32(10)                    // GeluTanh's tanh is ±1 beyond |x| = 10 (its argument beyond 43)
)

// logP is Cephes' logf polynomial (Moshier), highest degree first.
var logP = [9]float32{7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1}

// Log returns the natural logarithm: Cephes' logf. x = 2^k * m, m in
// [sqrt(1/2), sqrt(2)) (a subnormal x scaled by 2^23 first), f = m - 1
// exactly, log(1+f) = f - f^2/2 + f^3*P(f), and k*ln2 added in two parts
// (ln2Hi + ln2Lo, Exp's). Log(0) = -Inf, Log(x < 0) = NaN, Log(+Inf) = +Inf.
func Log(x float32) float32 {
	switch {
	case x != x:
		return x
	case x < 0:
		return float32(math.NaN())
	case x == 0:
		return float32(math.Inf(-1))
	case x > math.MaxFloat32:
		return x
	}
	k := int32(0)
	if x < minNormal {
		x *= 0x1p23
		k = -23
	}
	b := math.Float32bits(x)
	k += int32(b>>23) - 126
	m := math.Float32frombits(b&0x007fffff | 0x3f000000)
	if m < sqrtHalf {
		k--
		m = m + m
	}
	f := m - 1
	z := f * f
	p := logP[0]
	for _, c := range logP[1:] {
		p = fma32(p, f, c)
	}
	y := float32(p*f) * z
	ek := float32(k)
	y = fma32(ek, ln2Lo, y)
	y = fma32(-0.5, z, y)
	r := f + y
	return fma32(ek, ln2Hi, r)
}

// Expm1 returns e^x - 1: where Exp's reduction leaves k = 0 (|x| below
// about ln2/2, r = x), Exp's polynomial stopped one step short, q, times
// x (so that no 1 is added and taken away again); elsewhere Exp(x) - 1.
func Expm1(x float32) float32 {
	if x != x {
		return x
	}
	x = min(max(x, expMin), expMax)
	k := fma32(x, log2e, round) - round
	if k != 0 {
		return Exp(x) - 1
	}
	r := fma32(-k, ln2Hi, x)
	r = fma32(-k, ln2Lo, r)
	q := expP[0]
	for _, c := range expP[1:7] {
		q = fma32(q, r, c)
	}
	return q * x // x, not r: the same number, but -0 stays -0
}

// Softplus returns log(1+e^x) as (x > 0 ? x : 0) + log1p(e^-|x|), log1p(e)
// by Goldberg's w = 1+e, log(w) * e/(w-1) (e itself where w rounds to 1).
func Softplus(x float32) float32 {
	if x != x {
		return x
	}
	e := Exp(math.Float32frombits(math.Float32bits(x) | 1<<31))
	w := 1 + e
	t := e
	if w != 1 {
		t = Log(w) * (e / (w - 1))
	}
	m := float32(0)
	if x > 0 {
		m = x
	}
	return m + t
}

// Mish returns x * Tanh(Softplus(x)).
func Mish(x float32) float32 {
	if x != x {
		return x
	}
	return x * Tanh(Softplus(x))
}

// Gelu returns x/2 * (1 + erf(x/sqrt2)) as fma32(h, Erf(x*geluS), h),
// h = x/2.
func Gelu(x float32) float32 {
	if x != x {
		return x
	}
	h := 0.5 * x
	return fma32(h, Erf(x*geluS), h)
}

// GeluTanh returns Gelu's tanh approximation x/2 * (1 + tanh(sqrt(2/pi) *
// (x + 0.044715*x^3))) as fma32(h, Tanh(geluK*w), h), h = x/2, w =
// fma32(geluC*(c*c), c, c) for c = x clamped to [-10, 10] (beyond, the
// tanh is ±1 already, and the cube would overflow).
func GeluTanh(x float32) float32 {
	if x != x {
		return x
	}
	c := min(max(x, -geluClamp), geluClamp)
	w := fma32(geluC*float32(c*c), c, c)
	h := 0.5 * x
	return fma32(h, Tanh(geluK*w), h)
}

// Swish returns x * Sigmoid(alpha*x).
func Swish(x, alpha float32) float32 {
	if x != x {
		return x
	}
	return x * Sigmoid(alpha*x)
}

// Elu returns alpha*Expm1(x) below 0, x elsewhere.
func Elu(x, alpha float32) float32 {
	if x < 0 {
		return alpha * Expm1(x)
	}
	return x
}

// Selu returns gamma*x above 0, gamma*(alpha*Expm1(x)) elsewhere.
func Selu(x, alpha, gamma float32) float32 {
	if x != x {
		return x
	}
	if x > 0 {
		return gamma * x
	}
	return gamma * float32(alpha*Expm1(x))
}

// Celu returns x+0 (so -0 gives +0, as max(0, x) does) for x >= 0 and
// alpha*Expm1(x/alpha) below: max(0,x) + min(0, alpha*(e^(x/alpha)-1)),
// whose second term is 0 wherever x >= 0 and the first wherever x < 0.
func Celu(x, alpha float32) float32 {
	if x != x {
		return x
	}
	if x >= 0 {
		return x + 0
	}
	return alpha * Expm1(x/alpha)
}

// HardSigmoid returns fma32(alpha, x, beta) clamped to [0, 1] (NaN and -0
// kept).
func HardSigmoid(x, alpha, beta float32) float32 {
	y := fma32(alpha, x, beta)
	if y < 0 {
		return 0
	}
	if y > 1 {
		return 1
	}
	return y
}

// HardSwish returns x * h, h = (x+3)/6 clamped to [0, 1] (NaN and -0
// kept): x/6 + 1/2 written so that no rounded 1/6 cancels against 1/2
// near x = -3.
func HardSwish(x float32) float32 {
	h := (x + 3) / 6
	if h < 0 {
		h = 0
	}
	if h > 1 {
		h = 1
	}
	return x * h
}

// Softsign returns x / (1 + |x|).
func Softsign(x float32) float32 {
	return x / (1 + abs32(x))
}

// LeakyRelu returns alpha*x below 0, x elsewhere.
func LeakyRelu(x, alpha float32) float32 {
	if x < 0 {
		return alpha * x
	}
	return x
}

// ThresholdedRelu returns x above alpha, 0 elsewhere (NaN too).
func ThresholdedRelu(x, alpha float32) float32 {
	if x > alpha {
		return x
	}
	return 0
}

// Shrink returns x+bias below -lambd, x-bias above lambd, 0 elsewhere
// (NaN too).
func Shrink(x, lambd, bias float32) float32 {
	switch {
	case x < -lambd:
		return x + bias
	case x > lambd:
		return x - bias
	}
	return 0
}

// params is the parameter table of a loop: row i holds parameter i in
// every lane.
func params(v ...float32) (p [4][8]float32) {
	for i, x := range v {
		for j := range p[i] {
			p[i][j] = x
		}
	}
	return p
}

// The slice forms: o[i] = f(a[i]) for every element of o (a is at least
// as long; o and a are the same slice or do not overlap), the scalar
// function's bits.

func ExpsTo(o, a []float32)       { exps(o, a[:len(o)], nil) }
func LogsTo(o, a []float32)       { logs(o, a[:len(o)], nil) }
func SoftplusesTo(o, a []float32) { softpluses(o, a[:len(o)], nil) }
func MishesTo(o, a []float32)     { mishes(o, a[:len(o)], nil) }
func GelusTo(o, a []float32)      { gelus(o, a[:len(o)], nil) }
func GeluTanhsTo(o, a []float32)  { geluTanhs(o, a[:len(o)], nil) }
func HardSwishesTo(o, a []float32) {
	hardSwishes(o, a[:len(o)], nil)
}
func SoftsignsTo(o, a []float32) { softsigns(o, a[:len(o)], nil) }

func SwishesTo(o, a []float32, alpha float32) {
	p := params(alpha)
	swishes(o, a[:len(o)], &p)
}

func ElusTo(o, a []float32, alpha float32) {
	p := params(alpha)
	elus(o, a[:len(o)], &p)
}

func SelusTo(o, a []float32, alpha, gamma float32) {
	p := params(alpha, gamma)
	selus(o, a[:len(o)], &p)
}

func CelusTo(o, a []float32, alpha float32) {
	p := params(alpha)
	celus(o, a[:len(o)], &p)
}

func HardSigmoidsTo(o, a []float32, alpha, beta float32) {
	p := params(alpha, beta)
	hardSigmoids(o, a[:len(o)], &p)
}

func LeakyRelusTo(o, a []float32, alpha float32) {
	p := params(alpha)
	leakyRelus(o, a[:len(o)], &p)
}

func ThresholdedRelusTo(o, a []float32, alpha float32) {
	p := params(alpha)
	thresholdedRelus(o, a[:len(o)], &p)
}

func ShrinksTo(o, a []float32, lambd, bias float32) {
	p := params(-lambd, lambd, bias)
	shrinks(o, a[:len(o)], &p)
}

// The Go loops (p as the slice forms fill it).

func expsGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Exp(x)
	}
}

func logsGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Log(x)
	}
}

func softplusesGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Softplus(x)
	}
}

func mishesGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Mish(x)
	}
}

func gelusGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Gelu(x)
	}
}

func geluTanhsGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = GeluTanh(x)
	}
}

func swishesGo(o, a []float32, p *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Swish(x, p[0][0])
	}
}

func elusGo(o, a []float32, p *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Elu(x, p[0][0])
	}
}

func selusGo(o, a []float32, p *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Selu(x, p[0][0], p[1][0])
	}
}

func celusGo(o, a []float32, p *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Celu(x, p[0][0])
	}
}

func hardSigmoidsGo(o, a []float32, p *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = HardSigmoid(x, p[0][0], p[1][0])
	}
}

func hardSwishesGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = HardSwish(x)
	}
}

func softsignsGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Softsign(x)
	}
}

func leakyRelusGo(o, a []float32, p *[4][8]float32) {
	alpha := p[0][0]
	for i, x := range a[:len(o)] {
		o[i] = LeakyRelu(x, alpha)
	}
}

func thresholdedRelusGo(o, a []float32, p *[4][8]float32) {
	alpha := p[0][0]
	for i, x := range a[:len(o)] {
		o[i] = ThresholdedRelu(x, alpha)
	}
}

func shrinksGo(o, a []float32, p *[4][8]float32) {
	lambd, bias := p[1][0], p[2][0]
	for i, x := range a[:len(o)] {
		o[i] = Shrink(x, lambd, bias)
	}
}
