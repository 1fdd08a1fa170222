package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The specification's first example: along axis 1, output[i][j] =
// data[i][indices[i][j]].
func ExampleGatherElements() {
	data := tensor.MustFromSlice([]int32{1, 2, 3, 4}, 2, 2)
	y, err := ops.GatherElements(data, tensor.MustFromSlice([]int64{0, 0, 1, 0}, 2, 2), ops.GatherElementsOptions{Axis: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int32](y)
	fmt.Println(v)
	// Output: [1 1 4 3]
}
