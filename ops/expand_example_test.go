package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleExpand() {
	// The broadcast is two-way: [3, 1] and [2, 1, 4] give [2, 3, 4].
	x := tensor.MustFromSlice([]int64{1, 2, 3}, 3, 1)
	y, err := ops.Expand(x, ops.ExpandOptions{Shape: []int{2, 1, 4}})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int64](y)
	fmt.Println(y.Shape(), v[:12])

	_, err = ops.Expand(x, ops.ExpandOptions{Shape: []int{2, 2}})
	fmt.Println(err)
	// Output:
	// [2 3 4] [1 1 1 1 2 2 2 2 3 3 3 3]
	// Expand-13 [broadcast] shapes [3 1] and [2 2] do not broadcast: dimension 0 is 3 and 2
}
