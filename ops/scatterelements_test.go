package ops_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// ScatterElements along the last axis, row by row with the indices read in
// place, gives what the reference engine gives: repeated indices (the last
// update wins), negative ones, int32 and int64 indices, 1- to 8-byte
// elements, rows of indices narrower than data's; and an index out of
// range is refused.
func TestScatterElementsLastAxisRows(t *testing.T) {
	s, err := ops.Lookup("", "ScatterElements", 18)
	if err != nil {
		t.Fatal(err)
	}
	ref, ok := reference.Kernel("", "ScatterElements", s.Since)
	if !ok {
		t.Fatal("no reference ScatterElements")
	}
	r := rand.New(rand.NewPCG(9, 10))
	types := []tensor.DataType{tensor.Float, tensor.Double, tensor.Uint8, tensor.Int16, tensor.Int64, tensor.Float16}
	for iter := range 200 {
		rank := 1 + r.IntN(3)
		ds := make([]int, rank)
		for i := range ds {
			ds[i] = 1 + r.IntN(5)
		}
		is := append([]int(nil), ds...)
		is[rank-1] = r.IntN(ds[rank-1] + 3)
		dt := types[r.IntN(len(types))]
		data, upd := randomTensor(t, r, dt, ds), randomTensor(t, r, dt, is)
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
		axis := int64(-1)
		if r.IntN(2) == 0 {
			axis = int64(rank - 1)
		}
		node := &ops.Node{OpType: "ScatterElements", Version: s.Since, NumOutputs: 1,
			Attrs: map[string]ops.Attribute{"axis": {Type: ops.AttrInt, Int: axis}}}
		in := []tensor.Value{data, it, upd}
		got, err := s.Run(nil, node, in)
		if err != nil {
			t.Fatalf("%d: %v", iter, err)
		}
		want, err := ref(nil, node, in)
		if err != nil {
			t.Fatalf("%d: reference: %v", iter, err)
		}
		if !got[0].(*tensor.Tensor).Equal(want[0].(*tensor.Tensor)) {
			t.Fatalf("%d: %v data %v indices %v: got %v, want %v", iter, dt, ds, is, got[0], want[0])
		}
	}
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4}, 2, 2)
	bad := tensor.MustFromSlice([]int64{0, 2, 1, 0}, 2, 2)
	node := &ops.Node{OpType: "ScatterElements", Version: s.Since, NumOutputs: 1,
		Attrs: map[string]ops.Attribute{"axis": {Type: ops.AttrInt, Int: 1}}}
	if _, err := s.Run(nil, node, []tensor.Value{x, bad, x}); err == nil {
		t.Error("index 2 of an axis of 2 was not refused")
	}
}

// randomTensor is a tensor of dt and shape with random values.
func randomTensor(t *testing.T, r *rand.Rand, dt tensor.DataType, shape []int) *tensor.Tensor {
	x, err := tensor.New(dt, shape...)
	if err != nil {
		t.Fatal(err)
	}
	b := x.Bytes()
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return x
}

// Rows of the last-axis scatter go across the cores: two threads give the
// reference engine's bits, and a bad index in a late row is named by its
// position, the first one as the serial loop named it.
func TestScatterElementsLastAxisThreads(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const rows, w = 512, 300
	x, u := randomTensor(t, r, tensor.Float, []int{rows, w}), randomTensor(t, r, tensor.Float, []int{rows, w})
	idx := make([]int64, rows*w)
	for i := range idx {
		idx[i] = int64(r.IntN(2*w)) - w
	}
	it := tensor.MustFromSlice(idx, rows, w)
	got, err := ops.ScatterElements(x, it, u, ops.ScatterElementsOptions{Axis: -1}, ops.WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := ops.Lookup("", "ScatterElements", 18)
	ref, _ := reference.Kernel("", "ScatterElements", s.Since)
	node := &ops.Node{OpType: "ScatterElements", Version: s.Since, NumOutputs: 1,
		Attrs: map[string]ops.Attribute{"axis": {Type: ops.AttrInt, Int: -1}}}
	want, err := ref(nil, node, []tensor.Value{x, it, u})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(want[0].(*tensor.Tensor)) {
		t.Fatal("two threads differ from the reference engine")
	}
	idx[400*w+7], idx[450*w+3] = w, -w-1
	bad := tensor.MustFromSlice(idx, rows, w)
	_, err = ops.ScatterElements(x, bad, u, ops.ScatterElementsOptions{Axis: -1}, ops.WithThreads(2))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("position %d,", 400*w+7)) {
		t.Fatalf("got %v, want the index at position %d", err, 400*w+7)
	}
}
