// RandomUniform (versions 1 and 22) fills a tensor of the shape attribute
// and dtype (float by default; float16, float, double, and bfloat16 from
// 22) with values drawn uniformly from [low, high) (0 and 1 by default).
// The generator (below, shared with the other generators) is
// deterministic given seed; refused under SONNX. Rules: [profile],
// [dtype], [attribute] shape is given, [shape] non-negative dimensions,
// [size].

package ops

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/ops/internal/random"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("RandomUniform", []int{1, 22}, [2]int{0, 0}, [2]int{1, 1}, randomUniformNode)
	randomAttrs("RandomUniform", AttrSpec{Name: "high", Type: AttrFloat}, AttrSpec{Name: "low", Type: AttrFloat}, AttrSpec{Name: "shape", Type: AttrInts})
}

func randomUniformNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	low, high, err := uniformBounds(n)
	if err != nil {
		return nil, err
	}
	return randomShapeOp(opt, n, uniformDraw(low, high))
}

// uniformBounds reads low (default 0) and high (default 1).
func uniformBounds(n *Node) (low, high float64, err error) {
	l, err := n.Float("low", 0)
	if err != nil {
		return 0, 0, err
	}
	h, err := n.Float("high", 1)
	return float64(l), float64(h), err
}

// What the random generators (RandomUniform, RandomNormal,
// RandomUniformLike, RandomNormalLike, Bernoulli) share: the generator,
// the dtype attribute and the SONNX refusal.
//
// The generator is math/rand/v2's PCG. With a seed attribute it is seeded
// with (the float32 bits of seed, 0x6f6e6e78736861706): the same node and
// seed give the same values on every run and platform, and the reference
// engine draws the same stream. Without a seed it is seeded from the
// runtime's random source, and every run differs. Uniform values are
// low + (high-low)*u, u = Float64() in [0, 1); normal ones are
// mean + scale*NormFloat64(); Bernoulli's element is 1 when Float64() < p.
// Values are computed in float64 and stored through float32 for the
// narrower float types.
//
// The SONNX profile leaves random values undefined: every generator is
// refused under it ([profile]).

// randomSeedStream is the PCG's second seed word ("onnxshap").
const randomSeedStream = 0x6f6e6e7873686170

// randomStream is a node's generator: math/rand/v2's PCG, drawn as
// rand.Rand draws (uniform is rand.Rand's Float64 with the PCG called
// directly rather than through rand.Source: the same values, without an
// interface call per element).
type randomStream struct {
	pcg *rand.PCG
	r   *rand.Rand
}

// uniform is rand.Rand.Float64: one of the 1<<53 float64s in [0, 1).
func (s *randomStream) uniform() float64 {
	return float64(s.pcg.Uint64()<<11>>11) / (1 << 53)
}

// randomDraw is how a generator draws its elements: each fills a block
// of float64s in order; a uniform draw (low + (high-low)*u) also has the
// fast path of randompcg.go for float32 and float64 outputs.
type randomDraw struct {
	each      func(s *randomStream, dst []float64)
	uniform   bool
	low, high float64
}

// uniformDraw draws low + (high-low)*u per element.
func uniformDraw(low, high float64) randomDraw {
	return randomDraw{each: func(s *randomStream, dst []float64) {
		for i := range dst {
			dst[i] = low + (high-low)*s.uniform()
		}
	}, uniform: true, low: low, high: high}
}

// normalDraw draws mean + scale*z per element, z = rand.Rand's NormFloat64.
func normalDraw(mean, scale float64) randomDraw {
	return randomDraw{each: func(s *randomStream, dst []float64) {
		for i := range dst {
			dst[i] = mean + scale*s.r.NormFloat64()
		}
	}}
}

// randomSource returns the node's generator, and refuses the node under
// the SONNX profile.
func randomSource(opt *Options, n *Node) (*randomStream, error) {
	if opt.Profile == ProfileSONNX {
		return nil, n.op().errorf("profile", "random values are outside the SONNX profile")
	}
	seed, err := n.Float("seed", 0)
	if err != nil {
		return nil, err
	}
	var pcg *rand.PCG
	if !n.Has("seed") {
		pcg = rand.NewPCG(rand.Uint64(), rand.Uint64())
	} else {
		pcg = rand.NewPCG(uint64(math.Float32bits(seed)), randomSeedStream)
	}
	return &randomStream{pcg: pcg, r: rand.New(pcg)}, nil
}

// randomDtype returns the dtype attribute (def when absent) and checks it
// is one of allowed.
func randomDtype(n *Node, def tensor.DataType, allowed typeSet) (tensor.DataType, error) {
	v, err := n.Int("dtype", int64(def))
	if err != nil {
		return 0, err
	}
	dt := tensor.DataType(v)
	if v < 0 || v > 63 || !allowed.has(dt) {
		return 0, n.op().errorf("dtype", "dtype %d is not a type version %d produces", v, n.Version)
	}
	return dt, nil
}

