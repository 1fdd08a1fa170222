// Bernoulli (versions 15 and 22) draws, for each probability p of its
// input (float16, float, double, and bfloat16 from 22), 1 with
// probability p and 0 otherwise: 1 where the generator's Float64() < p.
// The output has the input's shape and dtype's type (the input's by
// default): any integer or float type, or bool. The generator is
// randomuniform.go's: deterministic given seed; refused under SONNX. Rules:
// [profile], [type] of the input, [dtype], [size].

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/ops/internal/random"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Bernoulli", []int{15, 22}, [2]int{1, 1}, [2]int{1, 1}, bernoulliNode)
	randomAttrs("Bernoulli")
}

// bernoulliOutputs are the types Bernoulli may produce.
var bernoulliOutputs = typesOf(tensor.Float16, tensor.Float, tensor.Double, tensor.BFloat16, tensor.Bool,
	tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64)

func bernoulliNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
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
	if !randomTypes(n.Version).has(x.DataType()) {
		return nil, op.errorf("type", "input must be a float type version %d takes, got %v", n.Version, x.DataType())
	}
	dt, err := randomDtype(n, x.DataType(), bernoulliOutputs)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, dt, x.Shape())
	if err != nil {
		return nil, err
	}
	if err := bernoulliFill(opt, op, r, x, y); err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// bernoulliBlock is the elements bernoulliFill draws and stores at a time.
const bernoulliBlock = 2048

// bernoulliFill sets y[i] to 1 where the stream's next draw u_i < x[i], 0
// elsewhere, and advances the stream past them: the cores take pieces of
// the output in turn, each drawing from the state jumped to its first
// element (ops/internal/random), the same values as draws one by one.
func bernoulliFill(opt *Options, op opRef, r *randomStream, x, y *tensor.Tensor) error {
	n := y.Len()
	start := random.StateOf(r.pcg)
	o := opt.orDefault()
	err := parallel.Shared(o.env.Ctx, o.threads(), n, random.PieceLen, n, func(lo, hi int) error {
		var p, u [bernoulliBlock]float64
		for b := lo; b < hi; b += bernoulliBlock {
			if err := opt.cancelled(); err != nil {
				return op.stopped(err)
			}
			k := min(bernoulliBlock, hi-b)
			convert.DecodeFloats(p[:k], x, b)     // the probabilities, replaced by the draws
			random.Uniform(u[:k], start, b, 0, 1) // 0 + (1-0)*u is u
			for i, u := range u[:k] {
				one := 0 // an integer select, not a branch: u < p is a coin toss
				if u < p[i] {
					one = 1
				}
				p[i] = float64(one)
			}
			if err := convert.StoreFloats(sliceOf(y, b, k), p[:k]); err != nil {
				return op.wrap("dtype", err, "storing %v", y.DataType())
			}
		}
		return nil
	})
	if err != nil {
		if ctxErr := parallel.Err(o.env.Ctx); ctxErr != nil && err == ctxErr {
			return op.stopped(err) // cancelled before any piece
		}
		return err
	}
	random.Advance(r.pcg, start, n)
	return nil
}
