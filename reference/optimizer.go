package reference

// The inputs and outputs the optimizers of ai.onnx.preview.training share
// (Adagrad, Momentum, Adam), after the ONNX specification: "Input: R, the
// initial learning rate (scalar); T, the update count of 'X' (scalar);
// then the tensors to be optimized, their gradients and the optimizer
// states, each a list of n tensors"; "Output: the updated tensors, then
// the updated states". T1 (R) and T3 (X, G, states and outputs) are float
// or double, T2 (T) is int64.

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// optimizerElement computes one element: x, g and the states s into the
// new x followed by the new states.
type optimizerElement func(r float64, t int64, x, g float64, s []float64) []float64

// optimizer checks the lists named lists (X, G, states) and applies f to
// each element, in float64, rounding each result once to the output type.
func optimizer(opt *ops.Options, n *ops.Node, in []tensor.Value, lists []string, f optimizerElement) ([]tensor.Value, error) {
	op := opOf(n)
	k := len(lists)
	if len(in) < 2+k || (len(in)-2)%k != 0 {
		return nil, op.errorf("inputs", "%d inputs for %d lists", len(in), k)
	}
	count := (len(in) - 2) / k
	if n.NumOutputs > 0 && n.NumOutputs != (k-1)*count {
		return nil, op.errorf("outputs", "%d outputs, expected %d", n.NumOutputs, (k-1)*count)
	}
	R, err := requiredInput(op, in, 0, "R")
	if err != nil {
		return nil, err
	}
	if !(R.DataType() == tensor.Float || R.DataType() == tensor.Double) || R.Len() != 1 || R.Rank() > 1 {
		return nil, op.errorf("R", "R must be a float or double scalar")
	}
	T, err := requiredInput(op, in, 1, "T")
	if err != nil {
		return nil, err
	}
	if T.DataType() != tensor.Int64 || T.Len() != 1 || T.Rank() > 1 {
		return nil, op.errorf("T", "T must be an int64 scalar")
	}
	r := realOf(elementAt(R, 0))
	t := data[int64](T)[0]
	var dt tensor.DataType
	for i := range count {
		for j := range k {
			x, err := requiredInput(op, in, 2+j*count+i, lists[j])
			if err != nil {
				return nil, err
			}
			if i == 0 && j == 0 {
				dt = x.DataType()
				if dt != tensor.Float && dt != tensor.Double {
					return nil, op.errorf("type", "X must be float or double")
				}
			} else if x.DataType() != dt {
				return nil, op.errorf("type", "one type for all tensors")
			}
			if j > 0 && !sameInts(x.Shape(), in[2+i].(*tensor.Tensor).Shape()) {
				return nil, op.errorf("shape", "%s_%d and X_%d differ in shape", lists[j], i+1, i+1)
			}
		}
	}
	out := make([]*tensor.Tensor, (k-1)*count)
	for i := range count {
		for j := range k - 1 {
			y, err := newTensor(opt, op, dt, in[2+i].(*tensor.Tensor).Shape())
			if err != nil {
				return nil, err
			}
			out[j*count+i] = y
		}
	}
	for i := range count {
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		X := in[2+i].(*tensor.Tensor)
		for e := range X.Len() {
			s := make([]float64, k-2)
			for j := range s {
				s[j] = realOf(elementAt(in[2+(2+j)*count+i].(*tensor.Tensor), e))
			}
			g := realOf(elementAt(in[2+count+i].(*tensor.Tensor), e))
			for j, v := range f(r, t, realOf(elementAt(X, e)), g, s) {
				setScalar(out[j*count+i], e, floatOf(v))
			}
		}
	}
	return values(out...), nil
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