// randomBlocks holds randomFill's blocks of draws.
var randomBlocks = sync.Pool{New: func() any { return new([4096]float64) }}

// randomFill fills y block by block: draw(dst, lo) writes elements
// lo..lo+len(dst) as float64, stored in y's type; the context is looked
// at between blocks.
func randomFill(opt *Options, op opRef, y *tensor.Tensor, draw func(dst []float64, lo int)) error {
	// Blocks of 4096 draws at most (the draws are made in order, so a
	// block's size changes no bits), from a pool: a 32 KB block made at
	// every call of a small node cost more than its draws.
	buf := randomBlocks.Get().(*[4096]float64)
	defer randomBlocks.Put(buf)
	block := buf[:min(len(buf), y.Len())]
	for lo := 0; lo < y.Len(); lo += len(block) {
		if err := opt.cancelled(); err != nil {
			return op.stopped(err)
		}
		part := block[:min(len(block), y.Len()-lo)]
		draw(part, lo)
		if err := convert.StoreFloats(sliceOf(y, lo, len(part)), part); err != nil {
			return op.wrap("dtype", err, "storing %v", y.DataType())
		}
	}
	return nil
}

// sliceOf is elements lo..lo+n of y as a tensor sharing y's storage.
func sliceOf(y *tensor.Tensor, lo, n int) *tensor.Tensor {
	size := y.DataType().Size()
	t, _ := tensor.Wrap(y.DataType(), []int{n}, y.Bytes()[lo*size:(lo+n)*size])
	return t
}

// randomShapeOp runs RandomUniform or RandomNormal: the output's shape
// and dtype from the attributes, the elements drawn by draw.
func randomShapeOp(opt *Options, n *Node, draw randomDraw) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	r, err := randomSource(opt, n)
	if err != nil {
		return nil, err
	}
	dt, err := randomDtype(n, tensor.Float, randomTypes(n.Version))
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
			return nil, op.errorf("shape", "shape[%d] = %d is not a dimension", i, d)
		}
		dims[i] = int(d)
	}
	y, err := opt.newOverwritten(op, dt, dims)
	if err != nil {
		return nil, err
	}
	if err := drawAll(opt, op, r, y, draw); err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// randomLikeOp runs RandomUniformLike or RandomNormalLike: the input's
// shape, dtype or the input's type.
func randomLikeOp(opt *Options, n *Node, in []tensor.Value, draw randomDraw) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	r, err := randomSource(opt, n)
	if err != nil {
		return nil, err
	}
	dt, err := randomDtype(n, x.DataType(), randomTypes(n.Version))
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, dt, x.Shape())
	if err != nil {
		return nil, err
	}
	if err := drawAll(opt, op, r, y, draw); err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// drawAll fills y with draw's elements: a uniform draw into float32 or
// float64 through fillUniform, anything else block by block.
func drawAll(opt *Options, op opRef, r *randomStream, y *tensor.Tensor, draw randomDraw) error {
	if draw.uniform {
		if done, err := fillUniform(opt, op, r, y, draw.low, draw.high); done {
			return err
		}
	}
	return randomFill(opt, op, y, func(dst []float64, _ int) { draw.each(r, dst) })
}

// randomTypes are the output types of the generators' versions.
func randomTypes(version int) typeSet {
	if version >= 22 {
		return floatBFTypes
	}
	return floatTypes
}

// randomAttrs declares the attributes of a generator: seed and dtype and
// those listed.
func randomAttrs(name string, extra ...AttrSpec) {
	declareAttrs(name, append([]AttrSpec{{Name: "seed", Type: AttrFloat}, {Name: "dtype", Type: AttrInt}}, extra...)...)
}

// fillUniform sets y (float32 or float64) to low + (high-low)*u, u the
// stream's next len(y) uniform draws, and advances the stream past them.
// It reports false, drawing nothing, for another type of y.
func fillUniform(opt *Options, op opRef, s *randomStream, y *tensor.Tensor, low, high float64) (bool, error) {
	var f32 []float32
	var f64 []float64
	switch y.DataType() {
	case tensor.Float:
		f32 = elems[float32](y)
	case tensor.Double:
		f64 = elems[float64](y)
	default:
		return false, nil
	}
	n := y.Len()
	start := random.StateOf(s.pcg)
	o := opt.orDefault()
	err := parallel.Shared(o.env.Ctx, o.threads(), n, random.PieceLen, n, func(lo, hi int) error {
		if err := opt.cancelled(); err != nil {
			return err
		}
		if f32 != nil {
			random.Uniform(f32[lo:hi], start, lo, low, high)
		} else {
			random.Uniform(f64[lo:hi], start, lo, low, high)
		}
		return nil
	})
	if err != nil {
		return true, op.stopped(err)
	}
	random.Advance(s.pcg, start, n)
	return true, nil
}
