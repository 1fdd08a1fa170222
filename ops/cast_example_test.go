package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// A uint8 image normalised to float in the model starts with a Cast.
func ExampleCast() {
	pixels := tensor.MustFromSlice([]uint8{0, 128, 255})
	f, err := ops.Cast(pixels, ops.CastOptions{To: tensor.Float})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[float32](f)
	fmt.Println(f.DataType(), v)
	// Output: float [0 128 255]
}
