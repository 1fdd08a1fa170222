package ops_test

import (
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleSlice() {
	x := tensor.MustFromSlice([]int32{1, 2, 3, 4, 5, 6, 7, 8}, 2, 4)
	// Every row, the columns backwards from the last: x[:, ::-1].
	y, err := ops.Slice(x, ops.SliceOptions{
		Starts: []int64{-1},
		Ends:   []int64{math.MinInt64},
		Axes:   []int64{1},
		Steps:  []int64{-1},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[int32](y)
	fmt.Println(y.Shape(), v)
	// Output:
	// [2 4] [4 3 2 1 8 7 6 5]
}
