// Normalizer (ai.onnx.ml, version 1) divides each row of X ([N, C] or [C],
// one row; float, double, int64 or int32) by its norm, writing Y, float of
// X's shape. norm is MAX (the default: the row's greatest value, not its
// greatest magnitude, as the specification's max(x_i) says), L1 (the sum
// of the magnitudes) or L2 (each element becomes sign(x)*sqrt(x^2/sum of
// squares), which is x over the Euclidean norm). A row whose norm is 0 is
// copied unchanged.
//
// The arithmetic is onnxruntime's, which the specification leaves open:
// each element is converted to float32 (its square computed in X's type,
// in float64 for the integers), the sums and quotients are float32, in
// row order; a NaN never becomes MAX's maximum.
//
// Rules: [type]; [rank] 1 or 2; [norm] MAX, L1 or L2.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainML, "Normalizer", []int{1}, [2]int{1, 1}, [2]int{1, 1}, normalizerNode)
	declareAttrsIn(domainML, "Normalizer", AttrSpec{Name: "norm", Type: AttrString})
}

func normalizerNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	rows, cols, err := treeInput(op, x, tensor.Float, tensor.Double, tensor.Int64, tensor.Int32)
	if err != nil {
		return nil, err
	}
	norm, err := n.Str("norm", "MAX")
	if err != nil {
		return nil, err
	}
	if norm != "MAX" && norm != "L1" && norm != "L2" {
		return nil, op.errorf("norm", "norm must be MAX, L1 or L2, got %q", norm)
	}
	y, err := opt.newOverwritten(op, tensor.Float, x.Shape())
	if err != nil {
		return nil, err
	}
	out := asElems[float32](y.Bytes())[:y.Len()]
	// value(i) is element i as float32, square(i) its square as
	// onnxruntime computes it.
	value := func(i int) float32 { return asElems[float32](x.Bytes())[i] }
	square := func(i int) float32 { v := asElems[float32](x.Bytes())[i]; return v * v }
	switch x.DataType() {
	case tensor.Double:
		value = func(i int) float32 { return float32(asElems[float64](x.Bytes())[i]) }
		square = func(i int) float32 { v := asElems[float64](x.Bytes())[i]; return float32(v * v) }
	case tensor.Int64:
		value = func(i int) float32 { return float32(asElems[int64](x.Bytes())[i]) }
		square = func(i int) float32 { v := float64(asElems[int64](x.Bytes())[i]); return float32(v * v) }
	case tensor.Int32:
		value = func(i int) float32 { return float32(asElems[int32](x.Bytes())[i]) }
		square = func(i int) float32 { v := float64(asElems[int32](x.Bytes())[i]); return float32(v * v) }
	}
	err = parallelRange(opt, rows, mulCounts(rows, cols), func(lo, hi int) error {
		for r := lo; r < hi; r++ {
			normalizeRow(norm, out[r*cols:(r+1)*cols], r*cols, value, square)
		}
		return nil
	})
	if err != nil {
		return nil, op.stopped(err)
	}
	return values(y), nil
}

// normalizeRow writes one row of Normalizer, whose elements start at
// element base of X.
func normalizeRow(norm string, out []float32, base int, value, square func(int) float32) {
	var z float32
	switch norm {
	case "MAX":
		z = -math.MaxFloat32
		for i := range out {
			if v := value(base + i); v > z {
				z = v
			}
		}
	case "L1":
		for i := range out {
			z += float32(math.Abs(float64(value(base + i))))
		}
	default:
		for i := range out {
			out[i] = square(base + i)
			z += out[i]
		}
	}
	for i := range out {
		v := value(base + i)
		switch {
		case z == 0:
			out[i] = v
		case norm == "L2":
			q := float32(math.Sqrt(float64(out[i] / z)))
			if v < 0 {
				q = -q
			}
			out[i] = q
		default:
			out[i] = v / z
		}
	}
}
