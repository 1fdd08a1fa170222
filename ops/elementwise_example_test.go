package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleAdd() {
	// A per-channel bias: [2, 3] + [3] broadcasts the bias over the rows.
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	bias := tensor.MustFromSlice([]float32{10, 20, 30}, 3)
	y, err := ops.Add(x, bias)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(y.Shape(), must(tensor.ToSlice[float32](y)))

	_, err = ops.Add(x, tensor.MustFromSlice([]float32{1, 2}, 2))
	fmt.Println(err)
	// Output:
	// [2 3] [11 22 33 14 25 36]
	// Add-14 [broadcast] shapes [2 3] and [2] do not broadcast: dimension 1 is 3 and 2
}

func ExampleSub() {
	y, _ := ops.Sub(tensor.MustFromSlice([]int64{5, 7}, 2), tensor.Scalar[int64](2))
	fmt.Println(y.Shape(), must(tensor.ToSlice[int64](y)))
	// Output: [2] [3 5]
}

func ExampleMul() {
	y, _ := ops.Mul(tensor.MustFromSlice([]float64{1.5, -2}, 2, 1), tensor.MustFromSlice([]float64{2, 4}, 2))
	fmt.Println(y.Shape(), must(tensor.ToSlice[float64](y)))
	// Output: [2 2] [3 6 -4 -8]
}

func ExampleDiv() {
	// Normalise uint8 pixels to float: convert first (Div keeps its
	// type); integer division truncates toward zero.
	y, _ := ops.Div(tensor.MustFromSlice([]float32{0, 51, 255}, 3), tensor.Scalar[float32](255))
	fmt.Println(must(tensor.ToSlice[float32](y)))
	q, _ := ops.Div(tensor.MustFromSlice([]int32{7, -7}, 2), tensor.Scalar[int32](2))
	fmt.Println(must(tensor.ToSlice[int32](q)))
	// Output:
	// [0 0.2 1]
	// [3 -3]
}

func ExamplePow() {
	// The exponent may be of another type than the base.
	y, _ := ops.Pow(tensor.MustFromSlice([]float32{2, 3}, 2), tensor.MustFromSlice([]int64{3, 2}, 2))
	fmt.Println(y.Shape(), must(tensor.ToSlice[float32](y)))
	// Output: [2] [8 9]
}

func ExampleRelu() {
	y, _ := ops.Relu(tensor.MustFromSlice([]float32{-1, 0, 2}, 3))
	fmt.Println(y.Shape(), must(tensor.ToSlice[float32](y)))
	// Output: [3] [0 0 2]
}

func ExampleSigmoid() {
	y, _ := ops.Sigmoid(tensor.MustFromSlice([]float64{0, 2}, 2))
	fmt.Println(y.Shape(), must(tensor.ToSlice[float64](y)))
	// Output: [2] [0.5 0.8807970779778823]
}

func ExampleClip() {
	// A nil bound leaves that side open: Relu6 is Clip to [0, 6].
	x := tensor.MustFromSlice([]float32{-3, 2, 9}, 3)
	y, _ := ops.Clip(x, tensor.Scalar[float32](0), tensor.Scalar[float32](6))
	fmt.Println(y.Shape(), must(tensor.ToSlice[float32](y)))
	y, _ = ops.Clip(x, nil, tensor.Scalar[float32](1))
	fmt.Println(y.Shape(), must(tensor.ToSlice[float32](y)))
	// Output:
	// [3] [0 2 6]
	// [3] [-3 1 1]
}

func ExampleWhere() {
	// Replace negative values by 0: the condition and the two sources
	// broadcast to each other.
	x := tensor.MustFromSlice([]float32{-1, 4, -2, 3}, 2, 2)
	positive, _ := ops.Greater(x, tensor.Scalar[float32](0))
	y, _ := ops.Where(positive, x, tensor.Scalar[float32](0))
	fmt.Println(y.Shape(), must(tensor.ToSlice[float32](y)))
	// Output: [2 2] [0 4 0 3]
}

func ExampleGreater() {
	y, _ := ops.Greater(tensor.MustFromSlice([]int32{1, 5, 3}, 3), tensor.Scalar[int32](2))
	fmt.Println(y.Shape(), must(tensor.ToSlice[bool](y)))
	// Output: [3] [false true true]
}

// must returns v, for examples whose errors cannot happen.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
