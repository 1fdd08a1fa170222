package gemm_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
)

// A product of a 2×3 and a 3×2 matrix, then the same product with B packed
// once, as a model's constant weights are.
func ExamplePackB32() {
	a := []float32{1, 2, 3, 4, 5, 6}
	b := []float32{1, 0, 0, 1, 1, 1}
	c := make([]float32, 4)
	cfg := gemm.Config{Threads: 1}
	if err := gemm.Float32(cfg, false, false, 2, 2, 3, 1, a, 3, b, 2, 0, c, 2); err != nil {
		panic(err)
	}
	fmt.Println(c)
	pb, err := gemm.PackB32(cfg, false, 3, 2, b, 2)
	if err != nil {
		panic(err)
	}
	if err := gemm.Float32Packed(cfg, false, 2, 2, 3, 1, a, 3, pb, 1, c, 2); err != nil {
		panic(err)
	}
	fmt.Println(c)
	// Output:
	// [4 5 10 11]
	// [8 10 20 22]
}
