package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleMaxPool() {
	x := tensor.MustFromSlice([]float32{
		1, 2, 3, 4,
		5, 6, 7, 8,
		9, 10, 11, 12,
		13, 14, 15, 16,
	}, 1, 1, 4, 4)
	y, indices, err := ops.MaxPool(x, ops.MaxPoolOptions{KernelShape: []int{2, 2}, Strides: []int{2, 2}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(y)
	fmt.Println(indices)

	_, _, err = ops.MaxPool(x, ops.MaxPoolOptions{KernelShape: []int{2, 2}, Strides: []int{0, 2}})
	fmt.Println(err)
	// Output:
	// tensor(float)[1 1 2 2]
	// [[[[6 8]
	//    [14 16]]]]
	// tensor(int64)[1 1 2 2]
	// [[[[5 7]
	//    [13 15]]]]
	// MaxPool-22 [strides] strides[0] is 0, outside [1, 2147483647]
}
