package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleSplit() {
	x := tensor.MustFromSlice([]int64{1, 2, 3, 4, 5, 6, 7})
	// num_outputs: every part ceil(7/3) = 3 long, the last one smaller.
	parts, err := ops.Split(x, ops.SplitOptions{NumOutputs: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range parts {
		v, _ := tensor.ToSlice[int64](p)
		fmt.Println(v)
	}
	// Explicit sizes must add up to the dimension.
	_, err = ops.Split(x, ops.SplitOptions{Split: []int{3, 3}})
	fmt.Println(err)
	// Output:
	// [1 2 3]
	// [4 5 6]
	// [7]
	// Split-18 [split] the sizes [3 3] add up to 6, not to dimension 0 (7)
}
