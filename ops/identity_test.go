package ops

import (
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestIdentity(t *testing.T) {
	x := seq64(0, 2, 3)
	seq := &tensor.Sequence{ElemType: tensor.Int64, Items: []*tensor.Tensor{x}}
	opt := &tensor.Optional{Value: x, ElemType: "tensor(int64)"}
	empty := &tensor.Optional{ElemType: "seq(tensor(float))"}
	for _, v := range []int{1, 13, 14, 16, 19, 21, 23, 24, 25} {
		for _, in := range []tensor.Value{x, seq, opt, empty} {
			out, err := runKernel(nil, "Identity", v, 1, nil, in)
			_, isSeq := in.(*tensor.Sequence)
			_, isOpt := in.(*tensor.Optional)
			switch {
			case isSeq && v < 14, isOpt && v < 16:
				wantRule(t, err, "type", "")
			case err != nil:
				t.Fatalf("Identity-%d of %s: %v", v, in.Describe(), err)
			case out[0] != in:
				t.Fatalf("Identity-%d of %s returned another value", v, in.Describe())
			}
		}
	}
	// The result is a view: the same storage, at no cost.
	y, err := Identity(x)
	if err != nil || !y.(*tensor.Tensor).SharesStorage(x) {
		t.Fatalf("Identity: %v, shares storage: %v", err, err == nil && y.(*tensor.Tensor).SharesStorage(x))
	}
	_, err = runKernel(nil, "Identity", 25, 1, nil, nil)
	wantRule(t, err, "input", "")
	_, err = Identity((*tensor.Tensor)(nil))
	wantRule(t, err, "input", "")
}
