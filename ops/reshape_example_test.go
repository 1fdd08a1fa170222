package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleReshape() {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	// 0 copies the input's dim, -1 is inferred.
	y, err := ops.Reshape(x, ops.ReshapeOptions{Shape: []int{0, -1, 1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(y.Shape(), y.SharesStorage(x))

	_, err = ops.Reshape(x, ops.ReshapeOptions{Shape: []int{4, -1}})
	fmt.Println(err)
	// Output:
	// [2 3 1] true
	// Reshape-25 X [C1] cannot reshape [2 3] (6 elements) to [4 -1]: 6 is not a multiple of 4
}
