// RotaryEmbedding rotates pairs of elements of each head's vector by
// angles that depend on the token's position (RoPE): for a pair (x1, x2)
// and the position's cos and sin, (cos*x1 - sin*x2, sin*x1 + cos*x2). The
// pairs are the two halves of the first rotary_embedding_dim elements
// (interleaved 0) or adjacent elements (interleaved 1); the elements past
// rotary_embedding_dim (0: the whole head) are copied as they are.
//
// Versions: 23. Inputs: X, [batch, heads, seq, head] or [batch, seq,
// hidden] with num_heads dividing hidden; cos_cache and sin_cache, [batch,
// seq, rotary/2] or, with position_ids ([batch, seq] int64), [positions,
// rotary/2] rows picked by the ids. Types: float, float16, bfloat16 (the
// caches of X's type). The rules, in order: [type], [rank] X is 3-D or
// 4-D, [num_heads] given and dividing hidden for 3-D X, [interleaved] 0 or
// 1, [rotary_embedding_dim] even and at most the head size, [cache] the
// caches' shapes, [position_ids] its type, shape and range. num_heads is
// not read for 4-D X, as the spec's reference does not read it. Each
// output element is computed in float64 from float32 operands and rounded
// once to float32, then to X's type (the reference engine computes the
// same expression, so the two agree bit for bit).

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("RotaryEmbedding", []int{23}, [2]int{3, 4}, [2]int{1, 1}, rotaryEmbeddingNode)
	declareAttrs("RotaryEmbedding", AttrSpec{Name: "interleaved", Type: AttrInt},
		AttrSpec{Name: "rotary_embedding_dim", Type: AttrInt}, AttrSpec{Name: "num_heads", Type: AttrInt})
}

// RotaryEmbeddingOptions are RotaryEmbedding's attributes; the zero value
// is the ONNX default (halves, the whole head rotated).
type RotaryEmbeddingOptions struct {
	Interleaved        bool
	RotaryEmbeddingDim int // 0: the head size
	NumHeads           int // required for 3-D X
}

// RotaryEmbedding applies rotary position embeddings to x (ONNX
// RotaryEmbedding, version 23); positionIDs may be nil.
func RotaryEmbedding(x, cosCache, sinCache, positionIDs *tensor.Tensor, o RotaryEmbeddingOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"RotaryEmbedding", 23}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	for _, in := range []struct {
		name string
		t    *tensor.Tensor
	}{{"X", x}, {"cos_cache", cosCache}, {"sin_cache", sinCache}} {
		if err := checkInput(op, in.name, in.t); err != nil {
			return nil, err
		}
	}
	interleaved := int64(0)
	if o.Interleaved {
		interleaved = 1
	}
	return rotaryEmbedding(opt, op, x, cosCache, sinCache, positionIDs, interleaved, int64(o.RotaryEmbeddingDim), int64(o.NumHeads))
}

func rotaryEmbeddingNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	cosCache, err := n.requiredInput(in, 1, "cos_cache")
	if err != nil {
		return nil, err
	}
	sinCache, err := n.requiredInput(in, 2, "sin_cache")
	if err != nil {
		return nil, err
	}
	pos, err := n.tensorInput(in, 3)
	if err != nil {
		return nil, err
	}
	interleaved, err := n.Int("interleaved", 0)
	if err != nil {
		return nil, err
	}
	rotary, err := n.Int("rotary_embedding_dim", 0)
	if err != nil {
		return nil, err
	}
	heads, err := n.Int("num_heads", 0)
	if err != nil {
		return nil, err
	}
	y, err := rotaryEmbedding(opt, n.op(), x, cosCache, sinCache, pos, interleaved, rotary, heads)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// rotaryLayout is where a RotaryEmbedding finds its operands.
type rotaryLayout struct {
	batch, heads, seq, head int
	rotary                  int  // the rotated elements of a head
	bsh                     bool // X is [batch, seq, heads*head] (3-D)
	interleaved             bool
}

