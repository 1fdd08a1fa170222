package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleSize() {
	x := tensor.MustNew(tensor.Int4, 2, 3, 4)
	size, err := ops.Size(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	n, _ := tensor.ToSlice[int64](size)
	fmt.Println(size.Shape(), n)
	// Output:
	// [] [24]
}
