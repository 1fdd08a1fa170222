// PRelu computes X for X >= 0 and slope*X below, elementwise, slope
// broadcast to X's shape (unidirectional broadcasting: the output has X's
// shape).
//
// Versions: 1 (consumed_inputs changes nothing), 6, 7 (states the
// unidirectional broadcast; the earlier versions take a slope of X's shape,
// of one element, or of C elements applied along axis 1), 9 (adds int32,
// int64, uint32, uint64) and 16 (adds bfloat16). The rules: [type] X's type
// is one the version allows and slope's is X's; [broadcast] slope broadcasts
// to X's shape.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

var preluOp = &binaryOp{
	name: "PRelu", types: versionTypes{1: floatTypes, 6: floatTypes, 7: floatTypes, 9: floatTypes | int3264Types, 16: floatBFTypes | int3264Types},
	kernel: fixedKernels(numberBinaries([8]binaryKernel{
		nil, nil, preluSpans[uint32](), preluSpans[uint64](), nil, nil, preluSpans[int32](), preluSpans[int64](),
	}, preluFloat32(), preluFloat64())),
}

func init() {
	register("PRelu", []int{1, 6, 7, 9, 16}, [2]int{2, 2}, [2]int{1, 1}, preluNode)
	declareAttrs("PRelu", consumedInputs)
}

func preluNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	slope, err := n.requiredInput(in, 1, "slope")
	if err != nil {
		return nil, err
	}
	if n.Version < 7 && slope.Rank() == 1 && x.Rank() >= 2 && slope.Len() == x.Shape()[1] && slope.Len() != 1 {
		// Versions 1 and 6 apply a slope of C elements along the channel
		// axis (axis 1), as Caffe2 and onnxruntime do.
		channel := make([]int, x.Rank()-1)
		for k := range channel {
			channel[k] = 1
		}
		channel[0] = slope.Len()
		if slope, err = slope.View(channel...); err != nil {
			return nil, n.op().wrap("broadcast", err, "slope")
		}
	}
	out, err := broadcastShapes(x.Shape(), slope.Shape())
	if err != nil || !tensor.SameShape(out, x.Shape()) {
		return nil, n.op().errorf("broadcast", "slope of shape %v does not broadcast to X's shape %v", slope.Shape(), x.Shape())
	}
	y, err := preluOp.apply(opt, n, x, slope)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func preluSpans[T number]() binarySpans[T, T, T] {
	return binarySpans[T, T, T]{
		Both: func(o, x, s []T) {
			for i, v := range x[:len(o)] {
				if v < 0 {
					v *= s[i]
				}
				o[i] = v
			}
		},
		Left: func(o []T, x T, s []T) {
			for i := range o {
				if x < 0 {
					o[i] = x * s[i]
				} else {
					o[i] = x
				}
			}
		},
		Right: func(o, x []T, s T) {
			for i, v := range x[:len(o)] {
				if v < 0 {
					v *= s
				}
				o[i] = v
			}
		},
	}
}

// preluFloat32 and preluFloat64 are PRelu's float loops. The sign of X is
// a coin toss in a network's activations, so a branch on it is
// mispredicted half the time (about 8 ns an element): these loops compute
// every product and pick between the bits without a branch (CMOV), the
// same bits as the branch. A float32 slope broadcast over a span is
// LeakyRelu's vector loop with alpha the slope (x < 0: alpha·x, the
// product of the same two float32 values).
func preluFloat32() binarySpans[float32, float32, float32] {
	k := preluSpans[float32]()
	k.Both = func(o, x, s []float32) {
		x, s = x[:len(o)], s[:len(o)]
		for i, v := range x {
			b, p := math.Float32bits(v), math.Float32bits(v*s[i])
			if v < 0 {
				b = p
			}
			o[i] = math.Float32frombits(b)
		}
	}
	k.Right = func(o, x []float32, s float32) { mathf.LeakyRelusTo(o, x, s) }
	return k
}

func preluFloat64() binarySpans[float64, float64, float64] {
	k := preluSpans[float64]()
	k.Both = func(o, x, s []float64) {
		x, s = x[:len(o)], s[:len(o)]
		for i, v := range x {
			b, p := math.Float64bits(v), math.Float64bits(v*s[i])
			if v < 0 {
				b = p
			}
			o[i] = math.Float64frombits(b)
		}
	}
	k.Right = func(o, x []float64, s float64) {
		x = x[:len(o)]
		for i, v := range x {
			b, p := math.Float64bits(v), math.Float64bits(v*s)
			if v < 0 {
				b = p
			}
			o[i] = math.Float64frombits(b)
		}
	}
	return k
}
