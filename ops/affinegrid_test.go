package ops

import (
	"bytes"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// AffineGrid's workers each start mid-grid (their first point's indices
// divided out) and step from there: any split of the points gives the one
// worker's bits, for 2-D and 3-D grids, float and double.
func TestAffineGridSplitsGiveOneWorkersBits(t *testing.T) {
	for _, c := range []struct {
		theta []int
		size  []int64
	}{
		{[]int{3, 2, 3}, []int64{3, 1, 197, 231}},
		{[]int{2, 3, 4}, []int64{2, 1, 33, 37, 39}},
	} {
		for _, dt := range []tensor.DataType{tensor.Float, tensor.Double} {
			theta := tensor.MustNew(dt, c.theta...)
			for i := range theta.Len() {
				v := float64((i*37)%11-5) / 3
				if dt == tensor.Float {
					d, _ := tensor.Data[float32](theta)
					d[i] = float32(v)
				} else {
					d, _ := tensor.Data[float64](theta)
					d[i] = v
				}
			}
			size := tensor.MustFromSlice(c.size, len(c.size))
			for _, align := range []int64{0, 1} {
				attrs := map[string]Attribute{"align_corners": intAttribute(align)}
				one, err := runNode(NewOptions(WithThreads(1)), "AffineGrid", 20, attrs, theta, size)
				if err != nil {
					t.Fatal(err)
				}
				for _, threads := range []int{2, 3, 7} {
					got, err := runNode(NewOptions(WithThreads(threads)), "AffineGrid", 20, attrs, theta, size)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got.Bytes(), one.Bytes()) {
						t.Fatalf("%v %v size %v align %d: %d workers differ from one", dt, c.theta, c.size, align, threads)
					}
				}
			}
		}
	}
}
