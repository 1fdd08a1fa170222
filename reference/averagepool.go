// AveragePool (1, 7, 10, 11, 19, 22): "consumes an input tensor X and
// applies average pooling across the tensor according to kernel sizes,
// stride sizes, and pad lengths. average pooling consisting of computing
// the average on all values of a subset of the input tensor according to
// the kernel size and downsampling the data into the output tensor Y for
// further processing." count_include_pad (7): "Whether include pad pixels
// when calculating values for the edges. Default is 0, doesn't count
// include pad": the sum of a window's real elements is divided by their
// number, or by the number of its taps inside the padded input. ceil_mode
// comes in 10, dilations in 19, bfloat16 in 22. The geometry is
// pooling.go's.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("AveragePool", []int{1, 7, 10, 11, 19, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "X")
		if err != nil {
			return nil, err
		}
		var include int64
		axes, err := windowGeometry(opt, n, x, n.Version >= 19, n.Version >= 10, func() error {
			if n.Version < 7 && n.Has("count_include_pad") {
				return op.errorf("attribute", "attribute count_include_pad is not defined in version %d", n.Version)
			}
			if include, err = n.Int("count_include_pad", 0); err != nil {
				return err
			}
			if include != 0 && include != 1 {
				return op.errorf("count_include_pad", "count_include_pad is %d, expected 0 or 1", include)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		// count is the number of taps of output o's window that are real
		// elements, or with count_include_pad inside the padded input.
		count := func(o []int) float64 {
			c := 1.0
			for i, g := range axes {
				if include == 1 { // the padded input, padding as elements
					g = poolAxis{in: g.in + g.padBegin + g.padEnd, kernel: g.kernel, stride: g.stride, dilation: g.dilation}
				}
				lo, hi := windowTaps(g, o[i])
				c *= float64(max(hi-lo, 0))
			}
			return c
		}
		if x.DataType() == tensor.Double {
			return windowPool(opt, op, x, axes, func(v float64) float64 { return v },
				func(s float64, o []int) float64 { return s / count(o) })
		}
		return windowPool(opt, op, x, axes, func(v float32) float32 { return v },
			func(s float32, o []int) float32 { return s / float32(count(o)) })
	})
}
