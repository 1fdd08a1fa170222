// LpPool (1, 2, 11, 18, 22): "consumes an input tensor X and applies Lp
// pooling across the tensor according to kernel sizes, stride sizes, and
// pad lengths. Lp pooling consisting of computing the Lp norm on all
// values of a subset of the input tensor": (sum of |x|^p)^(1/p) over the
// real elements of each window (each |x|^p and the root in float64,
// rounded to the computing type). p is a float (default 2.0) in version 1
// and an int (default 2) from 2; ceil_mode and dilations come in 18,
// bfloat16 in 22. The geometry is pooling.go's.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("LpPool", []int{1, 2, 11, 18, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "X")
		if err != nil {
			return nil, err
		}
		var p float64
		axes, err := windowGeometry(opt, n, x, n.Version >= 18, n.Version >= 18, func() (err error) {
			p, err = lpExponent(n)
			return err
		})
		if err != nil {
			return nil, err
		}
		if x.DataType() == tensor.Double {
			return windowPool(opt, opOf(n), x, axes, lpTerm[float64](p), lpRoot[float64](p))
		}
		return windowPool(opt, opOf(n), x, axes, lpTerm[float32](p), lpRoot[float32](p))
	})
}

// lpExponent reads p: a float in version 1, an int from 2, default 2; it
// must be a positive number.
func lpExponent(n *ops.Node) (float64, error) {
	var p float64
	if n.Version == 1 {
		f, err := n.Float("p", 2)
		if err != nil {
			return 0, err
		}
		p = float64(f)
	} else {
		i, err := n.Int("p", 2)
		if err != nil {
			return 0, err
		}
		p = float64(i)
	}
	if !(p > 0) || math.IsInf(p, 0) {
		return 0, opOf(n).errorf("p", "p is %v, expected a positive number", p)
	}
	return p, nil
}

// lpTerm is |x|^p, and lpRoot the p-th root of a sum.
func lpTerm[A float32 | float64](p float64) func(A) A {
	return func(v A) A { return A(math.Pow(math.Abs(float64(v)), p)) }
}

func lpRoot[A float32 | float64](p float64) func(A, []int) A {
	return func(s A, _ []int) A { return A(math.Pow(float64(s), 1/p)) }
}
