package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// An embedding lookup: rows 2, 0 and 2 of a 3x2 table.
func ExampleGather() {
	table := tensor.MustFromSlice([]float32{0, 0.5, 1, 1.5, 2, 2.5}, 3, 2)
	rows, err := ops.Gather(table, tensor.MustFromSlice([]int64{2, 0, -1}, 3), ops.GatherOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.ToSlice[float32](rows)
	fmt.Println(rows.Shape(), v)
	// Output: [3 2] [2 2.5 0 0.5 2 2.5]
}
