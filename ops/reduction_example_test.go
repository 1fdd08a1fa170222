package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleReduceSum() {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	y, err := ops.ReduceSum(x, ops.ReduceOptions{Axes: []int{1}})
	if err != nil {
		panic(err)
	}
	fmt.Println(y.Shape(), y)
	// Output: [2 1] tensor(float)[2 1]
	// [[6]
	//  [15]]
}

func ExampleReduceMean() {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	y, err := ops.ReduceMean(x, ops.ReduceOptions{Axes: []int{0}, DropAxes: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(y.Shape(), y)
	// Output: [3] tensor(float)[3]
	// [2.5 3.5 4.5]
}

func ExampleReduceMax() {
	x := tensor.MustFromSlice([]int32{3, 9, 4, 1}, 2, 2)
	y, err := ops.ReduceMax(x, ops.ReduceOptions{DropAxes: true}) // every axis
	if err != nil {
		panic(err)
	}
	fmt.Println(y)
	// Output: tensor(int32)[]
	// 9
}

func ExampleSoftmax() {
	x := tensor.MustFromSlice([]float32{0, 0, 1000, 1000}, 2, 2)
	y, err := ops.Softmax(x, ops.SoftmaxOptions{}) // along the last axis, the default
	if err != nil {
		panic(err)
	}
	fmt.Println(y)
	// Output: tensor(float)[2 2]
	// [[0.5 0.5]
	//  [0.5 0.5]]
}

func ExampleGlobalAveragePool() {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 10, 20, 30, 40}, 1, 2, 2, 2)
	y, err := ops.GlobalAveragePool(x)
	if err != nil {
		panic(err)
	}
	fmt.Println(y.Shape(), y)
	// Output: [1 2 1 1] tensor(float)[1 2 1 1]
	// [[[[2.5]]
	//
	//   [[25]]]]
}

func ExampleAveragePool() {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9}, 1, 1, 3, 3)
	y, err := ops.AveragePool(x, ops.AveragePoolOptions{KernelShape: []int{2, 2}})
	if err != nil {
		panic(err)
	}
	fmt.Println(y)
	// Output: tensor(float)[1 1 2 2]
	// [[[[3 4]
	//    [6 7]]]]
}

func ExampleArgMax() {
	scores := tensor.MustFromSlice([]float32{0.1, 0.7, 0.2, 0.5, 0.5, 0.0}, 2, 3)
	y, err := ops.ArgMax(scores, ops.ArgMaxOptions{Axis: -1})
	if err != nil {
		panic(err)
	}
	fmt.Println(y)
	// Output: tensor(int64)[2 1]
	// [[1]
	//  [0]]
}
