package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleTranspose() {
	x := tensor.MustFromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	// Without perm, the axes are reversed.
	y, err := ops.Transpose(x, ops.TransposeOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int32](y)
	fmt.Println(y.Shape(), v)

	_, err = ops.Transpose(x, ops.TransposeOptions{Perm: []int{0, 0}})
	fmt.Println(err)
	// Output:
	// [3 2] [1 4 2 5 3 6]
	// Transpose-25 [perm] perm [0 0]: axis 0 appears twice
}
