package ops_test

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// GatherElements along the last axis, a row at a time with the indices read
// in place, gives the reference engine's bits: negative indices, int32 and
// int64 indices, 1- to 16-byte elements, rows of indices narrower or wider
// than data's, one and two threads; an index out of range is refused.
func TestGatherElementsLastAxisRows(t *testing.T) {
	s, err := ops.Lookup("", "GatherElements", 13)
	if err != nil {
		t.Fatal(err)
	}
	ref, ok := reference.Kernel("", "GatherElements", s.Since)
	if !ok {
		t.Fatal("no reference GatherElements")
	}
	r := rand.New(rand.NewPCG(13, 14))
	types := []tensor.DataType{tensor.Float, tensor.Double, tensor.Uint8, tensor.Int16, tensor.Complex128}
	for iter := range 200 {
		rank := 1 + r.IntN(3)
		ds := make([]int, rank)
		for i := range ds {
			ds[i] = 1 + r.IntN(5)
		}
		if iter%20 == 0 {
			ds[0] = 3000 // rows enough to go across the cores
		}
		is := append([]int(nil), ds...)
		is[rank-1] = r.IntN(ds[rank-1] + 3)
		n := 1
		for _, d := range is {
			n *= d
		}
		idx := make([]int64, n)
		for i := range idx {
			idx[i] = int64(r.IntN(2*ds[rank-1])) - int64(ds[rank-1])
		}
		var it *tensor.Tensor
		if r.IntN(2) == 0 {
			i32 := make([]int32, n)
			for i, v := range idx {
				i32[i] = int32(v)
			}
			it = tensor.MustFromSlice(i32, is...)
		} else {
			it = tensor.MustFromSlice(idx, is...)
		}
		dt := types[r.IntN(len(types))]
		data := randomTensor(t, r, dt, ds)
		node := &ops.Node{OpType: "GatherElements", Version: s.Since, NumOutputs: 1,
			Attrs: map[string]ops.Attribute{"axis": {Type: ops.AttrInt, Int: -1}}}
		in := []tensor.Value{data, it}
		want, err := ref(nil, node, in)
		if err != nil {
			t.Fatalf("%d: reference: %v", iter, err)
		}
		for _, threads := range []int{1, 2} {
			got, err := ops.GatherElements(data, it, ops.GatherElementsOptions{Axis: -1}, ops.WithThreads(threads))
			if err != nil {
				t.Fatalf("%d: %v", iter, err)
			}
			if !got.Equal(want[0].(*tensor.Tensor)) {
				t.Fatalf("%d: %v data %v indices %v, %d threads: differs from the reference", iter, dt, ds, is, threads)
			}
		}
	}
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4}, 2, 2)
	for _, bad := range [][]int64{{0, 2, 1, 0}, {0, 1, -3, 0}} {
		if _, err := ops.GatherElements(x, tensor.MustFromSlice(bad, 2, 2), ops.GatherElementsOptions{Axis: 1}); err == nil {
			t.Errorf("indices %v of an axis of 2 were not refused", bad)
		}
	}
}
