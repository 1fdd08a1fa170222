package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// A 2x3 mask of ones, as exporters build attention masks.
func ExampleConstantOfShape() {
	y, err := ops.ConstantOfShape([]int{2, 3}, ops.ConstantOfShapeOptions{Value: tensor.MustFromSlice([]int64{1}, 1)})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int64](y)
	fmt.Println(y.Shape(), v)
	// Output: [2 3] [1 1 1 1 1 1]
}
