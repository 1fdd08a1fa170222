package reference

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestGatherElementsLastAxisEngines checks the fast engine's last-axis
// GatherElements (indices read in place, rows across the cores) against
// the reference: every element size, int32 and int64 indices with
// negatives, more or fewer indices than data along the axis, rows enough
// to be split, and an index out of range (the same rule refused).
func TestGatherElementsLastAxisEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 21))
	for _, dt := range []tensor.DataType{tensor.Uint8, tensor.Float16, tensor.Float, tensor.Double, tensor.Complex128, tensor.Bool, tensor.String} {
		for _, idt := range []tensor.DataType{tensor.Int32, tensor.Int64} {
			for _, ni := range []int{0, 1, 5, 9, 23} {
				shape := []int{3, 70, 9}
				data := randomIndexingTensor(r, dt, shape...)
				indices := indexTensor(r, idt, 9, 3, 70, ni)
				for _, axis := range []int64{-1, 2} {
					bothEngines(t, &ops.Node{OpType: "GatherElements", Version: 13, Attrs: map[string]ops.Attribute{"axis": intAttribute(axis)}}, data, indices)
				}
				if ni == 0 {
					continue
				}
				// one index out of range, either way
				bad := indexTensor(r, idt, 9, 3, 70, ni)
				v, _ := bad.Float64s()
				pos := r.IntN(len(v))
				for _, out := range []int64{9, -10} {
					switch idt {
					case tensor.Int32:
						d, _ := tensor.Data[int32](bad)
						d[pos] = int32(out)
					default:
						d, _ := tensor.Data[int64](bad)
						d[pos] = out
					}
					bothEngines(t, &ops.Node{OpType: "GatherElements", Version: 13, Attrs: map[string]ops.Attribute{"axis": intAttribute(-1)}}, data, bad)
				}
			}
		}
	}
}
