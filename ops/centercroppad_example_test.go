package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleCenterCropPad() {
	x := tensor.MustFromSlice([]int32{1, 2, 3, 4, 5, 6, 7, 8, 9}, 3, 3)
	// Crop the rows to 1 around the centre, pad the columns to 5.
	y, err := ops.CenterCropPad(x, ops.CenterCropPadOptions{Shape: []int{1, 5}})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int32](y)
	fmt.Println(y.Shape(), v)
	// Output:
	// [1 5] [0 4 5 6 0]
}
