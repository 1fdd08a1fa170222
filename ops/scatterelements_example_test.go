package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Two updates of the same element, added (reduction add): 1 + 1.1 + 2.1.
func ExampleScatterElements() {
	data := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5}, 1, 5)
	y, err := ops.ScatterElements(data, tensor.MustFromSlice([]int64{1, 1}, 1, 2), tensor.MustFromSlice([]float32{1.1, 2.1}, 1, 2),
		ops.ScatterElementsOptions{Axis: 1, Reduction: "add"})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[float32](y)
	fmt.Println(v)
	// Output: [1 5.2 3 4 5]
}
