package reference

// The random generators (RandomUniform, RandomNormal, RandomUniformLike,
// RandomNormalLike, Bernoulli), after the ONNX specification: "Generate a
// tensor with random values drawn from a uniform distribution [low, high)"
// / "from a normal distribution [of] mean [and] scale"; "seed: Seed to the
// random generator, if not specified we will auto generate one"; "dtype:
// The data type for the elements of the output tensor" (float by default,
// or the input's type for the *Like forms and Bernoulli); Bernoulli "draws
// binary random numbers (0 or 1) from a Bernoulli distribution. The input
// tensor should be a tensor containing probabilities p [...] to be used
// for drawing the binary random number".
//
// The specification names no generator. This engine draws, like the fast
// one, from math/rand/v2's PCG seeded with (the float32 bits of seed,
// 0x6f6e6e7873686170), one Float64() or NormFloat64() per element in
// row-major order: low + (high-low)*u, mean + scale*z, 1 when u < p.
// Values narrower than double pass through float32. The SONNX profile
// leaves random values undefined: refused under it.

import (
	"math"
	"math/rand/v2"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func randomGenerator(opt *ops.Options, n *ops.Node) (*rand.Rand, error) {
	if sonnx(opt) {
		return nil, opOf(n).errorf("profile", "random values are outside the SONNX profile")
	}
	seed, err := n.Float("seed", 0)
	if err != nil {
		return nil, err
	}
	if !n.Has("seed") {
		return rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), nil
	}
	return rand.New(rand.NewPCG(uint64(math.Float32bits(seed)), 0x6f6e6e7873686170)), nil
}

// randomFloatTypes are the float types version v produces.
func randomFloatTypes(v int) map[tensor.DataType]bool {
	m := map[tensor.DataType]bool{tensor.Float16: true, tensor.Float: true, tensor.Double: true}
	if v >= 22 {
		m[tensor.BFloat16] = true
	}
	return m
}

// randomOutputType reads dtype (def when absent) and checks it.
func randomOutputType(n *ops.Node, def tensor.DataType, allowed map[tensor.DataType]bool) (tensor.DataType, error) {
	v, err := n.Int("dtype", int64(def))
	if err != nil {
		return 0, err
	}
	if v < 0 || v > 63 || !allowed[tensor.DataType(v)] {
		return 0, opOf(n).errorf("dtype", "dtype %d", v)
	}
	return tensor.DataType(v), nil
}

// setRandom writes v as element k of y.
func setRandom(y *tensor.Tensor, k int, v float64) {
	switch y.DataType() {
	case tensor.Bool:
		setScalar(y, k, boolOf(v != 0))
	case tensor.Double:
		setScalar(y, k, floatOf(v))
	default:
		setScalar(y, k, floatOf(float64(float32(v))))
	}
}

// randomOfShape makes the output of a generator: shape and type dt, each
// element draw().
func randomOfShape(opt *ops.Options, n *ops.Node, dt tensor.DataType, shape []int, draw func(k int) float64) ([]tensor.Value, error) {
	y, err := newTensor(opt, opOf(n), dt, shape)
	if err != nil {
		return nil, err
	}
	for k := range y.Len() {
		setRandom(y, k, draw(k))
	}
	return values(y), nil
}

// randomShaped runs RandomUniform and RandomNormal.
func randomShaped(opt *ops.Options, n *ops.Node, draw func(r *rand.Rand) float64) ([]tensor.Value, error) {
	op := opOf(n)
	r, err := randomGenerator(opt, n)
	if err != nil {
		return nil, err
	}
	dt, err := randomOutputType(n, tensor.Float, randomFloatTypes(n.Version))
	if err != nil {
		return nil, err
	}
	shape, ok, err := n.Ints("shape")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, op.errorf("attribute", "attribute shape is required")
	}
	dims := make([]int, len(shape))
	for i, d := range shape {
		if d < 0 || d > math.MaxInt32 {
			return nil, op.errorf("shape", "shape[%d] = %d", i, d)
		}
		dims[i] = int(d)
	}
	return randomOfShape(opt, n, dt, dims, func(int) float64 { return draw(r) })
}

// randomLike runs RandomUniformLike and RandomNormalLike.
func randomLike(opt *ops.Options, n *ops.Node, in []tensor.Value, draw func(r *rand.Rand) float64) ([]tensor.Value, error) {
	x, err := requiredInput(opOf(n), in, 0, "input")
	if err != nil {
		return nil, err
	}
	r, err := randomGenerator(opt, n)
	if err != nil {
		return nil, err
	}
	dt, err := randomOutputType(n, x.DataType(), randomFloatTypes(n.Version))
	if err != nil {
		return nil, err
	}
	return randomOfShape(opt, n, dt, x.Shape(), func(int) float64 { return draw(r) })
}

func uniformParams(n *ops.Node) (low, high float64, err error) {
	l, err := n.Float("low", 0)
	if err != nil {
		return 0, 0, err
	}
	h, err := n.Float("high", 1)
	return float64(l), float64(h), err
}

func normalMoments(n *ops.Node) (mean, scale float64, err error) {
	m, err := n.Float("mean", 0)
	if err != nil {
		return 0, 0, err
	}
	s, err := n.Float("scale", 1)
	return float64(m), float64(s), err
}

func init() {
	register("RandomUniform", []int{1, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		low, high, err := uniformParams(n)
		if err != nil {
			return nil, err
		}
		return randomShaped(opt, n, func(r *rand.Rand) float64 { return low + (high-low)*r.Float64() })
	})
	register("RandomNormal", []int{1, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		mean, scale, err := normalMoments(n)
		if err != nil {
			return nil, err
		}
		return randomShaped(opt, n, func(r *rand.Rand) float64 { return mean + scale*r.NormFloat64() })
	})
	register("RandomUniformLike", []int{1, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		low, high, err := uniformParams(n)
		if err != nil {
			return nil, err
		}
		return randomLike(opt, n, in, func(r *rand.Rand) float64 { return low + (high-low)*r.Float64() })
	})
	register("RandomNormalLike", []int{1, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		mean, scale, err := normalMoments(n)
		if err != nil {
			return nil, err
		}
		return randomLike(opt, n, in, func(r *rand.Rand) float64 { return mean + scale*r.NormFloat64() })
	})
}
