// Normalizer (ai.onnx.ml, version 1), after the ONNX-ML specification:
// "Normalize the input. There are three normalization modes, which have
// the corresponding formulas: Max: max(x_i); L1: z = ||x||_1 = sum |x_i|;
// L2: z = ||x||_2 = sqrt(sum x_i^2)". X [N, C] or [C], T float, double,
// int64, int32; Y float; norm 'MAX' (default), 'L1', 'L2'. As onnxruntime
// computes it (the specification leaves it open): in float32, a row of
// norm 0 copied, L2 as sign(x)*sqrt(x^2/sum of squares), MAX's maximum
// never a NaN.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "Normalizer", []int{1}, normalizer) }

func normalizer(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	switch x.DataType() {
	case tensor.Float, tensor.Double, tensor.Int64, tensor.Int32:
	default:
		return nil, op.errorf("type", "X must be float, double, int64 or int32")
	}
	if x.Rank() != 1 && x.Rank() != 2 {
		return nil, op.errorf("rank", "X must be [N, C] or [C]")
	}
	norm, err := n.Str("norm", "MAX")
	if err != nil {
		return nil, err
	}
	if norm != "MAX" && norm != "L1" && norm != "L2" {
		return nil, op.errorf("norm", "norm %q", norm)
	}
	y, err := newTensor(opt, op, tensor.Float, x.Shape())
	if err != nil {
		return nil, err
	}
	c := x.Shape()[x.Rank()-1]
	rows := 1
	if x.Rank() == 2 {
		rows = x.Shape()[0]
	}
	out := data[float32](y)
	for r := range rows {
		var z float32
		if norm == "MAX" {
			z = -math.MaxFloat32 // onnxruntime's start; a NaN is never greater
		}
		squares := make([]float32, c)
		for i := range c {
			v := float32Of(x, r*c+i)
			switch norm {
			case "MAX":
				if v > z {
					z = v
				}
			case "L1":
				z += float32(math.Abs(float64(v)))
			default:
				if x.DataType() == tensor.Float {
					squares[i] = v * v
				} else {
					w := realOf(elementAt(x, r*c+i))
					squares[i] = float32(w * w)
				}
				z += squares[i]
			}
		}
		for i := range c {
			v := float32Of(x, r*c+i)
			switch {
			case z == 0:
				out[r*c+i] = v
			case norm == "L2":
				q := float32(math.Sqrt(float64(squares[i] / z)))
				if v < 0 {
					q = -q
				}
				out[r*c+i] = q
			default:
				out[r*c+i] = v / z
			}
		}
	}
	return values(y), nil
}
