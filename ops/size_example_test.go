package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleSize() {
	x := tensor.MustNew(tensor.Int4, 2, 3, 4)
	n, _ := tensor.ToSlice[int64](ops.Size(x))
	fmt.Println(ops.Size(x).Shape(), n)
	// Output:
	// [] [24]
}
