package ops_test

import (
	"context"
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Run an operator under a context and a size cap, at an older opset.
func ExampleCall() {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	out, err := ops.Call(context.Background(), &ops.Options{MaxTensorBytes: 1 << 20, Threads: 1},
		ops.Node{OpType: "Transpose", Version: 13, Attrs: map[string]ops.Attribute{"perm": {Type: ops.AttrInts, Ints: []int64{1, 0}}}}, x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out[0].Describe())

	_, err = ops.Call(context.Background(), &ops.Options{MaxTensorBytes: 8}, ops.Node{OpType: "Transpose", Version: 13}, x)
	fmt.Println(err)
	// Output:
	// tensor(float)[3 2]
	// Transpose-13 [size] output float of shape [3 2] would take 6 elements of 4 bytes, above the limit of 8 bytes
}
