package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleDepthToSpace() {
	// Four channels of one pixel become one channel of 2x2 pixels.
	x := tensor.MustFromSlice([]uint8{1, 2, 3, 4}, 1, 4, 1, 1)
	y, err := ops.DepthToSpace(x, ops.DepthToSpaceOptions{Blocksize: 2, Mode: "CRD"})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[uint8](y)
	fmt.Println(y.Shape(), v)

	_, err = ops.DepthToSpace(x, ops.DepthToSpaceOptions{Blocksize: 3})
	fmt.Println(err)
	// Output:
	// [1 1 2 2] [1 2 3 4]
	// DepthToSpace-13 [channels] C = 4 is not divisible by blocksize*blocksize = 3*3
}
