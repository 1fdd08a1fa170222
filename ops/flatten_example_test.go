package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleFlatten() {
	x := tensor.MustNew(tensor.Float, 2, 3, 4, 5)
	y, err := ops.Flatten(x, ops.FlattenOptions{Axis: new(2)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(y.Shape(), y.SharesStorage(x))

	// The default axis is 1.
	y, _ = ops.Flatten(x, ops.FlattenOptions{})
	fmt.Println(y.Shape())

	_, err = ops.Flatten(x, ops.FlattenOptions{Axis: new(5)})
	fmt.Println(err)
	// Output:
	// [6 20] true
	// [2 60]
	// Flatten-25 axis [C1] axis 5 is outside [-4, 4] (input rank 4)
}
