package tensor_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/tensor"
)

// A tensor over a copy of a Go slice, data first, then the shape; Data
// reads the elements back without copying (read-only).
func ExampleFromSlice() {
	x, err := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.Data[float32](x)
	fmt.Println(x.Describe(), v)
	// Output: tensor(float)[2 3] [1 2 3 4 5 6]
}

// A zeroed tensor of any element type, by its DataType.
func ExampleNew() {
	mask, err := tensor.New(tensor.Bool, 2, 2)
	fmt.Println(mask.Describe(), mask.Len(), err)
	// Output: tensor(bool)[2 2] 4 <nil>
}
