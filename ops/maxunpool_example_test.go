package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// MaxUnpool puts MaxPool's maxima back where MaxPool found them.
func ExampleMaxUnpool() {
	x := tensor.MustFromSlice([]float32{
		1, 9, 3, 4,
		5, 6, 8, 7,
	}, 1, 1, 2, 4)
	pool := ops.MaxPoolOptions{KernelShape: []int{2, 2}, Strides: []int{2, 2}}
	y, indices, err := ops.MaxPool(x, pool)
	if err != nil {
		fmt.Println(err)
		return
	}
	u, err := ops.MaxUnpool(y, indices, ops.MaxUnpoolOptions{KernelShape: pool.KernelShape, Strides: pool.Strides})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(u)
	// Output:
	// tensor(float)[1 1 2 4]
	// [[[[0 9 0 0]
	//    [0 0 8 0]]]]
}
