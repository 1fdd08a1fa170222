package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The specification's second example: from 10 down to 4, exclusive, by -2.
func ExampleRange() {
	y, err := ops.Range(tensor.Scalar(int64(10)), tensor.Scalar(int64(4)), tensor.Scalar(int64(-2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int64](y)
	fmt.Println(v)
	// Output: [10 8 6]
}
