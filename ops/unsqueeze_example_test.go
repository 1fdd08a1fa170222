package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleUnsqueeze() {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	y, err := ops.Unsqueeze(x, ops.UnsqueezeOptions{Axes: []int{0, -1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(y.Shape(), y.SharesStorage(x))

	_, err = ops.Unsqueeze(x, ops.UnsqueezeOptions{Axes: []int{1, -3}})
	fmt.Println(err)
	// Output:
	// [1 2 3 1] true
	// Unsqueeze-25 A [C2] axis 1 designated twice (1 and -3)
}
