package tensor_test

import (
	"errors"
	"fmt"

	"github.com/onnxshape/onnxshape/tensor"
)

// A constant of a model's element type from a literal: 114/255 as float,
// not double.
func ExampleScalarOf() {
	dt, _ := tensor.ParseDataType("float32")
	gray, err := tensor.ScalarOf(dt, 114.0/255)
	fmt.Println(gray.Describe(), err)
	// Output: tensor(float)[] <nil>
}

// A shape read from outside is refused before it is allocated.
func ExampleNewLimited() {
	_, err := tensor.NewLimited(1<<30, tensor.Float, 100000, 100000)
	fmt.Println(errors.Is(err, tensor.ErrLimit))
	// Output: true
}

// Reshape reads its shape as ONNX Reshape does: one -1 is inferred, a 0
// copies the input's dimension.
func ExampleTensor_Reshape() {
	x := tensor.MustFromSlice([]int8{1, 2, 3, 4, 5, 6}, 2, 3)
	y, _ := x.Reshape(-1, 2)
	v, _ := y.Int64s()
	fmt.Println(y.Shape(), v)
	z, _ := x.Reshape(0, 3, -1)
	fmt.Println(z.Shape())
	// Output:
	// [3 2] [1 2 3 4 5 6]
	// [2 3 1]
}
