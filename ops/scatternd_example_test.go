package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The specification's example 1: elements 4, 3, 1 and 7 replaced.
func ExampleScatterND() {
	data := tensor.MustFromSlice([]int32{1, 2, 3, 4, 5, 6, 7, 8})
	indices := tensor.MustFromSlice([]int64{4, 3, 1, 7}, 4, 1)
	y, err := ops.ScatterND(data, indices, tensor.MustFromSlice([]int32{9, 10, 11, 12}), ops.ScatterNDOptions{Reduction: "none"})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int32](y)
	fmt.Println(v)
	// Output: [1 11 3 10 9 6 7 12]
}
