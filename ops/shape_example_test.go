package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleShape() {
	x := tensor.MustNew(tensor.Bool, 2, 3, 4)
	all, err := ops.Shape(x, ops.ShapeOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// start and end count from the end when negative, and are clamped.
	last, _ := ops.Shape(x, ops.ShapeOptions{Start: -1, End: new(10)})
	a, _ := tensor.ToSlice[int64](all)
	l, _ := tensor.ToSlice[int64](last)
	fmt.Println(a, l)
	// Output:
	// [2 3 4] [4]
}
