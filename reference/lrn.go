// LRN, versions 1 and 13. ONNX Operators.md: "Local Response
// Normalization proposed in the AlexNet paper. It normalizes over local
// input regions. The local region is defined across the channels. For an
// element X[n, c, d1, ..., dk] in a tensor of shape (N x C x D1 x D2, ...,
// Dk), its region is {X[n, i, d1, ..., dk] | max(0, c - floor((size - 1) /
// 2)) <= i <= min(C - 1, c + ceil((size - 1) / 2))}. square_sum[n, c, d1,
// ..., dk] = sum(X[n, i, d1, ..., dk] ^ 2), where max(0, c - floor((size -
// 1) / 2)) <= i <= min(C - 1, c + ceil((size - 1) / 2)). Y[n, c, d1, ...,
// dk] = X[n, c, d1, ..., dk] / (bias + alpha / size * square_sum[n, c, d1,
// ..., dk] ) ^ beta". alpha 1e-4, beta 0.75, bias 1.0, size required. The
// squares are added in channel order, in float64, rounded once; 13 adds
// bfloat16. The power is lrnPow's: beta 0.75 (the default), 0.5 and 1 by
// square roots, each one rounded float64 operation, any other by
// math.Pow.
//
// Rules: [type] X float16, float, double (bfloat16 from 13); [rank] rank 2
// or more; [size] present and positive.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("LRN", []int{1, 13}, lrn) }

func lrn(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	alpha := attrFloat(n, "alpha", 1e-4)
	beta := attrFloat(n, "beta", 0.75)
	bias := attrFloat(n, "bias", 1)
	size, _ := n.Int("size", 0)
	if !normFloatType(x.DataType(), n.Version >= 13) {
		return nil, op.errorf("type", "X is %v", x.DataType())
	}
	if x.Rank() < 2 {
		return nil, op.errorf("rank", "X has rank %d", x.Rank())
	}
	if !n.Has("size") || size < 1 || size > 1<<31 {
		return nil, op.errorf("size", "size %d is not positive", size)
	}
	if err := checkSize(opt, op, x.DataType(), x.Shape()); err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	shape := x.Shape()
	c := shape[1]
	if err := chargeScratch(opt, op, "float64 copies of the inputs, the results and the output", inputElements(in)+2*x.Len(), 8); err != nil {
		return nil, err
	}
	xv := computeElements[float64](x)
	y := make([]float64, len(xv))
	k := alpha / float64(size)
	strides := stridesOf(shape)
	if err := forEachIndexPolled(opt, opOf(n), shape, int(size), func(flat int, idx []int) {
		ch := idx[1]
		lo := max(0, ch-int((size-1)/2))
		hi := min(c-1, ch+int(size/2)) // ceil((size-1)/2) = floor(size/2)
		squareSum := 0.0
		at := append([]int(nil), idx...)
		for i := lo; i <= hi; i++ {
			at[1] = i
			v := xv[ravel(at, strides)]
			squareSum += float64(v * v)
		}
		y[flat] = xv[flat] / lrnPow(bias+float64(k*squareSum), beta)
	}); err != nil {
		return nil, err
	}
	return []tensor.Value{computeTensor(x.DataType(), x.Shape(), y)}, nil
}

// lrnPow is d^beta, the divisor of LRN: for beta 0.75, sqrt(d) *
// sqrt(sqrt(d)); for 0.5, sqrt(d); for 1, d; each step one correctly
// rounded float64 operation (so within 3.5*2^-53 relative of the exact power,
// far below the float32 and float16 results' rounding), any other beta by
// math.Pow. A zero d gives +0 under a square root, as math.Pow(-0, beta)
// does.
// Both engines write it so (ops/internal/norm), for the same bits; the
// square roots cost a few cycles where math.Pow costs a log and an exp.
func lrnPow(d, beta float64) float64 {
	switch beta {
	case 0.75:
		if d == 0 {
			return 0 // math.Pow(-0, 0.75) is +0
		}
		r := math.Sqrt(d)
		return float64(r * math.Sqrt(r))
	case 0.5:
		if d == 0 {
			return 0
		}
		return math.Sqrt(d)
	case 1:
		return d
	}
	return math.Pow(d, beta)
}
