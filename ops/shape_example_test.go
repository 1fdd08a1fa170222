package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleShape() {
	x := tensor.MustNew(tensor.Bool, 2, 3, 4)
	all, _ := tensor.ToSlice[int64](ops.Shape(x, ops.ShapeOptions{}))
	// start and end count from the end when negative, and are clamped.
	last, _ := tensor.ToSlice[int64](ops.Shape(x, ops.ShapeOptions{Start: -1, End: new(10)}))
	fmt.Println(all, last)
	// Output:
	// [2 3 4] [4]
}
