package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Every operator is a plain Go function: tensors in (nil for an optional
// input left out), its attributes in an options struct (a nil field keeps
// the default), the run's knobs as Option values, its outputs back.
func ExampleElu() {
	x := tensor.MustFromSlice([]float32{-1, 0, 2}, 3)
	y, err := ops.Elu(x, ops.EluOptions{Alpha: ops.Ptr[float32](0.5)}, ops.WithThreads(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := tensor.Data[float32](y)
	fmt.Printf("%.4f\n", v)
	// Output: [-0.3161 0.0000 2.0000]
}

// An operator with several outputs returns them in order.
func ExampleTopK() {
	x := tensor.MustFromSlice([]float32{3, 1, 4, 1, 5}, 5)
	k := tensor.MustFromSlice([]int64{2}, 1)
	out, err := ops.TopK(x, k, ops.TopKOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	values, _ := tensor.Data[float32](out[0])
	indices, _ := tensor.Data[int64](out[1])
	fmt.Println(values, indices)
	// Output: [5 4] [4 2]
}
