package reference_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// The reference kernel of Transpose-21 run on a node directly, then the
// fast kernel of the same node, and the two compared.
func ExampleKernel() {
	n := &ops.Node{OpType: "Transpose", Version: 21, NumOutputs: 1,
		Attrs: map[string]ops.Attribute{"perm": {Type: ops.AttrInts, Ints: []int64{1, 0}}}}
	x := tensor.MustFromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	run, _ := reference.Kernel("", "Transpose", 21)
	ref, err := run(&ops.Options{}, n, []tensor.Value{x})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ref[0].Describe())
	y, _ := tensor.ToSlice[int32](ref[0].(*tensor.Tensor))
	fmt.Println(y)

	s, _ := ops.Lookup("", "Transpose", 21)
	fast, _ := s.Run(&ops.Options{}, n, []tensor.Value{x})
	fmt.Println(reference.Agree(n, []tensor.Value{x}, fast, ref))
	// Output:
	// tensor(int32)[3 2]
	// [1 4 2 5 3 6]
	// <nil>
}
