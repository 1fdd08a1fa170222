package ops_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func ExampleTile() {
	x := tensor.MustFromSlice([]string{"a", "b"}, 1, 2)
	y, err := ops.Tile(x, ops.TileOptions{Repeats: []int{2, 3}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(y.Shape(), y.Strings())

	_, err = ops.Tile(x, ops.TileOptions{Repeats: []int{2}})
	fmt.Println(err)
	// Output:
	// [2 6] [a b a b a b a b a b a b]
	// Tile-13 [repeats] repeats [2] has 1 entries for an input of rank 2
}
