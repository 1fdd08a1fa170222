package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleSqueeze() {
	x := tensor.MustNew(tensor.String, 1, 3, 1, 2)
	y, err := ops.Squeeze(x, ops.SqueezeOptions{Axes: []int{-2}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(y.Shape())

	// Without axes, every dim of size 1 goes.
	y, _ = ops.Squeeze(x, ops.SqueezeOptions{})
	fmt.Println(y.Shape())

	_, err = ops.Squeeze(x, ops.SqueezeOptions{Axes: []int{1}})
	fmt.Println(err)
	// Output:
	// [1 3 2]
	// [3 2]
	// Squeeze-25 [not-one] axis 1 has size 3, not 1 (input shape [1 3 1 2])
}
