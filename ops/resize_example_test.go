package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleResize() {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4}, 1, 1, 2, 2)
	// Bilinear 2x upsampling of the last two axes, half_pixel coordinates.
	y, err := ops.Resize(x, ops.ResizeOptions{Mode: ops.Linear, Axes: []int{2, 3}, Scales: []float32{2, 2}})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[float32](y)
	fmt.Println(y.Shape(), v[:4])
	// Nearest mode moves any type; sizes with not_larger keep the aspect ratio.
	s := tensor.MustFromSlice([]string{"a", "b", "c", "d"}, 2, 2)
	y, _ = ops.Resize(s, ops.ResizeOptions{Sizes: []int{3, 5}, KeepAspectRatioPolicy: "not_larger"})
	fmt.Println(y.Shape(), y.Strings())
	// Exactly one of scales and sizes.
	_, err = ops.Resize(x, ops.ResizeOptions{})
	fmt.Println(err)
	// Output:
	// [1 1 4 4] [1 1.25 1.75 2]
	// [3 3] [a a b a a b c c d]
	// Resize-19 [scales] give scales or sizes: neither is given
}

func ExampleUpsample() {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4}, 2, 2)
	y, err := ops.Upsample(x, ops.UpsampleOptions{Scales: []float32{1, 3}})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[float32](y)
	fmt.Println(y.Shape(), v)
	// Output:
	// [2 6] [1 1 1 2 2 2 3 3 3 4 4 4]
}
