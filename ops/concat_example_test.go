package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleConcat() {
	a := tensor.MustFromSlice([]int32{1, 2, 3, 4}, 2, 2)
	b := tensor.MustFromSlice([]int32{5, 6}, 2, 1)
	y, err := ops.Concat([]*tensor.Tensor{a, b}, ops.ConcatOptions{Axis: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int32](y)
	fmt.Println(y.Shape(), v)

	// Shapes must agree off the axis.
	_, err = ops.Concat([]*tensor.Tensor{a, b}, ops.ConcatOptions{Axis: 0})
	fmt.Println(err)
	// Output:
	// [2 3] [1 2 5 3 4 6]
	// Concat-13 inputs [C2] input 1 has shape [2 1] and input 0 has shape [2 2]: dimension 1 differs off the axis 0 (no broadcasting, [R2])
}