// rotaryEmbeddingLayout checks the operands in the order of the rules.
func rotaryEmbeddingLayout(op opRef, x, cosCache, sinCache, pos *tensor.Tensor, interleaved, rotary, heads int64) (rotaryLayout, error) {
	var l rotaryLayout
	switch x.DataType() {
	case tensor.Float, tensor.Float16, tensor.BFloat16:
	default:
		return l, op.errorf("type", "X is %v; RotaryEmbedding takes float, float16 or bfloat16", x.DataType())
	}
	if cosCache.DataType() != x.DataType() || sinCache.DataType() != x.DataType() {
		return l, op.errorf("type", "cos_cache (%v) and sin_cache (%v) must have X's type %v", cosCache.DataType(), sinCache.DataType(), x.DataType())
	}
	s := x.Shape()
	switch len(s) {
	case 4:
		l.batch, l.heads, l.seq, l.head = s[0], s[1], s[2], s[3]
	case 3:
		if heads <= 0 {
			return l, op.errorf("num_heads", "3-D X %v needs num_heads > 0, got %d", s, heads)
		}
		if int64(s[2])%heads != 0 {
			return l, op.errorf("num_heads", "hidden size %d of X %v is not a multiple of num_heads %d", s[2], s, heads)
		}
		l.batch, l.seq, l.heads, l.head, l.bsh = s[0], s[1], int(heads), s[2]/int(heads), true
	default:
		return l, op.errorf("rank", "X has shape %v, expected 3-D or 4-D", s)
	}
	if interleaved != 0 && interleaved != 1 {
		return l, op.errorf("interleaved", "interleaved is %d, expected 0 or 1", interleaved)
	}
	l.interleaved = interleaved == 1
	l.rotary = l.head
	if rotary != 0 {
		if rotary < 0 || rotary > int64(l.head) {
			return l, op.errorf("rotary_embedding_dim", "rotary_embedding_dim %d is outside [1, head size %d]", rotary, l.head)
		}
		l.rotary = int(rotary)
	}
	if l.rotary%2 != 0 {
		return l, op.errorf("rotary_embedding_dim", "%d elements rotated: an even number is needed", l.rotary)
	}
	half := l.rotary / 2
	want := []int{l.batch, l.seq, half}
	if pos != nil {
		if len(cosCache.Shape()) != 2 {
			return l, op.errorf("cache", "cos_cache %v must be 2-D [max positions, %d] with position_ids", cosCache.Shape(), half)
		}
		want = []int{cosCache.Shape()[0], half}
	}
	if !tensor.SameShape(cosCache.Shape(), want) || !tensor.SameShape(sinCache.Shape(), want) {
		return l, op.errorf("cache", "cos_cache %v and sin_cache %v must be %v", cosCache.Shape(), sinCache.Shape(), want)
	}
	if pos != nil {
		if pos.DataType() != tensor.Int64 {
			return l, op.errorf("position_ids", "position_ids is %v, expected int64", pos.DataType())
		}
		if !tensor.SameShape(pos.Shape(), []int{l.batch, l.seq}) {
			return l, op.errorf("position_ids", "position_ids %v must be [batch, seq] = [%d, %d]", pos.Shape(), l.batch, l.seq)
		}
		ids, _ := tensor.Data[int64](pos)
		for i, p := range ids {
			if p < 0 || p >= int64(want[0]) {
				return l, op.errorf("position_ids", "position_ids[%d] is %d, outside the cache's %d rows", i, p, want[0])
			}
		}
	}
	return l, nil
}

func rotaryEmbedding(opt *Options, op opRef, x, cosCache, sinCache, pos *tensor.Tensor, interleaved, rotary, heads int64) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	l, err := rotaryEmbeddingLayout(op, x, cosCache, sinCache, pos, interleaved, rotary, heads)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, x.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	xs, err := reduceLoad[float32](opt, op, x)
	if err != nil {
		return nil, err
	}
	cs, err := reduceLoad[float32](opt, op, cosCache)
	if err != nil {
		return nil, err
	}
	ss, err := reduceLoad[float32](opt, op, sinCache)
	if err != nil {
		return nil, err
	}
	ys, flush, err := reduceOut[float32](opt, op, y)
	if err != nil {
		return nil, err
	}
	var ids []int64
	if pos != nil {
		ids, _ = tensor.Data[int64](pos)
	}
	half := l.rotary / 2
	rows := l.batch * l.heads * l.seq
	err = parallelRange(opt, rows, x.Len(), func(lo, hi int) error {
		c := opt.canceller()
		if !l.bsh && ids == nil && !l.interleaved && l.rotary == l.head {
			// The rows of one batch and head are consecutive in x and
			// in the caches: one call of RotateRows for each such run.
			for r := lo; r < hi; {
				b, s := r/(l.heads*l.seq), r%l.seq
				run := min(hi-r, l.seq-s)
				if c.Stop(run * l.head) {
					return op.stopped(c.Err)
				}
				off, cacheRow := r*l.head, b*l.seq+s
				mathf.RotateRows(ys[off:off+run*l.head], xs[off:off+run*l.head], cs[cacheRow*half:][:run*half], ss[cacheRow*half:][:run*half], run, l.head, half)
				r += run
			}
			return nil
		}
		for r := lo; r < hi; r++ {
			if c.Stop(l.head) {
				return op.stopped(c.Err)
			}
			// r counts rows in the order batch, heads, seq.
			b, h, s := r/(l.heads*l.seq), r/l.seq%l.heads, r%l.seq
			off := ((b*l.heads+h)*l.seq + s) * l.head
			if l.bsh {
				off = ((b*l.seq+s)*l.heads + h) * l.head
			}
			cacheRow := b*l.seq + s
			if ids != nil {
				cacheRow = int(ids[b*l.seq+s])
			}
			rotateRow(ys[off:off+l.head], xs[off:off+l.head], cs[cacheRow*half:][:half], ss[cacheRow*half:][:half], l.rotary, l.interleaved)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	flush()
	return y, nil
}

// rotateRow writes one head's vector x, rotated by the cos and sin of its
// position over its first rotary elements, into y. The halves are
// mathf.Rotate's spans (its vector loop; the same float64 steps).
func rotateRow(y, x, cos, sin []float32, rotary int, interleaved bool) {
	half := rotary / 2
	if interleaved {
		for i := range half {
			i1, i2 := 2*i, 2*i+1
			c, s := float64(cos[i]), float64(sin[i])
			x1, x2 := float64(x[i1]), float64(x[i2])
			y[i1] = float32(c*x1 - s*x2)
			y[i2] = float32(s*x1 + c*x2)
		}
	} else {
		mathf.Rotate(y[:half], y[half:rotary], x[:half], x[half:rotary], cos[:half], sin[:half])
	}
	copy(y[rotary:], x[rotary:])
}
