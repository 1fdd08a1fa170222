package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleIdentity() {
	x := tensor.MustFromSlice([]float32{1, 2, 3})
	y, err := ops.Identity(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(y.Describe(), y.(*tensor.Tensor).SharesStorage(x))
	// Output:
	// tensor(float)[3] true
}
