package ops_test

import (
	"context"
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// EyeLike's k and Trilu's k at the ends of int64: a diagonal past
// either edge of the matrix is no diagonal, and a band past either edge
// keeps or drops whole rows; no overflow in the index arithmetic, no panic.
func TestDiagonalOffsetsAtInt64Ends(t *testing.T) {
	ctx := context.Background()
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 3, 4)
	zeros := make([]float32, 12)
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Double, tensor.Uint8, tensor.Bool} {
		for _, k := range []int64{math.MinInt64, math.MaxInt64, -3, 4} {
			out, err := ops.Call(ctx, nil, ops.Node{OpType: "EyeLike", Version: 22, Attrs: map[string]ops.Attribute{
				"k": {Type: ops.AttrInt, Int: k}, "dtype": {Type: ops.AttrInt, Int: int64(dt)}}}, x)
			if err != nil {
				t.Fatalf("EyeLike %v k=%d: %v", dt, k, err)
			}
			y := out[0].(*tensor.Tensor)
			for _, b := range y.Bytes() {
				if b != 0 {
					t.Fatalf("EyeLike %v k=%d: a one off the matrix: %v", dt, k, y)
				}
			}
		}
	}
	for _, c := range []struct {
		k     int64
		upper int64
		want  []float32
	}{
		{math.MaxInt64, 1, zeros},
		{math.MaxInt64, 0, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{math.MinInt64, 1, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{math.MinInt64, 0, zeros},
	} {
		out, err := ops.Call(ctx, nil, ops.Node{OpType: "Trilu", Version: 14, Attrs: map[string]ops.Attribute{
			"upper": {Type: ops.AttrInt, Int: c.upper}}}, x, tensor.Scalar(c.k))
		if err != nil {
			t.Fatalf("Trilu k=%d upper=%d: %v", c.k, c.upper, err)
		}
		got, _ := tensor.Data[float32](out[0].(*tensor.Tensor))
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("Trilu k=%d upper=%d: got %v, want %v", c.k, c.upper, got, c.want)
			}
		}
	}
}
