// RotaryEmbedding, version 23. ONNX Operators.md: "RotaryEmbedding is the
// implementation of rotary positional embeddings (RoPE) ... This is done by
// splitting the embedding vector either into two halves or interleaving
// every alternate token and applying the rotation matrix to each half of
// the embedding vector." As the spec's reference (op_rotary_embedding.py)
// writes it: X is [batch, heads, seq, head] or [batch, seq, hidden] with
// num_heads heads; rotary_embedding_dim (0: head) elements are rotated,
// x1, x2 the two halves (or, interleaved, the even and odd elements);
// cos and sin are cos_cache[position_ids] (else cos_cache itself,
// [batch, seq, rotary/2]); real = cos*x1 - sin*x2, imag = sin*x1 + cos*x2,
// put back in x1's and x2's places; the rest is copied. Types: float,
// float16, bfloat16; position_ids int64. Each value is computed in float64
// and rounded to float32, then to X's type.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("RotaryEmbedding", []int{23}, rotaryEmbedding)
}

func rotaryEmbedding(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	cosCache, err := requiredInput(op, in, 1, "cos_cache")
	if err != nil {
		return nil, err
	}
	sinCache, err := requiredInput(op, in, 2, "sin_cache")
	if err != nil {
		return nil, err
	}
	pos, err := optionalInput(op, in, 3)
	if err != nil {
		return nil, err
	}
	interleaved, err := n.Int("interleaved", 0)
	if err != nil {
		return nil, err
	}
	rotaryDim, err := n.Int("rotary_embedding_dim", 0)
	if err != nil {
		return nil, err
	}
	numHeads, err := n.Int("num_heads", 0)
	if err != nil {
		return nil, err
	}
	dt := x.DataType()
	if dt != tensor.Float && dt != tensor.Float16 && dt != tensor.BFloat16 {
		return nil, op.errorf("type", "X is %v; RotaryEmbedding takes float, float16 or bfloat16", dt)
	}
	if cosCache.DataType() != dt || sinCache.DataType() != dt {
		return nil, op.errorf("type", "cos_cache and sin_cache must have X's type %v", dt)
	}
	// The element of X at (batch b, seq s, head h, i) in the spec's
	// [batch, seq, heads, head] view.
	var batch, seq, heads, head int
	var at func(b, s, h, i int) int
	shape := x.Shape()
	switch len(shape) {
	case 4:
		batch, heads, seq, head = shape[0], shape[1], shape[2], shape[3]
		at = func(b, s, h, i int) int { return ((b*heads+h)*seq+s)*head + i }
	case 3:
		if numHeads <= 0 || int64(shape[2])%numHeads != 0 {
			return nil, op.errorf("num_heads", "3-D X %v needs num_heads > 0 dividing its hidden size, got %d", shape, numHeads)
		}
		batch, seq, heads = shape[0], shape[1], int(numHeads)
		head = shape[2] / heads
		at = func(b, s, h, i int) int { return ((b*seq+s)*heads+h)*head + i }
	default:
		return nil, op.errorf("rank", "X has shape %v, expected 3-D or 4-D", shape)
	}
	if interleaved != 0 && interleaved != 1 {
		return nil, op.errorf("interleaved", "interleaved is %d, expected 0 or 1", interleaved)
	}
	rotary := head
	if rotaryDim != 0 {
		if rotaryDim < 0 || rotaryDim > int64(head) {
			return nil, op.errorf("rotary_embedding_dim", "rotary_embedding_dim %d is outside [1, %d]", rotaryDim, head)
		}
		rotary = int(rotaryDim)
	}
	if rotary%2 != 0 {
		return nil, op.errorf("rotary_embedding_dim", "%d elements rotated: an even number is needed", rotary)
	}
	half := rotary / 2
	cacheShape := []int{batch, seq, half}
	if pos != nil {
		if cosCache.Rank() != 2 {
			return nil, op.errorf("cache", "cos_cache %v must be 2-D with position_ids", cosCache.Shape())
		}
		cacheShape = []int{cosCache.Shape()[0], half}
	}
	if !tensor.SameShape(cosCache.Shape(), cacheShape) || !tensor.SameShape(sinCache.Shape(), cacheShape) {
		return nil, op.errorf("cache", "cos_cache %v and sin_cache %v must be %v", cosCache.Shape(), sinCache.Shape(), cacheShape)
	}
	var ids []int64
	if pos != nil {
		if pos.DataType() != tensor.Int64 || !tensor.SameShape(pos.Shape(), []int{batch, seq}) {
			return nil, op.errorf("position_ids", "position_ids must be int64 [%d, %d], got %v %v", batch, seq, pos.DataType(), pos.Shape())
		}
		ids, _ = pos.Int64s()
		for i, p := range ids {
			if p < 0 || p >= int64(cacheShape[0]) {
				return nil, op.errorf("position_ids", "position_ids[%d] is %d, outside the cache's %d rows", i, p, cacheShape[0])
			}
		}
	}
	y, err := newTensor(opt, op, dt, shape)
	if err != nil {
		return nil, err
	}
	xv, _ := x.Float64s()
	cv, _ := cosCache.Float64s()
	sv, _ := sinCache.Float64s()
	for b := range batch {
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		for s := range seq {
			row := b*seq + s // cos_cache[b, s]
			if ids != nil {
				row = int(ids[b*seq+s]) // cos_cache[position_ids[b, s]]
			}
			for h := range heads {
				for i := range head {
					_ = storeFloat(y, at(b, s, h, i), xv[at(b, s, h, i)])
				}
				for i := range half {
					i1, i2 := i, i+half // np.split(x_rotate, 2, axis=-1)
					if interleaved == 1 {
						i1, i2 = 2*i, 2*i+1 // x_rotate[..., 0::2], x_rotate[..., 1::2]
					}
					c, sn := cv[row*half+i], sv[row*half+i]
					x1, x2 := xv[at(b, s, h, i1)], xv[at(b, s, h, i2)]
					_ = storeFloat(y, at(b, s, h, i1), float64(float32(c*x1-sn*x2)))
					_ = storeFloat(y, at(b, s, h, i2), float64(float32(sn*x1+c*x2)))
				}
			}
		}
	}
	return values(y), nil
}
