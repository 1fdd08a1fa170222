package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExamplePad() {
	x := tensor.MustFromSlice([]int32{1, 2, 3})
	// Reflect by more than the axis holds: the mirror image repeats, as
	// numpy.pad does.
	y, err := ops.Pad(x, ops.PadOptions{Mode: "reflect", Pads: []int{4, 2}})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int32](y)
	fmt.Println(v)
	// A negative pad crops; the constant has the data's type.
	y, _ = ops.Pad(x, ops.PadOptions{Pads: []int{-1, 2}, ConstantValue: tensor.Scalar[int32](9)})
	v, _ = tensor.ToSlice[int32](y)
	fmt.Println(v)
	// Edge mode needs elements to copy.
	_, err = ops.Pad(tensor.MustNew(tensor.Float, 0), ops.PadOptions{Mode: "edge", Pads: []int{1, 0}})
	fmt.Println(err)
	// Output:
	// [1 2 3 2 1 2 3 2 1]
	// [2 3 9 9]
	// Pad-25 [mode] edge mode cannot pad axis 0: no element is left on it to read
}
