// HannWindow generates the Hann window,
// sin²(πn/N) = 0.5 - 0.5 cos(2πn/N), of size values. The
// window generators' shared glue (windowNode, registerWindow) is here;
// the cosine sum is ops/internal/signal's CosineSum.
//
// Versions: 17.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/signal"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerWindow("HannWindow", 0.5, 0.5, 0) }

// The window generators' shared glue (HannWindow, HammingWindow,
// BlackmanWindow, version 17): a 1-D tensor of size values w(n), n = 0 ..
// size-1, of the cosine sum w(n) = a0 - a1 cos(2πn/N) + a2 cos(4πn/N), with
// N = size when periodic (the default) and size-1 otherwise. Each value is
// computed in float64 and rounded once to output_datatype (float by
// default; any numeric type, integers truncated). A symmetric window of
// size 1 is [1], as torch's windows, which the specification cites (its
// formula divides 0 by 0 there).
//
// Rules: [size] an int32 or int64 scalar, not negative;
// [output_datatype] a numeric type; [size] the output fits the size limit.

// windowNode returns the kernel of a window with coefficients a0, a1, a2.
func windowNode(a0, a1, a2 float64) Kernel {
	return func(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
		opt = opt.orDefault()
		op := n.op()
		st, err := n.requiredInput(in, 0, "size")
		if err != nil {
			return nil, err
		}
		periodic, err := n.Int("periodic", 1)
		if err != nil {
			return nil, err
		}
		dt, err := n.Int("output_datatype", int64(tensor.Float))
		if err != nil {
			return nil, err
		}
		if (st.DataType() != tensor.Int32 && st.DataType() != tensor.Int64) || st.Len() != 1 || st.Rank() > 1 {
			return nil, op.errorf("size", "size must be an int32 or int64 scalar, got %s", st.Describe())
		}
		sv, _ := int64sOf(st)
		size := sv[0]
		if size < 0 || size > math.MaxInt32 {
			return nil, op.errorf("size", "size must be in [0, 2^31-1], got %d", size)
		}
		out := tensor.DataType(dt)
		if !numericType(out) || castTypeSince(out) > 17 {
			return nil, op.errorf("output_datatype", "output_datatype %d is not a numeric type", dt)
		}
		y, err := opt.newOverwritten(op, out, []int{int(size)})
		if err != nil {
			return nil, err
		}
		if err := opt.charge(op, "window values", size*8); err != nil {
			return nil, err
		}
		v := make([]float64, size)
		signal.CosineSum(v, a0, a1, a2, periodic != 0)
		convert.EncodeFloats(y, 0, v, convert.DefaultCast)
		return values(y), nil
	}
}

// registerWindow registers one window operator.
func registerWindow(name string, a0, a1, a2 float64) {
	register(name, []int{17}, [2]int{1, 1}, [2]int{1, 1}, windowNode(a0, a1, a2))
	declareAttrs(name, AttrSpec{Name: "output_datatype", Type: AttrInt}, AttrSpec{Name: "periodic", Type: AttrInt})
}
