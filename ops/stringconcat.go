// StringConcat joins two string tensors element by element, X's string then
// Y's, with multidirectional (numpy) broadcasting.
//
// Versions: 20. Rules: [type] both hold strings; [broadcast] the shapes
// broadcast; [size] the output fits the size limit.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("StringConcat", []int{20}, [2]int{2, 2}, [2]int{1, 1}, stringConcatNode)
	declareAttrs("StringConcat")
}

func stringConcatNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	y, err := n.requiredInput(in, 1, "Y")
	if err != nil {
		return nil, err
	}
	if x.DataType() != tensor.String || y.DataType() != tensor.String {
		return nil, op.errorf("type", "X and Y must hold strings, got %v and %v", x.DataType(), y.DataType())
	}
	shape, err := broadcastShapes(x.Shape(), y.Shape())
	if err != nil {
		return nil, op.wrap("broadcast", err, "X and Y")
	}
	z, err := opt.newOverwritten(op, tensor.String, shape)
	if err != nil {
		return nil, err
	}
	if z.Len() == 0 {
		return values(z), nil
	}
	xs, ys := broadcastStrides(x.Shape(), shape), broadcastStrides(y.Shape(), shape)
	pos := make([]int, len(shape))
	xi, yi := 0, 0
	out, xv, yv := z.Strings(), x.Strings(), y.Strings()
	for i := range out {
		out[i] = xv[xi] + yv[yi]
		// the next position, row-major, and the inputs' offsets with it
		for d := len(shape) - 1; d >= 0; d-- {
			pos[d]++
			xi += xs[d]
			yi += ys[d]
			if pos[d] < shape[d] {
				break
			}
			xi -= pos[d] * xs[d]
			yi -= pos[d] * ys[d]
			pos[d] = 0
		}
	}
	return values(z), nil
}

// broadcastStrides returns the element strides of a tensor of shape in read
// as shape out (which it broadcasts to): 0 on the dims it repeats.
func broadcastStrides(in, out []int) []int {
	s := make([]int, len(out))
	stride := 1
	for d := len(in) - 1; d >= 0; d-- {
		k := d + len(out) - len(in)
		if in[d] != 1 {
			s[k] = stride
		}
		stride *= in[d]
	}
	return s
}
