package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The specification's example 2: each index tuple picks a row.
func ExampleGatherND() {
	data := tensor.MustFromSlice([]int32{0, 1, 2, 3}, 2, 2)
	y, err := ops.GatherND(data, tensor.MustFromSlice([]int64{1, 0}, 2, 1), ops.GatherNDOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int32](y)
	fmt.Println(y.Shape(), v)
	// Output: [2 2] [2 3 0 1]
}
