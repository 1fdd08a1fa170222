package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleConstant() {
	y, err := ops.Constant(ops.ConstantOptions{ValueInts: []int64{2, 3}})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int64](y)
	fmt.Println(y.Describe(), v)

	_, err = ops.Constant(ops.ConstantOptions{})
	fmt.Println(err)
	// Output:
	// tensor(int64)[2] [2 3]
	// Constant-25 [value] exactly one value must be set, got none
}
