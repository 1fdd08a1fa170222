package ops

import (
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// A ConvTranspose node keeps the geometry of its last run: runs of one
// node over inputs whose shapes change (X, then W) give what a new node
// gives each time, and a type refused stays refused with a kept geometry.
func TestConvTransposeKeptGeometry(t *testing.T) {
	s, err := Lookup("", "ConvTranspose", 22)
	if err != nil {
		t.Fatal(err)
	}
	attrs := map[string]Attribute{"strides": ints(2, 2), "pads": ints(1, 0, 0, 1)}
	kept := &Node{OpType: "ConvTranspose", Version: s.Since, Attrs: attrs, NumOutputs: 1}
	for _, c := range []struct{ x, w []int }{
		{[]int{1, 1, 3, 3}, []int{1, 2, 3, 3}},
		{[]int{1, 1, 3, 3}, []int{1, 2, 3, 3}},
		{[]int{2, 1, 4, 5}, []int{1, 2, 3, 3}},
		{[]int{2, 1, 4, 5}, []int{1, 3, 2, 2}},
		{[]int{1, 1, 3, 3}, []int{1, 2, 3, 3}},
	} {
		x, w := convRamp(product(c.x), c.x...), convRamp(product(c.w), c.w...)
		got, err := s.Run(nil, kept, []tensor.Value{x, w})
		if err != nil {
			t.Fatal(err)
		}
		fresh := &Node{OpType: "ConvTranspose", Version: s.Since, Attrs: attrs, NumOutputs: 1}
		want, err := s.Run(nil, fresh, []tensor.Value{x, w})
		if err != nil {
			t.Fatal(err)
		}
		if !got[0].(*tensor.Tensor).Equal(want[0].(*tensor.Tensor)) {
			t.Fatalf("X %v, W %v: the node that kept a geometry gives %v, a new node %v", c.x, c.w, got[0], want[0])
		}
	}
	x := tensor.MustNew(tensor.Int32, 1, 1, 3, 3)
	w := tensor.MustNew(tensor.Int32, 1, 2, 3, 3)
	if _, err := s.Run(nil, kept, []tensor.Value{x, w}); err == nil {
		t.Fatal("int32 X and W with a kept geometry: no error")
	}
}
