// Clip, versions 1, 6, 11, 12, 13. ONNX Operators.md:
//
// "Clip operator limits the given input within an interval. The interval
// is specified by the inputs 'min' and 'max'. They default to
// numeric_limits::lowest() and numeric_limits::max(), respectively. When
// 'min' is greater than 'max', the clip operator sets all the 'input'
// values to the value of 'max'. Thus, this is equivalent to 'Min(max,
// Max(input, min))'."
//
// Versions 1 and 6 take min and max as float attributes, absent meaning
// the float type's lowest and greatest values; their value is first
// rounded to the input's type.

package reference

import (
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Clip", []int{1, 6, 11, 12, 13}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		ts, err := inputs(in)
		if err != nil {
			return nil, err
		}
		if len(ts) < 1 || ts[0] == nil {
			return nil, fmt.Errorf("Clip takes an input")
		}
		x := ts[0]
		var lo, hi *scalar
		if n.Version < 11 {
			l := roundTo(x.DataType(), floatOf(attrFloat(n, "min", -math.MaxFloat32)))
			h := roundTo(x.DataType(), floatOf(attrFloat(n, "max", math.MaxFloat32)))
			lo, hi = &l, &h
		} else {
			for i, bound := range []**scalar{&lo, &hi} {
				if i+1 < len(ts) && ts[i+1] != nil {
					v := elementAt(ts[i+1], 0)
					*bound = &v
				}
			}
		}
		out, err := elementwiseN(opt, x.DataType(), func(v []scalar) scalar {
			y := v[0]
			if lo != nil && less(y, *lo) {
				y = *lo
			}
			if hi != nil && less(*hi, y) {
				y = *hi
			}
			return y
		}, x)
		if err != nil {
			return nil, err
		}
		return []tensor.Value{out}, nil
	})
}
