package ops_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The plain operator functions take the knobs of a model run as trailing
// options: a context, a cap on any tensor's bytes, a thread count and the
// profile.
func ExampleWithMaxTensorBytes() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	x := tensor.MustNew(tensor.Uint8, 1, 480, 640, 3)
	nchw, err := ops.Transpose(x, ops.TransposeOptions{Perm: []int{0, 3, 1, 2}},
		ops.WithContext(ctx), ops.WithMaxTensorBytes(1<<20), ops.WithThreads(1))
	fmt.Println(nchw.Shape(), err)

	_, err = ops.Tile(x, ops.TileOptions{Repeats: []int{4, 1, 1, 1}}, ops.WithMaxTensorBytes(1<<20))
	fmt.Println(errors.Is(err, ops.ErrLimit))
	// Output:
	// [1 3 480 640] <nil>
	// true
}
