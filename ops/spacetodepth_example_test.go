package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleSpaceToDepth() {
	// One channel of 2x2 pixels becomes four channels of one pixel.
	x := tensor.MustFromSlice([]uint8{1, 2, 3, 4}, 1, 1, 2, 2)
	y, err := ops.SpaceToDepth(x, ops.SpaceToDepthOptions{Blocksize: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[uint8](y)
	fmt.Println(y.Shape(), v)

	_, err = ops.SpaceToDepth(tensor.MustNew(tensor.Float, 1, 1, 3, 4), ops.SpaceToDepthOptions{Blocksize: 2})
	fmt.Println(err)
	// Output:
	// [1 4 1 1] [1 2 3 4]
	// SpaceToDepth-13 [spatial] H = 3 and W = 4 must both be divisible by blocksize 2
}
